import fc from 'fast-check';
import { catalogTool, sourceSettings } from '../../../../test/helpers/catalog-tools.js';
import { CatalogChanged } from '../../../shared/catalog-events.js';
import type { CatalogTool } from '../domain/catalog.js';
import type { CatalogSnapshot } from '../domain/catalog-snapshot.js';
import { CatalogReader, type CatalogReading, type ToolTimes } from './catalog-reader.js';
import { CATALOG_REFRESH_MS, CatalogSnapshots } from './catalog-snapshots.js';

/** A reader of an empty catalog that counts the whole readings. */
class CountingReader extends CatalogReader {
  wholeReads = 0;
  async readAll(): Promise<CatalogReading> {
    this.wholeReads++;
    return { tools: [], sources: [] };
  }
  async readSource(): Promise<CatalogReading | undefined> {
    return undefined;
  }
  async readTimes(): Promise<Map<string, ToolTimes>> {
    return new Map();
  }
}

describe('CatalogSnapshots', () => {
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
    const reader = new CountingReader();
    const catalog = new CatalogSnapshots(reader);
    const first = await catalog.snapshot();
    await Promise.all(Array.from({ length: 20 }, () => catalog.snapshot()));
    now += CATALOG_REFRESH_MS - 1;
    expect(await catalog.snapshot()).toBe(first);
    await settle();
    expect(reader.wholeReads).toBe(1);

    now += 2;
    // Past the interval the old reading is still answered at once; one read starts behind it.
    const during = await Promise.all(Array.from({ length: 5 }, () => catalog.snapshot()));
    expect(during.every((snapshot) => snapshot === first)).toBe(true);
    await settle();
    expect(reader.wholeReads).toBe(2);
    expect(await catalog.snapshot()).not.toBe(first);
    catalog.onModuleDestroy();
  });

  it('reads the whole catalog at the fallback interval even while changes of single sources keep patching it', async () => {
    const store = new InMemoryCatalog();
    const ids = { n: 0 };
    const sourceId = apply(store, { kind: 'add-source', name: 'a', enabled: true, readOnly: false }, ids)!;
    const catalog = new CatalogSnapshots(store);
    await catalog.snapshot();
    const wholeReads = () => store.wholeReads;
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
    const reader = new CountingReader();
    const catalog = new CatalogSnapshots(reader);
    const first = await catalog.snapshot();
    expect(catalog.latest()).toBe(first);
    catalog.handle(new CatalogChanged(undefined, true));
    // Right after a change nothing is served without waiting for a new reading.
    expect(catalog.latest()).toBeUndefined();
    const next = await catalog.snapshot();
    expect(next).not.toBe(first);
    expect(reader.wholeReads).toBe(2);
    catalog.onModuleDestroy();
  });
});

/**
 * The stored catalog in memory, read as the SQL reader reads it: fresh objects per reading, a
 * source with its tools, a removed source not at all.
 */
class InMemoryCatalog extends CatalogReader {
  readonly sources = new Map<string, { id: string; name: string; enabled: boolean; readOnly: boolean }>();
  readonly tools = new Map<string, { name: string; sourceId: string; status: 'active' | 'deprecated'; enabled: boolean; version: number }>();
  wholeReads = 0;
  sourceReads = 0;

  async readAll(): Promise<CatalogReading> {
    await Promise.resolve();
    this.wholeReads++;
    return { tools: [...this.tools.entries()].map(([id, tool]) => view(id, tool, this.sources.get(tool.sourceId)!)), sources: [...this.sources.values()].map((source) => sourceSettings({ ...source })) };
  }

  async readSource(sourceId: string): Promise<CatalogReading | undefined> {
    await Promise.resolve();
    this.sourceReads++;
    const source = this.sources.get(sourceId);
    if (!source) return undefined;
    const tools = [...this.tools.entries()].filter(([, tool]) => tool.sourceId === sourceId);
    return { tools: tools.map(([id, tool]) => view(id, tool, source)), sources: [sourceSettings({ ...source })] };
  }

  async readTimes(): Promise<Map<string, ToolTimes>> {
    return new Map();
  }
}

function view(id: string, tool: { name: string; status: 'active' | 'deprecated'; enabled: boolean; version: number }, source: { id: string; name: string; enabled: boolean; readOnly: boolean }): CatalogTool {
  const annotations = tool.version % 2 === 0 ? { readOnlyHint: true } : null;
  return catalogTool(`${source.name}__${tool.name}`, { id, description: `v${tool.version}`, annotations, definitionHash: `${id}:${tool.version}`, declaredHash: `${id}:${tool.version}`, status: tool.status, enabled: tool.enabled }, { ...source });
}

/** What a client can tell of a snapshot: the listing, the names it resolves, the sources it knows. */
function seen(snapshot: CatalogSnapshot) {
  return {
    fingerprint: snapshot.fingerprint,
    listed: snapshot.qualifiedTools(),
    resolvable: [...snapshot.byQualifiedName.keys()].sort(),
    routes: [...snapshot.byQualifiedName.keys()].sort().map((name) => snapshot.route(name)),
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

describe('CatalogSnapshots patching one source at a time', () => {
  it('ends, after any changes announced by source (reads overlapping them or not), where a whole reading would', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ change, announceWhole: fc.nat(9).map((n) => n === 0), readDuring: fc.boolean(), readAfter: fc.boolean() }), { minLength: 1, maxLength: 30 }),
        async (steps) => {
          const store = new InMemoryCatalog();
          const ids = { n: 0 };
          const catalog = new CatalogSnapshots(store);
          await catalog.snapshot();
          for (const step of steps) {
            // A read under way while the change is made and announced may or may not see it.
            const during = step.readDuring ? catalog.snapshot() : undefined;
            const sourceId = apply(store, step.change, ids);
            if (sourceId !== undefined) catalog.handle(new CatalogChanged(step.announceWhole ? undefined : sourceId, true));
            await during;
            if (step.readAfter) expect(seen(await catalog.snapshot())).toEqual(seen(await new CatalogSnapshots(store).snapshot()));
          }
          const whole = await new CatalogSnapshots(store).snapshot();
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
    const catalog = new CatalogSnapshots(store);
    await catalog.snapshot();
    const before = { whole: store.wholeReads, sources: store.sourceReads };
    const sourceId = apply(store, { kind: 'edit-tool', pick: 3 }, ids)!;
    catalog.handle(new CatalogChanged(sourceId));
    const after = await catalog.snapshot();
    // That source alone, no whole reading.
    expect(store.sourceReads - before.sources).toBe(1);
    expect(store.wholeReads - before.whole).toBe(0);
    expect(seen(after)).toEqual(seen(await new CatalogSnapshots(store).snapshot()));

    // A change without a source (a resync) reads everything.
    catalog.handle(new CatalogChanged(undefined, true));
    const wholeBefore = store.wholeReads;
    await catalog.snapshot();
    expect(store.wholeReads - wholeBefore).toBe(1);
    catalog.onModuleDestroy();
  });
});
