import fc from 'fast-check';
import { secretForms } from './secret-forms.js';
import { MIN_SCRUBBED_LENGTH, SecretScrubber, secretMarker } from './secret-scrubber.js';

describe('SecretScrubber', () => {
  const scrubber = new SecretScrubber([
    { name: 'API_TOKEN', value: 's3cr3t-token' },
    { name: 'LONGER', value: 's3cr3t-token-and-more' },
    { name: 'SPACED', value: 'p@ss word/+' },
    { name: 'SHORT', value: 'abc' },
  ]);

  it('replaces values in text by a marker naming the secret, longest first', () => {
    expect(scrubber.text('a s3cr3t-token b s3cr3t-token-and-more c')).toBe(`a ${secretMarker('API_TOKEN')} b ${secretMarker('LONGER')} c`);
  });

  it('also catches the URL-encoded form', () => {
    expect(scrubber.text(`?p=${encodeURIComponent('p@ss word/+')}`)).toBe(`?p=${secretMarker('SPACED')}`);
  });

  it('leaves values shorter than the minimum alone', () => {
    expect('abc'.length).toBeLessThan(MIN_SCRUBBED_LENGTH);
    expect(scrubber.text('abcabc')).toBe('abcabc');
  });

  it('scrubs strings and keys at any depth without recursion, keeping __proto__ keys as own properties', () => {
    let deep: unknown = 's3cr3t-token';
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const input = JSON.parse('{"__proto__": {"s3cr3t-token": "x s3cr3t-token"}, "n": 1, "deep": null}');
    input.deep = deep;
    const out = scrubber.json(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'n', 'deep']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')!.value).toEqual({ [secretMarker('API_TOKEN')]: `x ${secretMarker('API_TOKEN')}` });
    let inner: unknown = out.deep;
    while (Array.isArray(inner)) inner = inner[0];
    expect(inner).toBe(secretMarker('API_TOKEN'));
    expect(input.n).toBe(1);
  });

  it('builds one scrubber per list of secrets, which no longer changes', () => {
    const list = Object.freeze([{ name: 'API_TOKEN', value: 's3cr3t-token' }]);
    expect(SecretScrubber.of(list)).toBe(SecretScrubber.of(list));
    expect(SecretScrubber.of(list).text('a s3cr3t-token')).toBe(`a ${secretMarker('API_TOKEN')}`);
    expect(SecretScrubber.of([...list])).not.toBe(SecretScrubber.of(list));
  });

  it('returns the same value when it knows no secret', () => {
    const value = { a: 's3cr3t-token' };
    expect(SecretScrubber.none.json(value)).toBe(value);
  });

  it('never leaves a known value in its output (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: MIN_SCRUBBED_LENGTH, maxLength: 30 }), fc.array(fc.string(), { maxLength: 5 }), (secret, parts) => {
        const known = new SecretScrubber([{ name: 'S', value: secret }]);
        const text = parts.join(secret);
        const scrubbed = known.text(text);
        // Between the markers, no occurrence is left.
        for (const piece of scrubbed.split(secretMarker('S'))) expect(piece.includes(secret)).toBe(false);
        expect(known.json({ [text]: [text] })).toEqual({ [scrubbed]: [scrubbed] });
      }),
    );
  });
});

describe('SecretScrubber on encoded forms', () => {
  const secret = 'pg-pa55/word+?ü';
  const scrubber = new SecretScrubber([{ name: 'PGPASSWORD', value: secret }]);
  const marker = secretMarker('PGPASSWORD');
  const bytes = Buffer.from(secret);

  it('replaces the base64, hex and percent-encoded forms of a value, whole', () => {
    const forms = [
      bytes.toString('base64'),
      bytes.toString('base64').replace(/=+$/, ''),
      bytes.toString('base64url'),
      bytes.toString('hex'),
      bytes.toString('hex').toUpperCase(),
      encodeURIComponent(secret),
      encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
      new URLSearchParams({ p: `${secret} ` }).toString().slice(2, -1),
      [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''),
    ];
    for (const form of forms) expect({ form, scrubbed: scrubber.text(`<${form}>`) }).toEqual({ form, scrubbed: `<${marker}>` });
  });

  it('finds a value inside a longer base64 text at each of the three alignments', () => {
    for (const before of ['', 'a', 'ab', 'abc']) {
      const encoded = Buffer.from(`${before}${secret} and more`).toString('base64');
      const scrubbed = scrubber.text(encoded);
      expect(scrubbed).toContain(marker);
      // What is left decodes to the text around the value, never to the value.
      for (const piece of scrubbed.split(marker)) expect(Buffer.from(piece, 'base64').toString('latin1')).not.toContain('pa55');
    }
  });

  it('scrubs every encoding of a value embedded in random text (property)', () => {
    const encodings: Record<string, (text: string) => string> = {
      base64: (text) => Buffer.from(text).toString('base64'),
      'base64 without padding': (text) => Buffer.from(text).toString('base64').replace(/=+$/, ''),
      base64url: (text) => Buffer.from(text).toString('base64url'),
      'base64url with padding': (text) => Buffer.from(text).toString('base64').replace(/\+/g, '-').replace(/\//g, '_'),
      hex: (text) => Buffer.from(text).toString('hex'),
      'upper-case hex': (text) => Buffer.from(text).toString('hex').toUpperCase(),
      encodeURIComponent: (text) => encodeURIComponent(text),
      'lower-case escapes': (text) => encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
      'form-urlencoded': (text) => new URLSearchParams({ v: text }).toString().slice(2),
      'every byte escaped': (text) => [...Buffer.from(text)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
    };
    // Characters of one to four UTF-8 bytes.
    const character = fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xd7ff }), fc.integer({ min: 0x10000, max: 0x10ffff })).map((code) => String.fromCodePoint(code));
    const value = fc.string({ unit: character, minLength: MIN_SCRUBBED_LENGTH, maxLength: 40 });
    fc.assert(
      fc.property(value, fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), fc.string(), fc.string(), fc.constantFrom(...Object.keys(encodings)), (secret, before, after, left, right, encoding) => {
        const encode = encodings[encoding]!;
        const scrubbed = new SecretScrubber([{ name: 'S', value: secret }]).text(`${left}${encode(`${before}${secret}${after}`)}${right}`);
        expect(scrubbed).toContain(secretMarker('S'));
        // Nothing that spells the value's own bytes is left: the encoded text around it, at most.
        for (const piece of scrubbed.split(secretMarker('S'))) expect(piece).not.toContain(encodedSpan(encoding, encode, before, secret));
      }),
    );
  });

  it('leaves text that holds no form of a value unchanged (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: MIN_SCRUBBED_LENGTH, maxLength: 30 }), fc.string({ maxLength: 2000 }), (secret, text) => {
        fc.pre(!secretForms(secret).some((form) => text.includes(form)));
        const known = new SecretScrubber([{ name: 'S', value: secret }]);
        expect(known.text(text)).toBe(text);
        expect(known.json({ [text]: [text, 1, null] })).toEqual({ [text]: [text, 1, null] });
      }),
    );
  });
});

/**
 * The part of `encode(before + secret + …)` that spells the secret alone: for base64 the characters
 * whose six bits all come from it, for hex and percent-encodings the encoding of the secret itself.
 */
function encodedSpan(encoding: string, encode: (text: string) => string, before: string, secret: string): string {
  if (!encoding.startsWith('base64')) return encode(secret).replace(/=+$/, '');
  const offset = Buffer.byteLength(before);
  const whole = encode(`${before}${secret}`);
  return whole.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + Buffer.byteLength(secret))) / 6));
}
