import type { CatalogTool } from './catalog.js';
import { describe as describeTool, formatTools, OPENAI_DESCRIPTION_LIMIT, truncate } from './tool-formats.js';
import { declaredTool } from '../../inventory/domain/tool-definition.js';

const entry = (extra: Partial<CatalogTool> = {}): CatalogTool => {
  const v = {
  id: '00000000-0000-4000-8000-000000000001',
  qualifiedName: 'everything__echo',
  name: 'echo',
  source: { id: '00000000-0000-4000-8000-000000000002', name: 'everything', enabled: true, readOnly: false },
  title: 'Echo Tool',
  description: 'Echoes back the input string',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  outputSchema: null,
  annotations: { readOnlyHint: true },
  unusableReason: null,
  definitionHash: 'h',
  declaredHash: 'h',
  status: 'active',
  enabled: true,
  firstSeenAt: '2026-01-01T00:00:00.000Z',
  lastSeenAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...extra,
  } as Omit<CatalogTool, 'definition'>;
  return { ...v, definition: declaredTool({ name: v.name, title: v.title ?? undefined, description: v.description ?? undefined, inputSchema: v.inputSchema, outputSchema: v.outputSchema ?? undefined, annotations: v.annotations ?? undefined }), ...(extra.definition ? { definition: extra.definition } : {}) };
};

const mapSchema = { type: 'object', properties: { tags: { type: 'object', additionalProperties: { type: 'string' } } } };

describe('formatTools', () => {
  it('answers the full view by default', () => {
    const e = entry();
    expect(formatTools([e], 'admin', false)).toEqual({ items: [e] });
  });

  it('answers MCP Tool objects under the qualified name, leaving out what is absent', () => {
    expect(formatTools([entry()], 'mcp', false).items).toEqual([
      {
        name: 'everything__echo',
        title: 'Echo Tool',
        description: 'Echoes back the input string',
        inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
        annotations: { readOnlyHint: true },
      },
    ]);
    expect(formatTools([entry({ title: null, description: null, annotations: null, outputSchema: { type: 'object' } })], 'mcp', false).items).toEqual([
      { name: 'everything__echo', inputSchema: expect.any(Object), outputSchema: { type: 'object' } },
    ]);
  });

  it('answers Chat Completions tools', () => {
    expect(formatTools([entry()], 'openai', false)).toEqual({
      items: [
        {
          type: 'function',
          function: {
            name: 'everything__echo',
            description: 'Echoes back the input string',
            parameters: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
          },
        },
      ],
      notConvertible: [],
    });
    const strict = formatTools([entry()], 'openai', true).items[0] as { function: Record<string, unknown> };
    expect(strict.function.strict).toBe(true);
    expect(strict.function.parameters).toEqual({
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
      additionalProperties: false,
    });
  });

  it('answers Responses API tools with strict always explicit', () => {
    expect(formatTools([entry()], 'openai-responses', false).items).toEqual([
      {
        type: 'function',
        name: 'everything__echo',
        description: 'Echoes back the input string',
        parameters: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
        strict: false,
      },
    ]);
    expect(formatTools([entry()], 'openai-responses', true).items[0]).toMatchObject({ strict: true, parameters: { additionalProperties: false } });
  });

  it('answers Anthropic tools', () => {
    expect(formatTools([entry()], 'anthropic', false).items).toEqual([
      {
        name: 'everything__echo',
        description: 'Echoes back the input string',
        input_schema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
      },
    ]);
  });

  it('lists tools it cannot convert instead of dropping them', () => {
    const map = entry({ qualifiedName: 's__map', inputSchema: mapSchema });
    expect(formatTools([entry(), map], 'openai', true)).toEqual({
      items: [expect.objectContaining({ type: 'function' })],
      notConvertible: [{ name: 's__map', reason: expect.stringContaining('$.properties.tags: is a map') }],
    });
    // Without strict mode the same schema is fine.
    expect(formatTools([map], 'openai', false).notConvertible).toEqual([]);
    const union = entry({ qualifiedName: 's__union', inputSchema: { anyOf: [{ type: 'object' }] } });
    expect(formatTools([union], 'anthropic', false).notConvertible).toEqual([{ name: 's__union', reason: expect.stringContaining('anyOf at the top level') }]);
  });

  it('cuts OpenAI descriptions at the documented limit, not Anthropic ones', () => {
    const long = entry({ description: 'word '.repeat(500) });
    const openai = formatTools([long], 'openai', false).items[0] as { function: { description: string } };
    expect(openai.function.description.length).toBeLessThanOrEqual(OPENAI_DESCRIPTION_LIMIT);
    expect(openai.function.description.endsWith('…')).toBe(true);
    const anthropic = formatTools([long], 'anthropic', false).items[0] as { description: string };
    expect(anthropic.description).toBe(long.description!.trim());
  });
});

describe('describe', () => {
  it('falls back to the title, then to a generated sentence', () => {
    expect(describeTool(entry({ description: '  ' }))).toBe('Echo Tool');
    expect(describeTool(entry({ description: null, title: null }))).toBe('The "echo" tool of the "everything" source.');
  });
});

describe('truncate', () => {
  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(10);
    const cut = truncate(text, 6);
    expect(cut.length).toBeLessThanOrEqual(6);
    expect(cut).toBe('😀😀…');
  });

  it('leaves short texts alone', () => {
    expect(truncate('short', 10)).toBe('short');
  });
});
