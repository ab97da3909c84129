import { jsonBytes, jsonPrefix } from './json-bytes.js';

describe('jsonPrefix', () => {
  test.each([
    ['plain', 'abcdef', 4, 'abcd'],
    ['quotes take two bytes', 'a"b', 2, 'a'],
    ['control characters take six', '\u0001x', 5, ''],
    ['three-byte characters are not split', '€€', 4, '€'],
    ['surrogate pairs are not split', '😀😀', 7, '😀'],
  ])('%s', (_name, input, budget, expected) => {
    expect(jsonPrefix(input, budget)).toBe(expected);
    expect(jsonBytes(expected) - 2).toBeLessThanOrEqual(budget);
  });
});
