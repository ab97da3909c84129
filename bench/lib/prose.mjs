// Deterministic prose for the benchmarks that look at results' text: words dense with numbers
// that are no PII (versions, dates, times, decimals, ids, amounts), with e-mail addresses, phone
// numbers, cards, IBANs and secrets planted in it when asked. The same seed writes the same texts.

const WORDS = 'the build of release 2.14.3 finished on 2024-01-15 at 12:30 with 1 250 tests in 38.5 s while the order 12345678 for 3 items was shipped to the customer and the report lists every step of the pipeline'.split(' ');
const PII = [
  ['email', 'jane.doe@example.com'],
  ['phone', '+44 20 7946 0958'],
  ['phone', '(555) 123-4567'],
  ['card', '4111 1111 1111 1111'],
  ['iban', 'DE89 3704 0044 0532 0130 00'],
  ['secret', 'AKIAIOSFODNN7EXAMPLE'],
  ['secret', 'ghp_aB3dE5gH7jK9mN1pQ2sT4vW6yZ8cF0hJaB3d'],
  ['secret', 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlLXNpZ25hdHVyZQ'],
];

/** A generator of its own: `random` (a linear congruential sequence from `seed`), `pick` and `prose`. */
export function proseWriter(seed = 42) {
  let state = seed;
  const random = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const pick = (items) => items[Math.floor(random() * items.length)];
  /** At most `bytes` characters of prose, with PII planted when `withPii`; `planted` counts it by kind. */
  const prose = (bytes, withPii, planted = {}) => {
    let out = '';
    for (;;) {
      const [kind, value] = withPii && random() < 0.03 ? pick(PII) : ['', pick(WORDS)];
      const next = value + (random() < 0.08 ? '.\n' : ' ');
      if (out.length + next.length > bytes) return out;
      out += next;
      if (kind) planted[kind] = (planted[kind] ?? 0) + 1;
    }
  };
  return { random, pick, prose };
}
