import fc from 'fast-check';
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
