import fc from 'fast-check';
import { canonicalInputs, sortedCopy } from '../../test/helpers/sorted-copy.js';
import { canonicalJson } from './canonical-json.js';
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
