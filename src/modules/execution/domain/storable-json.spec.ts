import fc from 'fast-check';
import { MAX_STORED_DEPTH, storableCopy, unstorablePaths } from './storable-json.js';

/** What PostgreSQL's jsonb refuses in text: a NUL, or a surrogate without its other half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const storable = (text: string) => !text.includes('\u0000') && !LONE_SURROGATE.test(text);
const allTextStorable = (value: unknown): boolean => {
  if (typeof value === 'string') return storable(value);
  if (value === null || typeof value !== 'object') return true;
  return Object.entries(value).every(([key, inner]) => storable(key) && allTextStorable(inner));
};
const anyText = fc.string({ unit: 'binary', maxLength: 12 });
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, anyText, fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(anyText, fc.constantFrom('__proto__', 'constructor', 'toString', '')), tie('value'), { maxKeys: 4 }),
})).value;

describe('storable JSON', () => {
  it('names every key and string that cannot be stored, with its path', () => {
    const problems = unstorablePaths({ ok: 'fine', 'k\u0000': 1, list: ['x', 'lone \ud800'], deep: { v: 'a\u0000b', pair: '\ud83d\ude00' } });
    expect(problems.map((p) => p.path).sort()).toEqual(['arguments.deep.v', 'arguments.k\\u0000', 'arguments.list[1]']);
    expect(unstorablePaths({ emoji: '😀', text: 'plain', n: 1 })).toEqual([]);
  });

  it('escapes NUL and lone surrogates visibly, keeps valid pairs and prototype-looking keys', () => {
    const copy = storableCopy(JSON.parse('{"a\\u0000":"x\\u0000y","__proto__":{"lone":"\\udc00"},"ok":"😀"}'));
    expect(Object.keys(copy)).toEqual(['a\\u0000', '__proto__', 'ok']);
    expect(copy['a\\u0000']).toBe('x\\u0000y');
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ lone: '\\udc00' });
    expect(copy.ok).toBe('😀');
  });

  it('returns the very value when nothing needs escaping', () => {
    const value = { a: [1, 'two', { three: null }] };
    expect(storableCopy(value)).toBe(value);
  });

  it('keeps containers deeper than the stored depth as a note, without recursion', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const copy = storableCopy(deep);
    let level = 0;
    let cursor: unknown = copy;
    while (Array.isArray(cursor)) {
      cursor = cursor[0];
      level++;
    }
    expect(level).toBe(MAX_STORED_DEPTH);
    expect(cursor).toMatch(/^\[nested deeper than/);
  });

  it('makes any JSON value storable, changing nothing that was storable already', () => {
    fc.assert(
      fc.property(json, (value) => {
        const copy = storableCopy(value);
        expect(allTextStorable(copy)).toBe(true);
        expect(JSON.stringify(copy) === JSON.stringify(value)).toBe(allTextStorable(value));
        expect(unstorablePaths(value).length === 0).toBe(allTextStorable(value));
      }),
      { numRuns: 500 },
    );
  });
});
