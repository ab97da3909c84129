import { ValidationFailed } from '../../../shared/domain-error.js';
import { encodeCatalogCursor } from '../application/catalog-cursor.js';
import { parseCatalogRequest } from './catalog-request.js';

function problems(query: Record<string, unknown>): { code: string; paths: string[] } {
  try {
    parseCatalogRequest(query);
  } catch (error) {
    if (error instanceof ValidationFailed) return { code: error.code, paths: error.details.map((d) => d.path).sort() };
    throw error;
  }
  throw new Error('expected a validation failure');
}

describe('parseCatalogRequest', () => {
  it('defaults to what an agent may call, in the full view', () => {
    expect(parseCatalogRequest({})).toEqual({
      filter: {
        source: undefined,
        status: 'active',
        enabled: true,
        includeDisabledSources: false,
        readOnly: undefined,
        destructive: undefined,
        idempotent: undefined,
        openWorld: undefined,
      },
      search: undefined,
      format: 'admin',
      strict: false,
      after: undefined,
      limit: 100,
    });
  });

  it('reads every filter', () => {
    const r = parseCatalogRequest({
      q: 'get-su',
      source: 'everything',
      status: 'all',
      enabled: 'all',
      includeDisabledSources: 'true',
      readOnly: 'true',
      destructive: 'false',
      idempotent: 'true',
      openWorld: 'false',
      format: 'openai-responses',
      strict: 'true',
      limit: '5',
    });
    expect(r).toMatchObject({
      filter: { source: 'everything', status: 'all', enabled: 'all', includeDisabledSources: true, readOnly: true, destructive: false, idempotent: true, openWorld: false },
      search: { text: 'get-su', groups: [['get', 'su']] },
      format: 'openai-responses',
      strict: true,
      limit: 5,
    });
  });

  it('reports every problem at once', () => {
    expect(problems({ format: 'yaml', readOnly: 'maybe', colour: 'blue', limit: '0' })).toEqual({
      code: 'VALIDATION_FAILED',
      paths: ['colour', 'format', 'limit', 'readOnly'],
    });
    expect(problems({ format: 'anthropic', strict: 'true', cursor: '!!!' })).toEqual({ code: 'VALIDATION_FAILED', paths: ['cursor', 'strict'] });
  });

  it('refuses strict mode outside the openai formats', () => {
    expect(problems({ strict: 'true' }).paths).toEqual(['strict']);
    expect(problems({ format: 'mcp', strict: 'true' }).paths).toEqual(['strict']);
    expect(parseCatalogRequest({ format: 'openai', strict: 'true' }).strict).toBe(true);
    expect(parseCatalogRequest({ format: 'anthropic', strict: 'false' }).strict).toBe(false);
  });

  it('answers INVALID_CURSOR when only the cursor is wrong, including a cursor of another search', () => {
    expect(problems({ cursor: '!!!' })).toEqual({ code: 'INVALID_CURSOR', paths: ['cursor'] });
    const searchCursor = encodeCatalogCursor({ name: 'a__b', rank: '1.000000' }, { text: 'echo', groups: [['echo']] });
    expect(parseCatalogRequest({ q: 'echo', cursor: searchCursor }).after).toEqual({ name: 'a__b', rank: '1.000000' });
    expect(problems({ cursor: searchCursor }).code).toBe('INVALID_CURSOR');
    expect(problems({ q: 'other', cursor: searchCursor }).code).toBe('INVALID_CURSOR');
    const plainCursor = encodeCatalogCursor({ name: 'a__b' }, undefined);
    expect(problems({ q: 'echo', cursor: plainCursor }).code).toBe('INVALID_CURSOR');
  });
});
