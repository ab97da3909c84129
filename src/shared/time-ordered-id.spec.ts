import fc from 'fast-check';
import { timeOrderedId } from './time-ordered-id.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The Unix milliseconds an id carries (its first 48 bits). */
function millisOf(id: string): number {
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

describe('timeOrderedId', () => {
  it('is a version 7, RFC 9562 variant UUID carrying the time it is given', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 - 1 }), (now) => {
        const id = timeOrderedId(now);
        expect(id).toMatch(UUID_V7);
        expect(millisOf(id)).toBe(now);
      }),
      { numRuns: 2000 },
    );
  });

  it('sorts, as text and as PostgreSQL compares uuids (byte order), after every id of an earlier millisecond', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 - 2 }), fc.integer({ min: 1, max: 2 ** 20 }), (earlier, gap) => {
        const later = Math.min(earlier + gap, 2 ** 48 - 1);
        const a = timeOrderedId(earlier);
        const b = timeOrderedId(later);
        expect(a < b).toBe(true);
        expect(Buffer.compare(Buffer.from(a.replaceAll('-', ''), 'hex'), Buffer.from(b.replaceAll('-', ''), 'hex'))).toBe(-1);
      }),
    );
  });

  it('differs between ids of one millisecond (74 random bits, drawn from the kernel in blocks)', () => {
    const now = Date.now();
    const ids = new Set<string>();
    // More ids than one block of random bytes serves, so refills are crossed several times.
    for (let i = 0; i < 50_000; i++) ids.add(timeOrderedId(now));
    expect(ids.size).toBe(50_000);
    const randomBits = [...ids].slice(0, 2000).map((id) => id.slice(15, 18) + id.slice(20, 23) + id.slice(24));
    // Every hex digit of the random part takes several values: no byte of the pool is left unused.
    for (let digit = 0; digit < randomBits[0]!.length; digit++) expect(new Set(randomBits.map((bits) => bits[digit])).size).toBeGreaterThan(8);
  });

  it('refuses a time outside its 48 bits', () => {
    for (const bad of [-1, 2 ** 48, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => timeOrderedId(bad)).toThrow(RangeError);
  });
});
