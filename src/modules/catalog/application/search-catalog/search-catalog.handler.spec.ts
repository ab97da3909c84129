import { catalogTool, sourcesOf } from '../../../../../test/helpers/catalog-tools.js';
import { CatalogChanged } from '../../../../shared/catalog-events.js';
import type { CatalogTool } from '../../domain/catalog.js';
import { DEFAULT_FILTER } from '../../domain/catalog.js';
import { parseSearch } from '../../domain/tool-search.js';
import { decodeCatalogCursor } from '../catalog-cursor.js';
import { CatalogReader, type CatalogReading, type ToolTimes } from '../catalog-reader.js';
import { CatalogSnapshots } from '../catalog-snapshots.js';
import { SearchCatalogHandler } from './search-catalog.handler.js';
import { GroupViews } from '../group-views.js';
import { GroupDefinitions } from '../../../groups/application/group-definitions.js';
import { InMemoryGroupRepository } from '../../../groups/testing/in-memory-group-repository.js';
import { aGroup } from '../../../groups/testing/builders.js';
import { GroupsChanged } from '../../../../shared/catalog-events.js';
import { CatalogRequest, SearchCatalogQuery } from './search-catalog.query.js';
import { InMemoryPrincipalConnections } from '../../testing/in-memory-principal-connections.js';
import { CONNECTION_META_KEY } from '../../domain/connection-notes.js';
import type { Principal } from '../../../../shared/principal/principal.js';

/** The stored catalog in memory: its tools, and the times a refresh moves without a new reading. */
class FakeReader extends CatalogReader {
  tools: CatalogTool[] = [catalogTool('src__a', { description: 'adds numbers' }), catalogTool('src__b', { description: 'reads numbers' }), catalogTool('src__c')];
  readonly times = new Map<string, ToolTimes>();
  readings = 0;
  timeReads = 0;

  async readAll(): Promise<CatalogReading> {
    this.readings++;
    return { tools: this.tools.map((tool) => ({ ...tool })), sources: sourcesOf(this.tools) };
  }
  async readSource(): Promise<CatalogReading | undefined> {
    throw new Error('every change here names no source');
  }
  async readTimes(ids: readonly string[]): Promise<Map<string, ToolTimes>> {
    this.timeReads++;
    return new Map(ids.flatMap((id) => (this.times.has(id) ? [[id, this.times.get(id)!] as const] : [])));
  }
}

const request = (extra: Partial<CatalogRequest> = {}): CatalogRequest => ({ filter: DEFAULT_FILTER, format: 'admin', strict: false, limit: 2, ...extra });

describe('SearchCatalogHandler', () => {
  let reader: FakeReader;
  let snapshots: CatalogSnapshots;
  let handler: SearchCatalogHandler;
  let groups: InMemoryGroupRepository;
  let connections: InMemoryPrincipalConnections;
  const run = async (r: CatalogRequest, ifNoneMatch?: string, as?: Principal) => handler.execute(new SearchCatalogQuery(r, ifNoneMatch, as));
  const page = async (r: CatalogRequest) => {
    const answer = await run(r);
    if (answer.notModified) throw new Error('expected a page');
    return answer.page;
  };

  beforeEach(() => {
    reader = new FakeReader();
    snapshots = new CatalogSnapshots(reader);
    groups = new InMemoryGroupRepository();
    connections = new InMemoryPrincipalConnections();
    handler = new SearchCatalogHandler(snapshots, reader, new GroupViews(snapshots, new GroupDefinitions(groups)), connections);
  });
  afterEach(() => snapshots.onModuleDestroy());

  it('answers a page with an ETag, and "not modified" while the tag holds; a new tag after a change', async () => {
    const first = await run(request({ format: 'mcp' }));
    expect(first.notModified).toBe(false);
    expect(await run(request({ format: 'mcp' }), first.etag)).toEqual({ etag: first.etag, notModified: true });
    expect(reader.readings).toBe(1);

    reader.tools[0] = { ...reader.tools[0]!, declaredHash: 'moved' };
    snapshots.handle(new CatalogChanged());
    const changed = await run(request({ format: 'mcp' }), first.etag);
    expect(changed.notModified).toBe(false);
    expect(changed.etag).not.toBe(first.etag);

    // Back to the content of the first: its tag again.
    reader.tools[0] = { ...reader.tools[0]!, declaredHash: 'src__a' };
    snapshots.handle(new CatalogChanged());
    expect((await run(request({ format: 'mcp' }), first.etag)).notModified).toBe(true);
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
      tags.add((await run(r)).etag);
    }
    expect(tags.size).toBe(7);
  });

  it("covers the stored times of the admin view's page: a refresh that moved them changes its tag, not the agents'", async () => {
    const admin = await run(request());
    const agent = await run(request({ format: 'anthropic' }));
    reader.times.set('src__a', { firstSeenAt: '2026-01-01T00:00:00.000Z', lastSeenAt: '2026-02-02T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' });
    expect((await run(request({ format: 'anthropic' }), agent.etag)).notModified).toBe(true);
    const moved = await run(request(), admin.etag);
    expect(moved.notModified).toBe(false);
    expect(!moved.notModified && (moved.page.items[0] as CatalogTool).lastSeenAt).toBe('2026-02-02T00:00:00.000Z');
    // The agent formats read no times.
    const reads = reader.timeReads;
    await run(request({ format: 'mcp' }));
    expect(reader.timeReads).toBe(reads);
  });

  it('ranks a search with the one search, and issues a cursor after the last row carrying its rank', async () => {
    const search = parseSearch('add numbers')!;
    const first = await page(request({ search, limit: 1 }));
    expect((first.items as CatalogTool[]).map((t) => t.qualifiedName)).toEqual(['src__a']);
    const cursor = decodeCatalogCursor(first.nextCursor!, search)!;
    expect(cursor).toEqual({ name: 'src__a', rank: expect.stringMatching(/^\d+\.000000$/) });
    const second = await page(request({ search, limit: 1, after: cursor }));
    expect((second.items as CatalogTool[]).map((t) => t.qualifiedName)).toEqual(['src__b']);
    expect(second.nextCursor).toBeNull();
    expect(() => decodeCatalogCursor(first.nextCursor!, undefined)).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
    expect(() => decodeCatalogCursor(first.nextCursor!, parseSearch('y'))).toThrow(expect.objectContaining({ code: 'INVALID_CURSOR' }));
  });

  it('adds notConvertible for the LLM formats only', async () => {
    const mcp = await page(request({ format: 'mcp' }));
    const openai = await page(request({ format: 'openai' }));
    expect('notConvertible' in mcp).toBe(false);
    expect(openai.notConvertible).toEqual([]);
  });

  describe('group=', () => {
    const schema = { type: 'object', properties: { q: { type: 'string' }, repo: { type: 'string' } }, required: ['q', 'repo'] };
    beforeEach(() => {
      reader.tools = [catalogTool('src__a', { inputSchema: schema }), catalogTool('src__b'), catalogTool('other__b')];
      groups.groups.set(
        'bot',
        aGroup('bot', {
          select: [{ sources: ['src'] }],
          include: ['other__b'],
          exclude: ['src__b'],
          overrides: { src__a: { name: 'find', description: 'Finds', locked: { repo: 'acme/web' } } },
        }),
      );
    });

    it("lists the group's tools under their served names, with its overrides, in every format", async () => {
      const openai = await page(request({ group: 'bot', format: 'openai', limit: 10 }));
      expect(openai.items).toEqual([
        { type: 'function', function: { name: 'b', description: 'The "b" tool of the "other" source.', parameters: { type: 'object', properties: {} } } },
        { type: 'function', function: { name: 'find', description: 'Finds', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } } },
      ]);
      const mcp = await page(request({ group: 'bot', format: 'mcp', limit: 10 }));
      // In qualified-name order, as the catalog pages.
      expect((mcp.items as { name: string }[]).map((tool) => tool.name)).toEqual(['b', 'find']);
      const anthropic = await page(request({ group: 'bot', format: 'anthropic', limit: 1, after: { name: 'other__b' } }));
      expect(anthropic.items).toEqual([{ name: 'find', description: 'Finds', input_schema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }]);
      expect(anthropic.nextCursor).toBeNull();      // The admin view: the tool as the group serves it, with its served name; the locked value stays the group's.
      const admin = await page(request({ group: 'bot', limit: 10 }));
      expect(admin.items.map((tool) => [(tool as { servedName?: string }).servedName, (tool as CatalogTool).qualifiedName, 'locked' in tool])).toEqual([
        ['b', 'other__b', false],
        ['find', 'src__a', false],
      ]);
    });

    it('answers GROUP_NOT_FOUND for an unknown group', async () => {
      await expect(run(request({ group: 'nope' }))).rejects.toMatchObject({ code: 'GROUP_NOT_FOUND', kind: 'not_found' });
    });

    it('changes its tag when the group changes', async () => {
      const first = await run(request({ group: 'bot', format: 'mcp' }));
      groups.groups.set('bot', aGroup('bot', { include: ['src__a'] }));
      const definitions = (handler as unknown as { groups: { groups: GroupDefinitions } }).groups.groups;
      definitions.handle(new GroupsChanged('bot'));
      expect((await run(request({ group: 'bot', format: 'mcp' }), first.etag)).notModified).toBe(false);
    });
  });

  describe('connection notes', () => {
    const alice: Principal = { id: 'oidc:alice@idp', name: 'alice', kind: 'oidc', roles: ['agent'] };
    const bob: Principal = { id: 'oidc:bob@idp', name: 'bob', kind: 'oidc', roles: ['agent'] };
    const CONNECT = 'https://toolplane.example/console/connections';
    const items = async (format: CatalogRequest['format'], who: Principal, extra: Partial<CatalogRequest> = {}) => {
      const answer = await run(request({ format, limit: 10, ...extra }), undefined, who);
      if (answer.notModified) throw new Error('expected a page');
      return answer.page.items as unknown as Record<string, any>[];
    };

    beforeEach(() => {
      reader.tools.push(catalogTool('crm__find', { description: 'Finds a customer' }), catalogTool('crm__add'));
      connections.lacks(alice.id, 'crm', { required: true, source: 'crm', connectUrl: CONNECT });
    });

    it("keeps the tools of a source its reader has no credential for, noted in _meta and the description, in every format; another reader's are not", async () => {
      const mcp = await items('mcp', alice);
      expect(mcp.map((tool) => tool.name)).toEqual(['crm__add', 'crm__find', 'src__a', 'src__b', 'src__c']);
      const find = mcp.find((tool) => tool.name === 'crm__find')!;
      expect(find._meta).toEqual({ [CONNECTION_META_KEY]: { required: true, source: 'crm', connectUrl: CONNECT } });
      expect(find.description).toBe(`Finds a customer\n\nNeeds your connection to crm first: open ${CONNECT}.`);
      expect(mcp.find((tool) => tool.name === 'src__a')!._meta).toBeUndefined();
      const admin = await items('admin', alice);
      expect(admin.find((tool) => tool.qualifiedName === 'crm__add')).toMatchObject({ _meta: { [CONNECTION_META_KEY]: { source: 'crm' } }, description: `Needs your connection to crm first: open ${CONNECT}.` });
      // The definition stays as its upstream declared it.
      expect(admin.find((tool) => tool.qualifiedName === 'crm__add')!.definition._meta).toBeUndefined();
      for (const format of ['openai', 'openai-responses', 'anthropic'] as const) {
        const text = JSON.stringify(await items(format, alice));
        expect(text).toContain('Needs your connection to crm first');
        // The LLM APIs take no _meta.
        expect(text).not.toContain(CONNECTION_META_KEY);
      }
      expect(JSON.stringify(await items('mcp', bob))).not.toContain('Needs your connection');
      expect(JSON.stringify(await run(request({ format: 'mcp', limit: 10 })))).not.toContain('Needs your connection');
    });

    it('reads the connections once per page, for the sources of the page only, each once', async () => {
      await items('mcp', alice);
      expect(connections.reads).toEqual([{ principalId: alice.id, sourceIds: ['crm', 'src'] }]);
      await items('mcp', alice, { limit: 2 });
      expect(connections.reads.at(-1)).toEqual({ principalId: alice.id, sourceIds: ['crm'] });
    });

    it('keeps a long description whole enough for OpenAI, the sentence included', async () => {
      reader.tools.push(catalogTool('crm__long', { description: 'x'.repeat(2000) }));
      snapshots.handle(new CatalogChanged());
      const long = (await items('openai', alice)).find((tool) => tool.function.name === 'crm__long')!;
      expect(long.function.description.length).toBeLessThanOrEqual(1024);
      expect(long.function.description.endsWith(`Needs your connection to crm first: open ${CONNECT}.`)).toBe(true);
    });

    it('changes the ETag when the reader connects, and holds it otherwise', async () => {
      const first = await run(request({ format: 'mcp', limit: 10 }), undefined, alice);
      expect((await run(request({ format: 'mcp', limit: 10 }), first.etag, alice)).notModified).toBe(true);
      connections.missing.clear();
      expect((await run(request({ format: 'mcp', limit: 10 }), first.etag, alice)).notModified).toBe(false);
    });

    it("notes a group's tools too, under their served names", async () => {
      groups.groups.set('crm-bot', aGroup('crm-bot', { include: ['crm__find'] }));
      const served = await items('mcp', alice, { group: 'crm-bot' });
      expect(served).toHaveLength(1);
      expect(served[0]!._meta).toEqual({ [CONNECTION_META_KEY]: { required: true, source: 'crm', connectUrl: CONNECT } });
    });
  });
});
