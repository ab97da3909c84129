import fc from 'fast-check';
import { jsonNestingDepth, jsonShape, MAX_BODY_DEPTH, MAX_BODY_VALUES, parseJsonBody, unsafeKeyPath } from './json-body.js';

/** The reference: nesting of the parsed value (objects and arrays count one level each). */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let deepest = 0;
  for (const inner of Object.values(value)) deepest = Math.max(deepest, depthOf(inner));
  return deepest + 1;
}

/** The reference: values in the parsed value (itself, and every member and element, recursively). */
function valuesOf(value: unknown): { values: number; empty: number } {
  if (value === null || typeof value !== 'object') return { values: 1, empty: 0 };
  const inner = Object.values(value).map(valuesOf);
  return { values: 1 + inner.reduce((sum, v) => sum + v.values, 0), empty: (inner.length === 0 ? 1 : 0) + inner.reduce((sum, v) => sum + v.empty, 0) };
}

/** Strings full of what could fool a scanner: brackets, quotes, backslashes. */
const trickyString = fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', '\\', 'a', ' ', ':', ',', '\u2028') });
const trickyJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(trickyString, fc.integer(), fc.boolean(), fc.constant(null)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(trickyString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('jsonNestingDepth', () => {
  it('equals the depth of the parsed value, whatever the strings hold and however it is spaced', () => {
    fc.assert(
      fc.property(fc.oneof(trickyJson, fc.jsonValue({ maxDepth: 30 })), fc.constantFrom(0, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(jsonNestingDepth(text)).toBe(depthOf(JSON.parse(text)));
      }),
      { numRuns: 500 },
    );
  });

  it('counts deep nesting without recursion and stops once past the limit', () => {
    const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
    expect(jsonNestingDepth(deep)).toBe(1_000_000);
    expect(jsonNestingDepth(deep, 66)).toBe(67);
    expect(jsonNestingDepth('"[[[\\"[[["')).toBe(0);
    expect(jsonNestingDepth('{"a\\\\":[{}]}')).toBe(3);
  });
});

describe('jsonShape', () => {
  it('counts the values of the parsed value (an empty object or array once more), whatever the strings hold', () => {
    fc.assert(
      fc.property(fc.oneof(trickyJson, fc.jsonValue({ maxDepth: 30 })), fc.constantFrom(0, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const { values, empty } = valuesOf(JSON.parse(text));
        expect(jsonShape(text).values).toBe(values + empty);
      }),
      { numRuns: 500 },
    );
  });

  it('stops counting past the bound', () => {
    expect(jsonShape(JSON.stringify(Array.from({ length: 1000 }, (_, i) => i)), Infinity, 10).values).toBe(11);
  });
});

describe('parseJsonBody', () => {
  it(`accepts ${MAX_BODY_VALUES} values and refuses one more`, () => {
    // An array holding n - 1 numbers is n values.
    const withValues = (n: number) => JSON.stringify({ arguments: { list: Array.from({ length: n - 3 }, (_, i) => i) } });
    expect(parseJsonBody(withValues(MAX_BODY_VALUES))).toMatchObject({ ok: true });
    expect(parseJsonBody(withValues(MAX_BODY_VALUES + 1))).toEqual({
      ok: false,
      code: 'BODY_TOO_MANY_VALUES',
      message: 'The request body holds more than 20,000 values (objects, arrays and their members).',
      details: [{ path: 'body', message: 'holds more than 20000 values' }],
    });
  });

  it('accepts nesting up to the limit and refuses one level more', () => {
    const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(parseJsonBody(nest(MAX_BODY_DEPTH))).toMatchObject({ ok: true });
    expect(parseJsonBody(nest(MAX_BODY_DEPTH + 1))).toMatchObject({ ok: false, code: 'BODY_TOO_DEEP' });
  });

  it('refuses __proto__ and constructor.prototype with their path, keeps a plain constructor key as data', () => {
    expect(parseJsonBody('{"a":[{"b":{"__proto__":{"x":1}}}]}')).toMatchObject({ ok: false, code: 'UNSAFE_JSON_KEY', details: [{ path: 'a[0].b.__proto__' }] });
    expect(parseJsonBody('{"\\u005f\\u005fproto__":1}')).toMatchObject({ ok: false, code: 'UNSAFE_JSON_KEY', details: [{ path: '__proto__' }] });
    expect(parseJsonBody('{"c":{"constructor":{"prototype":{}}}}')).toMatchObject({ ok: false, code: 'UNSAFE_JSON_KEY', details: [{ path: 'c.constructor.prototype' }] });
    const plain = parseJsonBody('{"constructor":"x","n":{"constructor":{"name":"y"}},"proto":"__proto__"}');
    expect(plain).toEqual({ ok: true, value: { constructor: 'x', n: { constructor: { name: 'y' } }, proto: '__proto__' } });
    expect(Object.hasOwn((plain as { value: object }).value, 'constructor')).toBe(true);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('reports text that is not JSON as INVALID_JSON', () => {
    expect(parseJsonBody('{"a":')).toMatchObject({ ok: false, code: 'INVALID_JSON', details: [{ path: 'body' }] });
  });

  it('finds a prototype key wherever fast-check hides it', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.array(fc.nat(), { maxLength: 6 }), (value, turns) => {
        // Walk down by the turns, then plant the key in the object or array reached.
        const wrapper = { root: JSON.parse(JSON.stringify(value)) as unknown };
        let holder: object = wrapper;
        for (const turn of turns) {
          const children = Object.values(holder).filter((v): v is object => v !== null && typeof v === 'object');
          if (children.length === 0) break;
          holder = children[turn % children.length]!;
        }
        if (Array.isArray(holder)) holder.push(JSON.parse('{"__proto__":1}'));
        else Object.defineProperty(holder, '__proto__', { value: 1, enumerable: true });
        const text = JSON.stringify(wrapper);
        const parsed = parseJsonBody(text);
        expect(parsed).toMatchObject({ ok: false, code: 'UNSAFE_JSON_KEY' });
        const path = (parsed as { details: Array<{ path: string }> }).details[0]!.path;
        expect(path.endsWith('__proto__')).toBe(true);
        expect(unsafeKeyPath(JSON.parse(text))).toBe(path);
      }),
      { numRuns: 300 },
    );
  });
});
