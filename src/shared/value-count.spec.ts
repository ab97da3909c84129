import { holdsMoreValues } from './value-count.js';

describe('holdsMoreValues', () => {
  it('counts values only up to the limit', () => {
    const list = Array.from({ length: 6_600 }, (_, i) => ({ k: i, v: 'x' }));
    expect(holdsMoreValues([{ list }, null], 5_000)).toBe(true);
    expect(holdsMoreValues([{ a: [1, 2, 3] }, { b: 'c' }], 5_000)).toBe(false);
    expect(holdsMoreValues([{ a: [1, 2, 3] }], 5)).toBe(true);
  });
});
