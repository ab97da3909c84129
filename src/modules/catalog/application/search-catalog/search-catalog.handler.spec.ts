import type { CatalogEntry, CatalogFilter, CatalogSearch, CatalogSlice } from '../../domain/catalog.js';
import { DEFAULT_FILTER } from '../../domain/catalog.js';
import { decodeCatalogCursor } from '../catalog-cursor.js';
import { CatalogReader, CatalogView } from '../catalog-reader.js';
import { CatalogVersions } from '../catalog-versions.js';
import { SearchCatalogHandler } from './search-catalog.handler.js';
import { CatalogRequest, SearchCatalogQuery } from './search-catalog.query.js';

const entry = (qualifiedName: string): CatalogEntry => ({
  id: qualifiedName,
  qualifiedName,
  name: qualifiedName.split('__')[1]!,
  source: { id: 's', name: 'src', enabled: true, readOnly: false },
  title: null,
  description: null,
  inputSchema: { type: 'object', properties: {} },
  outputSchema: null,
  annotations: null,
  definition: { name: qualifiedName.split('__')[1]!, inputSchema: { type: 'object', properties: {} } },
  unusableReason: null,
  definitionHash: 'h',
  declaredHash: 'h',
  status: 'active',
  enabled: true,
  listPosition: 0,
  firstSeenAt: '2026-01-01T00:00:00.000Z',
  lastSeenAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

class FakeReader extends CatalogReader {
  catalogVersion = 'v1';
  reads: CatalogSearch[] = [];
  views: CatalogView[] = [];
  slice: CatalogSlice = { entries: [entry('src__a'), entry('src__b')], hasMore: false };

  async version(_filter: CatalogFilter, view: CatalogView): Promise<string> {
    this.views.push(view);
    return this.catalogVersion;
  }

  async search(search: CatalogSearch): Promise<CatalogSlice> {
    this.reads.push(search);
    return this.slice;
  }
}

const request = (extra: Partial<CatalogRequest> = {}): CatalogRequest => ({ filter: DEFAULT_FILTER, format: 'admin', strict: false, limit: 2, ...extra });

describe('SearchCatalogHandler', () => {
  let reader: FakeReader;
  let handler: SearchCatalogHandler;
  let versions: CatalogVersions;

  beforeEach(() => {
    reader = new FakeReader();
    versions = new CatalogVersions(reader);
    handler = new SearchCatalogHandler(reader, versions);
  });

  it('answers a page with an ETag, and "not modified" without reading the page while the tag holds', async () => {
    const first = await handler.execute(new SearchCatalogQuery(request()));
    expect(first.notModified).toBe(false);
    const again = await handler.execute(new SearchCatalogQuery(request(), first.etag));
    expect(again).toEqual({ etag: first.etag, notModified: true });
    expect(reader.reads).toHaveLength(1);

    reader.catalogVersion = 'v2';
    versions.handle(); // the catalog changed
    const changed = await handler.execute(new SearchCatalogQuery(request(), first.etag));
    expect(changed.notModified).toBe(false);
    expect(changed.etag).not.toBe(first.etag);
  });

  it('gives each format, filter and page its own tag', async () => {
    const tags = new Set<string>();
    for (const r of [
      request(),
      request({ format: 'mcp' }),
      request({ format: 'openai' }),
      request({ format: 'openai', strict: true }),
      request({ filter: { ...DEFAULT_FILTER, enabled: 'all' } }),
      request({ limit: 3 }),
      request({ after: { name: 'src__a' } }),
    ]) {
      tags.add((await handler.execute(new SearchCatalogQuery(r))).etag);
    }
    expect(tags.size).toBe(7);
  });

  it('reads the admin version for the full view and the agent version for the formats', async () => {
    await handler.execute(new SearchCatalogQuery(request()));
    await handler.execute(new SearchCatalogQuery(request({ format: 'anthropic' })));
    expect(reader.views).toEqual(['admin', 'agent']);
  });

  it('issues a cursor after the last row, carrying the rank for searches', async () => {
    reader.slice = { entries: [entry('src__a'), entry('src__b')], ranks: ['2.500000', '0.607927'], hasMore: true };
    const search = { text: 'x', terms: ['x'] };
    const answer = await handler.execute(new SearchCatalogQuery(request({ search })));
    if (answer.notModified) throw new Error('expected a page');
    expect(decodeCatalogCursor(answer.page.nextCursor!, search)).toEqual({ name: 'src__b', rank: '0.607927' });
    expect(() => decodeCatalogCursor(answer.page.nextCursor!, undefined)).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
    expect(() => decodeCatalogCursor(answer.page.nextCursor!, { text: 'y', terms: ['y'] })).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
  });

  it('adds notConvertible for the LLM formats only', async () => {
    reader.slice = { entries: [entry('src__a')], hasMore: false };
    const mcp = await handler.execute(new SearchCatalogQuery(request({ format: 'mcp' })));
    const openai = await handler.execute(new SearchCatalogQuery(request({ format: 'openai' })));
    expect(mcp.notModified || 'notConvertible' in mcp.page).toBe(false);
    expect(!openai.notModified && openai.page.notConvertible).toEqual([]);
  });

  it('reads a version once per view and filter until the catalog changes', async () => {
    const first = await handler.execute(new SearchCatalogQuery(request({ format: 'mcp' })));
    await handler.execute(new SearchCatalogQuery(request({ format: 'openai' })));
    await handler.execute(new SearchCatalogQuery(request()));
    await handler.execute(new SearchCatalogQuery(request()));
    expect(reader.views).toEqual(['agent', 'admin']);

    reader.catalogVersion = 'v2';
    expect((await handler.execute(new SearchCatalogQuery(request({ format: 'mcp' }), first.etag))).notModified).toBe(true);
    versions.handle();
    expect((await handler.execute(new SearchCatalogQuery(request({ format: 'mcp' }), first.etag))).notModified).toBe(false);
  });
});
