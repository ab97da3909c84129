import fc from 'fast-check';
import { isMoreDestructive, isWidened, namedChanges } from './named-changes.js';

const base = {
  name: 'search',
  description: 'Searches the notes.',
  inputSchema: { type: 'object', properties: { query: { type: 'string', maxLength: 100 }, kind: { enum: ['a', 'b'] } }, required: ['query'], additionalProperties: false },
  annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
};

describe('namedChanges', () => {
  it('names a new tool, and a rename', () => {
    expect(namedChanges(null, base)).toEqual(['new_tool']);
    expect(namedChanges({ ...base, name: 'find' }, base, 'find')).toEqual(['renamed_from:find']);
  });

  it('names each field that changed, nothing for the same definition in another key order', () => {
    expect(namedChanges(base, { ...base, description: 'x', title: 'T' })).toEqual(['title_changed', 'description_changed']);
    expect(namedChanges(base, { ...base, execution: { taskSupport: 'optional' } })).toEqual(['other_fields_changed']);
    expect(namedChanges(base, { annotations: base.annotations, inputSchema: base.inputSchema, description: base.description, name: base.name })).toEqual([]);
  });

  it('names a change toward more destructive annotations, with the MCP defaults for absent hints', () => {
    expect(namedChanges(base, { ...base, annotations: { ...base.annotations, readOnlyHint: false } })).toEqual(['annotations_changed', 'more_destructive']);
    expect(isMoreDestructive(base, { ...base, annotations: { readOnlyHint: true, openWorldHint: false } })).toBe(true); // destructiveHint absent: true
    expect(isMoreDestructive(base, { ...base, annotations: { readOnlyHint: true, destructiveHint: false } })).toBe(true); // openWorldHint absent: true
    expect(isMoreDestructive({ ...base, annotations: {} }, { ...base, annotations: { readOnlyHint: true } })).toBe(false);
    expect(isMoreDestructive(base, { ...base, annotations: { ...base.annotations, title: 'Search' } })).toBe(false);
  });

  it('names a new required parameter', () => {
    const after = { ...base, inputSchema: { ...base.inputSchema, properties: { ...base.inputSchema.properties, scope: { type: 'string' } }, required: ['query', 'scope'] } };
    expect(namedChanges(base, after)).toEqual(['input_schema_changed', 'new_required_parameter']);
  });

  it('names a widened schema: each constraint dropped or relaxed', () => {
    const input = base.inputSchema;
    const widened = [
      { ...input, additionalProperties: true },
      { ...input, required: [] },
      { ...input, properties: { ...input.properties, query: { type: 'string' } } },
      { ...input, properties: { ...input.properties, query: { type: 'string', maxLength: 1000 } } },
      { ...input, properties: { ...input.properties, query: { type: ['string', 'null'], maxLength: 100 } } },
      { ...input, properties: { ...input.properties, kind: { enum: ['a', 'b', 'c'] } } },
      { ...input, properties: { ...input.properties, extra: { type: 'string' } } },
      true,
    ];
    for (const schema of widened) expect({ schema, widened: isWidened(input, schema) }).toEqual({ schema, widened: true });
    const narrowed = [
      input,
      { ...input, properties: { ...input.properties, query: { type: 'string', maxLength: 10 } } },
      { ...input, properties: { ...input.properties, kind: { enum: ['a'] } } },
      { ...input, required: ['query', 'kind'] },
    ];
    for (const schema of narrowed) expect({ schema, widened: isWidened(input, schema) }).toEqual({ schema, widened: false });
  });

  it('never throws over any JSON for schemas and annotations', () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    fc.assert(
      fc.property(json, json, json, json, (inputBefore, inputAfter, annotationsBefore, annotationsAfter) => {
        const changes = namedChanges({ name: 'a', inputSchema: inputBefore, annotations: annotationsBefore }, { name: 'a', inputSchema: inputAfter, annotations: annotationsAfter });
        expect(Array.isArray(changes)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
