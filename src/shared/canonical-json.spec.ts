import fc from 'fast-check';
import { canonicalInputs, sortedCopy } from '../../test/helpers/sorted-copy.js';
import { canonicalJson, sameJson } from './canonical-json.js';
import { definitionHash } from '../modules/inventory/domain/tool-definition.js';

const value = canonicalInputs({ dates: true });

describe('canonical JSON', () => {
  it('is the text JSON.stringify gives for the sorted copy, for any value (so stored definition hashes and chains keep verifying)', () => {
    fc.assert(fc.property(value, (input) => expect(canonicalJson(input)).toBe(JSON.stringify(sortedCopy(input)))), { numRuns: 3000 });
  });

  it('keeps the definition hash of a known tool', () => {
    // Computed with the sorted-copy definition; a change here would mark every stored tool as changed.
    expect(definitionHash({ name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })).toBe(
      '5003681a26492aff2c6e42445192955c44f7f3ce3e7bc41f9417cce76893221e',
    );
  });
});

describe('sameJson', () => {
  it('compares JSON values deeply, key order aside, and tells types apart', () => {
    expect(sameJson({ a: [1, { b: null, c: 'x' }], d: true }, { d: true, a: [1, { c: 'x', b: null }] })).toBe(true);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson(1, '1')).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  });

  it('agrees with a comparison of sorted copies', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => sameJson(a, b) === (JSON.stringify(sortedCopy(a)) === JSON.stringify(sortedCopy(b)))), { numRuns: 1000 });
    fc.assert(fc.property(fc.jsonValue(), (a) => sameJson(a, JSON.parse(JSON.stringify(a)))), { numRuns: 1000 });
  });

  it('agrees with canonicalJson on objects holding what JSON cannot (undefined, NaN, -0, functions)', () => {
    const odd = fc.oneof(fc.constant(undefined), fc.constant(Number.NaN), fc.constant(-0), fc.constant(() => 1), fc.constant(null), fc.integer({ min: -1, max: 1 }));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, odd, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('node'), { maxKeys: 3 })),
    })).node;
    const object = fc.dictionary(fc.constantFrom('a', 'b', 'c'), value, { maxKeys: 3 });
    fc.assert(fc.property(object, object, (a, b) => sameJson(a, b) === (canonicalJson(a) === canonicalJson(b))), { numRuns: 3000 });
  });

  it('compares values nested deeper than the stack', () => {
    const nest = (leaf: unknown) => {
      let value: unknown = leaf;
      for (let i = 0; i < 200_000; i++) value = i % 2 ? { items: value } : [value];
      return value;
    };
    expect(sameJson(nest('leaf'), nest('leaf'))).toBe(true);
    expect(sameJson(nest('leaf'), nest('other'))).toBe(false);
  });
});
