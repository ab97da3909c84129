import fc from 'fast-check';
import { isSpecType } from '@modelcontextprotocol/client';
import { withoutPropertyValues } from './tool-inventory.js';

/** Mostly listings the check accepts, with now and then a field of any JSON in any place. */
const sometimesAnything = <T>(likely: fc.Arbitrary<T>) => fc.oneof({ arbitrary: likely, weight: 6 }, { arbitrary: fc.jsonValue(), weight: 1 });
const schema = fc.record(
  {
    type: sometimesAnything(fc.constant('object')),
    properties: sometimesAnything(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 })),
    required: sometimesAnything(fc.array(fc.string(), { maxLength: 2 })),
  },
  { requiredKeys: ['type'] },
);
const tool = sometimesAnything(fc.record({ name: sometimesAnything(fc.string()), inputSchema: sometimesAnything(schema), outputSchema: sometimesAnything(schema) }, { requiredKeys: ['name', 'inputSchema'] }));
const listing = sometimesAnything(fc.record({ tools: fc.array(tool, { maxLength: 3 }), nextCursor: fc.option(fc.string(), { nil: undefined }) }, { requiredKeys: ['tools'] }));

describe('the listing as the SDK shape check sees it', () => {
  it('gets the verdict of the whole listing, for any JSON (what a listing is parsed from)', () => {
    fc.assert(
      fc.property(listing, (value) => {
        const parsed: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
        expect(isSpecType.ListToolsResult(withoutPropertyValues(parsed))).toBe(isSpecType.ListToolsResult(parsed));
      }),
      { numRuns: 3000 },
    );
  });

  it('empties only maps of properties, leaving the listing itself untouched', () => {
    const listed = { tools: [{ name: 'a', inputSchema: { type: 'object', properties: { x: { type: 'string' } } } }, { name: 'b', inputSchema: { type: 'object', properties: [1] } }] };
    const before = JSON.stringify(listed);
    expect(withoutPropertyValues(listed)).toEqual({ tools: [{ name: 'a', inputSchema: { type: 'object', properties: {} } }, { name: 'b', inputSchema: { type: 'object', properties: [1] } }] });
    expect(JSON.stringify(listed)).toBe(before);
    expect(isSpecType.ListToolsResult(withoutPropertyValues(listed))).toBe(false);
  });
});
