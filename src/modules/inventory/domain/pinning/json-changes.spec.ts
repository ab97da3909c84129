import fc from 'fast-check';
import { canonicalJson } from '../../../../shared/canonical-json.js';
import { applyJsonChanges, jsonChanges } from './json-changes.js';

/** Any JSON value, as an upstream's schema may hold it (keys such as "__proto__", "/" and "~" included). */
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.string(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'a/b', '~0', 'type', 'properties')), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A JSON Schema-like object, and a variant of it: the shapes a changed definition usually has. */
const schema = fc.dictionary(fc.constantFrom('type', 'properties', 'required', 'items', 'enum', 'maxLength', 'description', 'additionalProperties'), json, { maxKeys: 5 });

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

describe('jsonChanges', () => {
  it('lists the differences at JSON Pointers, key order aside', () => {
    const before = { type: 'object', properties: { path: { type: 'string', maxLength: 100 } }, required: ['path'], additionalProperties: false };
    const after = { required: ['path', 'scope'], properties: { path: { type: 'string' }, scope: { type: 'string' } }, type: 'object' };
    expect(jsonChanges(before, after)).toEqual({
      changes: [
        { path: '/properties/path/maxLength', op: 'removed', before: 100 },
        { path: '/properties/scope', op: 'added', after: { type: 'string' } },
        { path: '/required/1', op: 'added', after: 'scope' },
        { path: '/additionalProperties', op: 'removed', before: false },
      ],
      truncated: false,
    });
    expect(jsonChanges({ 'a/b': { '~': 1 } }, { 'a/b': { '~': 2 } }).changes).toEqual([{ path: '/a~1b/~0', op: 'changed', before: 1, after: 2 }]);
    expect(jsonChanges({ b: 1, a: [1] }, { a: [1], b: 1 }).changes).toEqual([]);
    expect(jsonChanges('x', { a: 1 }).changes).toEqual([{ path: '', op: 'changed', before: 'x', after: { a: 1 } }]);
  });

  it('never throws, and applying a complete list to the value before gives the value after', () => {
    fc.assert(
      fc.property(fc.oneof(json, schema), fc.oneof(json, schema), (before, after) => {
        const { changes, truncated } = jsonChanges(before, after, { maxChanges: 10_000, maxDepth: 64 });
        expect(truncated).toBe(false);
        expect(same(applyJsonChanges(before, changes), after)).toBe(true);
        expect(changes.length === 0).toBe(same(before, after));
      }),
      { numRuns: 500 },
    );
  });

  it('stays within its bounds: at most maxChanges, never deeper than maxDepth, never larger than both values together', () => {
    fc.assert(
      fc.property(json, json, fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 4 }), (before, after, maxChanges, maxDepth) => {
        const { changes, truncated } = jsonChanges(before, after, { maxChanges, maxDepth });
        expect(changes.length).toBeLessThanOrEqual(maxChanges);
        for (const change of changes) expect(change.path === '' ? 0 : change.path.split('/').length - 1).toBeLessThanOrEqual(maxDepth);
        const values = changes.map((c) => JSON.stringify([c.before ?? null, c.after ?? null]).length).reduce((a, b) => a + b, 0);
        expect(values).toBeLessThanOrEqual(JSON.stringify([before, after]).length + 12 * changes.length);
        if (!truncated) expect(same(applyJsonChanges(before, jsonChanges(before, after, { maxChanges: 10_000, maxDepth }).changes), after)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('reads a deep schema without running out of stack, reporting what lies below its depth whole', () => {
    let before: unknown = 'leaf';
    let after: unknown = 'other';
    for (let i = 0; i < 5000; i++) {
      before = { items: before };
      after = { items: after };
    }
    const { changes } = jsonChanges(before, after);
    expect(changes).toHaveLength(1);
    expect(changes[0]!.path.split('/')).toHaveLength(33);
  });
});
