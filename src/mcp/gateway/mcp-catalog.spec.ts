import type { QueryBus } from '@nestjs/cqrs';
import { ListToolsQuery } from '../../modules/inventory/application/list-tools/list-tools.query.js';
import { CatalogChanged } from '../../shared/catalog-events.js';
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
