import { CardDetector, luhnValid } from './card-detector.js';
import type { Detector } from './detector.js';
import { EmailDetector } from './email-detector.js';
import { IbanDetector } from './iban-detector.js';
import { PatternDetector } from './pattern-detector.js';
import { PhoneDetector } from './phone-detector.js';
import { SecretDetector } from './secret-detector.js';

/** The text with what the detector found replaced by `[kind]`. */
function masked(detector: Detector, text: string): string {
  const spans = detector.find(text);
  let out = '';
  let kept = 0;
  for (let index = 0; index < spans.length; index += 2) {
    out += text.slice(kept, spans[index]) + `[${detector.kind}]`;
    kept = spans[index + 1]!;
  }
  return out + text.slice(kept);
}

const unchanged = (detector: Detector) => (text: string) => expect(masked(detector, text)).toBe(text);

describe('EmailDetector', () => {
  const email = new EmailDetector();

  test.each([
    ['Write to jane.doe+news@example.co.uk today', 'Write to [email] today'],
    ['john@example.com.', '[email].'],
    ['<a@b.io>, (x_y@mail-server.example.org)', '<[email]>, ([email])'],
    ["o'brien@example.ie", '[email]'],
    ['punycode: user@xn--bcher-kva.xn--tckwe', 'punycode: [email]'],
    ['a@b.com@c.org', '[email]@c.org'],
    ['mail a@b.com and c@d.net', 'mail [email] and [email]'],
  ])('%s', (text, expected) => expect(masked(email, text)).toBe(expected));

  test.each([['user@localhost'], ['a@b'], ['@example.com'], ['foo@bar.c'], ['x@-bad.com'], ['price: 5 @ 3.50'], ['no at sign here.example.com']])('leaves %s', unchanged(email));
});

describe('SecretDetector', () => {
  const secret = new SecretDetector();
  const alnum = (length: number) => 'aB3dE5gH7jK9mN1pQ2sT4vW6yZ8cF0hJ'.repeat(8).slice(0, length);
  const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
  const pem = ['-----BEGIN RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB', 'aFDrBz9vFqU4yPBQ8+2DjqjJ==', '-----END RSA PRIVATE KEY-----'].join('\n');

  test.each([
    ['AWS access key id', 'key AKIAIOSFODNN7EXAMPLE here', 'key [secret] here'],
    ['AWS session key id', 'ASIAY34FZKBOKMUTVV7A', '[secret]'],
    ['GitHub classic token', `token=ghp_${alnum(36)};`, 'token=[secret];'],
    ['GitHub OAuth token', `gho_${alnum(36)}`, '[secret]'],
    ['GitHub app tokens', `ghu_${alnum(36)} ghs_${alnum(36)} ghr_${alnum(36)}`, '[secret] [secret] [secret]'],
    ['GitHub fine-grained token', `github_pat_11ABCDEFG0${alnum(12)}_${alnum(59)}`, '[secret]'],
    ['Slack token', 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx', '[secret]'],
    ['Stripe keys', `sk_live_${alnum(24)} rk_live_${alnum(24)} pk_live_${alnum(24)} sk_test_${alnum(24)}`, '[secret] [secret] [secret] [secret]'],
    ['OpenAI key', `"sk-proj-${alnum(48)}"`, '"[secret]"'],
    ['Anthropic key', `sk-ant-api03-${alnum(80)}-${alnum(6)}AA`, '[secret]'],
    ['Google API key', `?key=AIzaSyD-${alnum(31)}&q=1`, '?key=[secret]&q=1'],
    ['JWT', `cookie: ${jwt}; path=/`, 'cookie: [secret]; path=/'],
    ['PEM private key', `before\n${pem}\nafter`, 'before\n[secret]\nafter'],
    ['PEM private key without its END line', `${pem.split('\n').slice(0, 3).join('\n')}`, '[secret]'],
    ['Bearer token (the word stays)', `Authorization: Bearer ${alnum(20)}`, 'Authorization: Bearer [secret]'],
    ['bearer JWT', `authorization: bearer ${jwt}`, 'authorization: bearer [secret]'],
  ])('%s', (_name, text, expected) => expect(masked(secret, text)).toBe(expected));

  test.each([
    ['AKIAIOSFODNN7EXAMPLEX'],
    ['xAKIAIOSFODNN7EXAMPLE'],
    ['ghp_short'],
    ['a task-list-of-many-things-to-do-today and a risk-free-plan-for-the-whole-year'],
    ['sk-short'],
    ['AIzaTooShort'],
    ['eyJhbGciOiJIUzI1NiJ9 is only a header'],
    ['-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----'],
    ['Bearer authentication uses a Bearer token'],
    ['Bearer Authentication'],
  ])('leaves %s', unchanged(secret));
});

describe('IbanDetector', () => {
  const iban = new IbanDetector();

  test.each([
    ['IBAN: DE89 3704 0044 0532 0130 00.', 'IBAN: [iban].'],
    ['DE89370400440532013000', '[iban]'],
    ['GB82 WEST 1234 5698 7654 32', '[iban]'],
    ['(GB82WEST12345698765432)', '([iban])'],
    ['FR14 2004 1010 0505 0001 3M02 606', '[iban]'],
    ['NO9386011117947 and BE68539007547034', '[iban] and [iban]'],
  ])('%s', (text, expected) => expect(masked(iban, text)).toBe(expected));

  test.each([
    ['DE88 3704 0044 0532 0130 00'], // check digits wrong
    ['DE89 3704 0044 0532 0130 0'], // too short
    ['DE89370400440532013000X'], // glued to more
    ['XDE89370400440532013000'],
    ['ZZ89370400440532013000'], // no such country
    ['de89370400440532013000'],
  ])('leaves %s', unchanged(iban));
});

describe('CardDetector', () => {
  const card = new CardDetector();

  test.each([
    ['Visa 4111 1111 1111 1111 exp', 'Visa [card] exp'],
    ['4111-1111-1111-1111', '[card]'],
    ['4111111111111111', '[card]'],
    ['Mastercard 5555555555554444, Discover 6011111111111117', 'Mastercard [card], Discover [card]'],
    ['Amex 3782 822463 10005', 'Amex [card]'],
    ['378282246310005', '[card]'],
    ['13 digits 4222222222222', '13 digits [card]'],
    ['4111 1111 1111 1111 123', '[card] 123'],
    ['qty 2 4111 1111 1111 1111', 'qty 2 [card]'],
    ['release 2.14.3 4111 1111 1111 1111', 'release 2.14.3 [card]'],
    ['4111 1111 1111 1111 38.5 s', '[card] 38.5 s'],
  ])('%s', (text, expected) => expect(masked(card, text)).toBe(expected));

  test.each([
    ['4111111111111112'], // fails Luhn
    ['v4111111111111111'],
    ['4111111111111111x'],
    ['pi 3.4111111111111111'],
    ['+4111111111111111'],
    ['123456789012345678901234567890'],
    ['4111 11 1111 1111 111'], // not printed as a card
    ['12345'],
  ])('leaves %s', unchanged(card));

  it('checks Luhn over the digits only', () => {
    expect(luhnValid('4111-1111 1111-1111', 0, 19)).toBe(true);
    expect(luhnValid('79927398713', 0, 11)).toBe(true);
    expect(luhnValid('79927398710', 0, 11)).toBe(false);
  });
});

describe('PhoneDetector', () => {
  const phone = new PhoneDetector();

  test.each([
    ['call +44 20 7946 0958 now', 'call [phone] now'],
    ['+1 (555) 123-4567', '[phone]'],
    ['+4915112345678', '[phone]'],
    ['+49 (0)30 1234567', '[phone]'],
    ['(555) 123-4567', '[phone]'],
    ['Tel. 555-123-4567.', 'Tel. [phone].'],
    ['555.123.4567', '[phone]'],
    ['020 7946 0958', '[phone]'],
    ['06 12 34 56 78', '[phone]'],
    ['0151 12345678', '[phone]'],
    ['1 800 555 1234', '[phone]'],
    ['(030) 1234567', '[phone]'],
    ['+1 555-123-4567', '[phone]'],
    ['Call (555) 123-4567 24/7', 'Call [phone] 24/7'],
    ['order 12345678 (555) 123-4567 12:30', 'order 12345678 [phone] 12:30'],
    ['+44 20 7946 0958 2.14.3', '[phone] 2.14.3'],
    ['(555) 123-4567 38.5 s', '[phone] 38.5 s'],
    ['on 2024-01-15 (555) 123-4567', 'on 2024-01-15 [phone]'],
    ['call 555-123-4567 1234 times', 'call [phone] 1234 times'],
  ])('%s', (text, expected) => expect(masked(phone, text)).toBe(expected));

  test.each([
    ['2024-01-15'],
    ['15.01.2024'],
    ['2024-01-15T12:30:00Z'],
    ['at 12:30:45'],
    ['version 1.2.3 and 10.0.19041'],
    ['v2.14.1234567'],
    ['order 12345678'],
    ['ID-1234567'],
    ['1 250 000 people'],
    ['10.000.000'],
    ['192.168.100.200'],
    ['pages 1000-2000'],
    ['3.14159265'],
    ['zip 12345-6789'],
    ['ISBN 978-3-16-148410-0'],
    ['+123'],
    ['1 2 3 4 5 6 7 8'],
    ['555-1234'],
    ['on 1 2024-01-15 at'],
    ['3 2024-01-15 250 customers'],
    ['1 12345678 250'],
    ['250 2024-01-15'],
    ['3 12345678 250 250 250 2024-01-15'],
    ['and 1 250 2024-01-15'],
  ])('leaves %s', unchanged(phone));
});

describe('PatternDetector', () => {
  it('masks every non-empty match of an administrator pattern, in RE2', () => {
    expect(masked(new PatternDetector('employee', String.raw`\bEMP-\d{4}\b`), 'EMP-1234 and EMP-5678x and EMP-9999')).toBe('[employee] and EMP-5678x and [employee]');
    expect(masked(new PatternDetector('x', 'x*'), 'abxxc')).toBe('ab[x]c');
  });

  it('refuses a pattern RE2 cannot run in linear time', () => {
    expect(() => new PatternDetector('back', String.raw`(a)\1`)).toThrow();
  });
});
