import type { QueryBus } from '@nestjs/cqrs';
import fc from 'fast-check';
import { ListToolsQuery } from '../inventory/application/list-tools/list-tools.query.js';
import type { ToolView } from '../inventory/application/tool-view.js';
import { declaredTool } from '../inventory/domain/tool-definition.js';
import { GetSourceQuery } from '../sources/application/get-source/get-source.query.js';
import { ListSourcesQuery } from '../sources/application/list-sources/list-sources.query.js';
import { CatalogChanged } from '../../shared/catalog-events.js';
import { NotFound } from '../../shared/domain-error.js';
import type { CatalogSnapshot } from './catalog-snapshot.js';
import { CATALOG_REFRESH_MS, McpCatalog } from './mcp-catalog.js';

/** A query bus over an empty catalog that counts the catalog reads (one tools query each). */
function countingBus() {
  const bus = {
    toolReads: 0,
    execute: async (query: unknown) => {
      if (query instanceof ListToolsQuery) bus.toolReads++;
      return { items: [], nextCursor: null };
    },
  };
  return bus;
}

describe('McpCatalog', () => {
  const realNow = Date.now;
  let now: number;
  beforeEach(() => {
    now = 1_000_000;
    Date.now = () => now;
  });
  afterEach(() => {
    Date.now = realNow;
  });

  const settle = () => new Promise((done) => setImmediate(done));

  it('serves one reading to every request until the fallback interval, then re-reads it in the background once', async () => {
    const bus = countingBus();
    const catalog = new McpCatalog(bus as unknown as QueryBus);
    const first = await catalog.snapshot();
    await Promise.all(Array.from({ length: 20 }, () => catalog.snapshot()));
    now += CATALOG_REFRESH_MS - 1;
    expect(await catalog.snapshot()).toBe(first);
    await settle();
    expect(bus.toolReads).toBe(1);

    now += 2;
    // Past the interval the old reading is still answered at once; one read starts behind it.
    const during = await Promise.all(Array.from({ length: 5 }, () => catalog.snapshot()));
    expect(during.every((snapshot) => snapshot === first)).toBe(true);
    await settle();
    expect(bus.toolReads).toBe(2);
    expect(await catalog.snapshot()).not.toBe(first);
    catalog.onModuleDestroy();
  });

  it('reads the whole catalog at the fallback interval even while changes of single sources keep patching it', async () => {
    const store = new InMemoryCatalog();
    const ids = { n: 0 };
    const sourceId = apply(store, { kind: 'add-source', name: 'a', enabled: true, readOnly: false }, ids)!;
    const catalog = new McpCatalog(store.bus as unknown as QueryBus);
    await catalog.snapshot();
    const wholeReads = () => store.sourceReads;
    for (let step = 1; step <= 5; step++) {
      now += CATALOG_REFRESH_MS / 4;
      catalog.handle(new CatalogChanged(sourceId));
      await catalog.snapshot();
      // A request served from the patched reading.
      await catalog.snapshot();
      await settle();
    }
    // Five patches over 1.25 intervals: one whole reading behind them, as without the patches.
    expect(wholeReads()).toBe(2);
    catalog.onModuleDestroy();
  });

  it('reads again at once after a catalog change, announced here or by another process', async () => {
    const bus = countingBus();
    const catalog = new McpCatalog(bus as unknown as QueryBus);
    const first = await catalog.snapshot();
    catalog.handle(new CatalogChanged(undefined, true));
    const next = await catalog.snapshot();
    expect(next).not.toBe(first);
    expect(bus.toolReads).toBe(2);
    catalog.onModuleDestroy();
  });
});

/**
 * The inventory's read side over rows in memory, answering the three queries McpCatalog asks as
 * the SQL views do: fresh objects per answer, pages of `limit`, `source` matching id or name.
 */
class InMemoryCatalog {
  readonly sources = new Map<string, { id: string; name: string; enabled: boolean; readOnly: boolean }>();
  readonly tools = new Map<string, { name: string; sourceId: string; status: 'active' | 'deprecated'; enabled: boolean; version: number }>();
  toolReads = 0;
  sourceReads = 0;

  readonly bus = {
    execute: async (query: unknown): Promise<unknown> => {
      await Promise.resolve();
      if (query instanceof ListToolsQuery) {
        this.toolReads++;
        const { filter, cursor, limit } = query;
        const rows = [...this.tools.entries()]
          .map(([id, tool]) => ({ id, tool, source: this.sources.get(tool.sourceId)! }))
          .filter(({ tool, source }) => (filter.status === undefined || filter.status === 'all' || tool.status === filter.status) && (!filter.source || source.id === filter.source || source.name === filter.source))
          .map(({ id, tool, source }) => view(id, tool, source))
          .sort((a, b) => (a.qualifiedName < b.qualifiedName ? -1 : a.qualifiedName > b.qualifiedName ? 1 : 0));
        const from = cursor ? Number(cursor) : 0;
        return { items: rows.slice(from, from + limit), nextCursor: from + limit < rows.length ? String(from + limit) : null };
      }
      if (query instanceof ListSourcesQuery) {
        this.sourceReads++;
        const rows = [...this.sources.values()].map((source) => ({ ...source }));
        const from = query.cursor ? Number(query.cursor) : 0;
        return { items: rows.slice(from, from + query.limit), nextCursor: from + query.limit < rows.length ? String(from + query.limit) : null };
      }
      if (query instanceof GetSourceQuery) {
        const source = this.sources.get(query.idOrName) ?? [...this.sources.values()].find((candidate) => candidate.name === query.idOrName);
        if (!source) throw new NotFound('SOURCE_NOT_FOUND', 'no such source');
        return { ...source };
      }
      throw new Error(`unexpected query ${String(query)}`);
    },
  };
}

function view(id: string, tool: { name: string; status: 'active' | 'deprecated'; enabled: boolean; version: number }, source: { id: string; name: string; enabled: boolean; readOnly: boolean }): ToolView {
  const qualifiedName = `${source.name}__${tool.name}`;
  const annotations = tool.version % 2 === 0 ? { readOnlyHint: true } : null;
  const description = `v${tool.version}`;
  return {
    id,
    qualifiedName,
    name: tool.name,
    source: { ...source },
    title: null,
    description,
    inputSchema: { type: 'object' },
    outputSchema: null,
    annotations,
    definition: declaredTool({ name: tool.name, description, inputSchema: { type: 'object' }, annotations: annotations ?? undefined }),
    unusableReason: null,
    definitionHash: `${id}:${tool.version}`,
    declaredHash: `${id}:${tool.version}`,
    status: tool.status,
    enabled: tool.enabled,
    listPosition: null,
    firstSeenAt: '',
    lastSeenAt: '',
    updatedAt: '',
  };
}

/** What a client can tell of a snapshot: the listing, the names it resolves, the sources it knows. */
function seen(snapshot: CatalogSnapshot) {
  return {
    fingerprint: snapshot.fingerprint,
    listed: snapshot.qualifiedTools(),
    resolvable: [...snapshot.byQualifiedName.keys()].sort(),
    sources: [...snapshot.sources.values()]
      .map((source) => ({ name: source.name, enabled: source.enabled, names: [...source.byName.keys()].sort(), listed: snapshot.sourceTools(source.name) }))
      .sort((a, b) => (a.name < b.name ? -1 : 1)),
  };
}

type Change =
  | { kind: 'add-source'; name: string; enabled: boolean; readOnly: boolean }
  | { kind: 'remove-source' | 'toggle-source' | 'rename-source'; pick: number; name: string }
  | { kind: 'add-tool'; pick: number; name: string }
  | { kind: 'remove-tool' | 'toggle-tool' | 'edit-tool' | 'deprecate-tool'; pick: number };

const NAMES = ['a', 'b', 'c', 'd', 'e'];
const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant('add-source' as const), name: fc.constantFrom(...NAMES), enabled: fc.boolean(), readOnly: fc.boolean() }),
  fc.record({ kind: fc.constantFrom('remove-source' as const, 'toggle-source' as const, 'rename-source' as const), pick: fc.nat(), name: fc.constantFrom(...NAMES) }),
  fc.record({ kind: fc.constant('add-tool' as const), pick: fc.nat(), name: fc.constantFrom('x', 'y', 'z', 'w') }),
  fc.record({ kind: fc.constantFrom('remove-tool' as const, 'toggle-tool' as const, 'edit-tool' as const, 'deprecate-tool' as const), pick: fc.nat() }),
);

/** Applies a change as the write side would; answers the source it concerns (undefined when none applied). */
function apply(store: InMemoryCatalog, next: Change, ids: { n: number }): string | undefined {
  const sources = [...store.sources.values()];
  const tools = [...store.tools.entries()];
  switch (next.kind) {
    case 'add-source': {
      if (sources.some((source) => source.name === next.name)) return undefined;
      const id = `00000000-0000-4000-8000-${String(ids.n++).padStart(12, '0')}`;
      store.sources.set(id, { id, name: next.name, enabled: next.enabled, readOnly: next.readOnly });
      return id;
    }
    case 'remove-source':
    case 'toggle-source':
    case 'rename-source': {
      const source = sources[next.pick % Math.max(1, sources.length)];
      if (!source) return undefined;
      if (next.kind === 'remove-source') {
        store.sources.delete(source.id);
        for (const [id, tool] of tools) if (tool.sourceId === source.id) store.tools.delete(id);
      } else if (next.kind === 'toggle-source') source.enabled = !source.enabled;
      else if (!sources.some((other) => other.name === next.name)) source.name = next.name;
      return source.id;
    }
    case 'add-tool': {
      const source = sources[next.pick % Math.max(1, sources.length)];
      if (!source || tools.some(([, tool]) => tool.sourceId === source.id && tool.name === next.name)) return undefined;
      store.tools.set(`t${ids.n++}`, { name: next.name, sourceId: source.id, status: 'active', enabled: true, version: 0 });
      return source.id;
    }
    default: {
      const entry = tools[next.pick % Math.max(1, tools.length)];
      if (!entry) return undefined;
      const [id, tool] = entry;
      if (next.kind === 'remove-tool') store.tools.delete(id);
      else if (next.kind === 'toggle-tool') tool.enabled = !tool.enabled;
      else if (next.kind === 'edit-tool') tool.version++;
      else tool.status = tool.status === 'active' ? 'deprecated' : 'active';
      return tool.sourceId;
    }
  }
}

describe('McpCatalog patching one source at a time', () => {
  it('ends, after any changes announced by source (reads overlapping them or not), where a whole reading would', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ change, announceWhole: fc.nat(9).map((n) => n === 0), readDuring: fc.boolean(), readAfter: fc.boolean() }), { minLength: 1, maxLength: 30 }),
        async (steps) => {
          const store = new InMemoryCatalog();
          const ids = { n: 0 };
          const catalog = new McpCatalog(store.bus as unknown as QueryBus);
          await catalog.snapshot();
          for (const step of steps) {
            // A read under way while the change is made and announced may or may not see it.
            const during = step.readDuring ? catalog.snapshot() : undefined;
            const sourceId = apply(store, step.change, ids);
            if (sourceId !== undefined) catalog.handle(new CatalogChanged(step.announceWhole ? undefined : sourceId, true));
            await during;
            if (step.readAfter) expect(seen(await catalog.snapshot())).toEqual(seen(await new McpCatalog(store.bus as unknown as QueryBus).snapshot()));
          }
          const whole = await new McpCatalog(store.bus as unknown as QueryBus).snapshot();
          expect(seen(await catalog.snapshot())).toEqual(seen(whole));
          catalog.onModuleDestroy();
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads only the changed source after a change that names it', async () => {
    const store = new InMemoryCatalog();
    const ids = { n: 0 };
    for (const name of NAMES) apply(store, { kind: 'add-source', name, enabled: true, readOnly: false }, ids);
    for (let pick = 0; pick < 20; pick++) apply(store, { kind: 'add-tool', pick, name: ['x', 'y', 'z', 'w'][pick % 4]! }, ids);
    const catalog = new McpCatalog(store.bus as unknown as QueryBus);
    await catalog.snapshot();
    const before = { tools: store.toolReads, sources: store.sourceReads };
    const sourceId = apply(store, { kind: 'edit-tool', pick: 3 }, ids)!;
    catalog.handle(new CatalogChanged(sourceId));
    const after = await catalog.snapshot();
    // One page of that source's tools, no list of sources.
    expect(store.toolReads - before.tools).toBe(1);
    expect(store.sourceReads - before.sources).toBe(0);
    expect(seen(after)).toEqual(seen(await new McpCatalog(store.bus as unknown as QueryBus).snapshot()));

    // A change without a source (a resync) reads everything.
    catalog.handle(new CatalogChanged(undefined, true));
    const listsBefore = store.sourceReads;
    await catalog.snapshot();
    expect(store.sourceReads - listsBefore).toBe(1);
    catalog.onModuleDestroy();
  });
});
