import fc from 'fast-check';
import { Redactor } from './redactor.js';

const all = Redactor.of({});
function redacted(text: string, redactor = all): { text: string; counts: Record<string, number> } {
  const counts: Record<string, number> = {};
  return { text: redactor.redact(text, counts), counts };
}

/** Text no detector finds anything in: no digit, no `@`, no `+`. */
const PLAIN = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', ...' \n\t.,;:!?()\'"/-_#%&*[]{}<>=~|^$', 'é', 'ß', 'д', '😀', '中'];
const plainText = fc.string({ unit: fc.constantFrom(...PLAIN), maxLength: 40 });

const luhnCheckDigit = (digits: number[]): number => {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = digits[digits.length - 1 - index]!;
    if (index % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
};

const digitsOf = (length: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length });

/** A Luhn-valid card number of 13 to 19 digits, written together, in fours with spaces or dashes, or (15 digits) as 4-6-5. */
const cardNumber = fc
  .integer({ min: 13, max: 19 })
  .chain((length) => fc.tuple(fc.integer({ min: 1, max: 9 }), digitsOf(length - 2), fc.constantFrom('', ' ', '-'), fc.boolean()))
  .map(([first, rest, separator, amexLayout]) => {
    const body = [first, ...rest];
    const digits = [...body, luhnCheckDigit(body)].join('');
    if (separator === '') return digits;
    if (amexLayout && digits.length === 15) return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10)].join(separator);
    return digits.match(/.{1,4}/g)!.join(separator);
  });

/** Plain runs of digits no detector takes: too short, too long, or 13 to 19 digits that fail the Luhn check. */
const notACard = fc.oneof(
  fc.integer({ min: 1, max: 12 }).chain(digitsOf),
  fc.integer({ min: 20, max: 40 }).chain(digitsOf),
  fc.integer({ min: 13, max: 19 }).chain(digitsOf).map((digits) => {
    const body = digits.slice(0, -1);
    return [...body, (luhnCheckDigit(body) + 1 + (digits.at(-1)! % 9)) % 10];
  }),
).map((digits) => digits.join(''));

type Planted = { kind: 'card' | 'email'; value: string };
const planted = fc.oneof(cardNumber.map((value): Planted => ({ kind: 'card', value })), fc.emailAddress().map((value): Planted => ({ kind: 'email', value })));

describe('Redactor: what it finds in random text', () => {
  const NUM_RUNS = 500;

  it('masks every Luhn-valid card number and every e-mail address planted in text, and counts each', () => {
    let values = 0;
    fc.assert(
      fc.property(fc.array(fc.tuple(plainText, planted), { maxLength: 8 }), plainText, (parts, tail) => {
        const text = parts.map(([before, { value }]) => `${before} ${value} `).join('') + tail;
        const expected = parts.map(([before, { kind }]) => `${before} [${kind}] `).join('') + tail;
        const cards = parts.filter(([, { kind }]) => kind === 'card').length;
        const emails = parts.length - cards;
        values += parts.length;
        const out = redacted(text);
        expect(out.text).toBe(expected);
        expect(out.counts).toEqual({ ...(cards ? { card: cards } : {}), ...(emails ? { email: emails } : {}) });
      }),
      { numRuns: NUM_RUNS },
    );
    expect(values).toBeGreaterThan(NUM_RUNS);
  });

  it('leaves text without a match as it is: no digit and no @, or digit runs that fail Luhn or are too short or long', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(plainText, fc.option(notACard, { nil: undefined })), { maxLength: 8 }), (parts) => {
        const text = parts.map(([before, run]) => (run === undefined ? before : `${before} ${run} `)).join('');
        expect(redacted(text)).toEqual({ text, counts: {} });
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('Redactor: the order of the detectors', () => {
  it('masks an address as a whole, digits and all, before phone numbers and cards are looked for', () => {
    expect(redacted('reach 5551234567@sms.example.com or 4111111111111111@x.io')).toEqual({ text: 'reach [email] or [email]', counts: { email: 2 } });
  });

  it('takes an IBAN before its digits could pass for a phone number', () => {
    expect(redacted('pay to GB82 WEST 1234 5698 7654 32 or call 020 7946 0958')).toEqual({ text: 'pay to [iban] or call [phone]', counts: { iban: 1, phone: 1 } });
  });

  it('runs custom patterns first, each masked as its name, and only the built-in detectors chosen', () => {
    const redactor = Redactor.of({ detect: ['email'], patterns: [{ name: 'ticket', pattern: String.raw`\bTCK-\d+` }] });
    expect(redacted('TCK-4111111111111111 by a@b.io, card 4111111111111111', redactor)).toEqual({
      text: '[ticket] by [email], card 4111111111111111',
      counts: { ticket: 1, email: 1 },
    });
  });

  it('counts a pattern named like an inherited property as its own', () => {
    const counts: Record<string, number> = {};
    Redactor.of({ detect: [], patterns: [{ name: '__proto__', pattern: 'x' }] }).redact('x x', counts);
    expect(Object.hasOwn(counts, '__proto__')).toBe(true);
    expect(counts.__proto__).toBe(2);
  });
});

describe('Redactor: hostile text', () => {
  const MB = 1 << 20;
  const fill = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
  // A quadratic scan of 1 MB takes minutes; every detector in linear time takes well under a second.
  const GENEROUS_MS = 10_000;

  test.each([
    ['a digit run', fill('1')],
    ['digit groups', fill('4111 ')],
    ['digit pairs with dashes', fill('12-')],
    ['phone-like groups', fill('+1 (0)')],
    ['a@a@a@…', fill('a@')],
    ['addresses without a domain', fill('a.b@c')],
    ['a long dotted local part', `${fill('a.').slice(0, MB - 10)}@b.example`],
    ['a long dotted domain', `a@${fill('b.')}`],
    ['secret prefixes', fill('sk-')],
    ['JWT-like segments', fill('eyJ-')],
    ['JWT headers without payloads', fill('eyJabcdefghij.')],
    ['AWS-like ids', fill('AKIA')],
    ['PEM headers without an END', fill('-----BEGIN RSA PRIVATE KEY-----\n')],
    ['Bearer words', fill('Bearer ')],
    ['IBAN starts', fill('DE89 ')],
  ])('%s (1 MB) is redacted in linear time', (_name, text) => {
    const started = performance.now();
    redacted(text);
    expect(performance.now() - started).toBeLessThan(GENEROUS_MS);
  });

  it('runs a custom pattern that would backtrack in a JavaScript RegExp in linear time', () => {
    const started = performance.now();
    redacted(`${'a'.repeat(MB)}!`, Redactor.of({ detect: [], patterns: [{ name: 'nested', pattern: '(a+)+$' }] }));
    expect(performance.now() - started).toBeLessThan(GENEROUS_MS);
  });
});
