import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { catalogOf, QUERIES } from '../fixtures/search-quality-catalog.js';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES } from '../helpers/upstreams.js';

/**
 * Search quality of the catalog: 500 realistic tools across 20 sources, 30 queries written the way
 * an agent asks, each with the tool it means. The intended tool must be in the top 3 of
 * `GET /api/v1/tools?q=` for at least 90% of the queries (and the MCP gateway's search_tools ranks
 * from the same search).
 */
describe('catalog search quality', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolplane-search-quality-'));
  // Plugins run sandboxed as an unprivileged user and read their inventory files from here.
  chmodSync(dir, 0o755);
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    for (const { source, tools } of catalogOf()) {
      const inventory = join(dir, `${source}.json`);
      writeFileSync(inventory, JSON.stringify(tools.map((tool) => ({ ...tool, inputSchema: { type: 'object', properties: {} } }))));
      const created = await h.api.post('/api/v1/sources', {
        name: source,
        transport: 'stdio',
        command: 'node',
        args: [join(FIXTURES, 'changing-inventory-server.mjs'), SUITE_TAG],
        env: { INVENTORY_FILE: inventory, PAGE_SIZE: '100' },
        sandbox: { readOnlyPaths: [dir] },
        refreshIntervalSeconds: 0,
      });
      expect(created.body).toMatchObject({ name: source, toolCount: tools.length });
    }
  });

  afterAll(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
    await expectNoSuiteProcesses();
  });

  it('holds 500 tools across 20 sources', async () => {
    const catalog = catalogOf();
    expect(catalog).toHaveLength(20);
    expect(catalog.every(({ tools }) => tools.length === 25)).toBe(true);
    const rows = await h.sql<{ n: number }>("SELECT count(*)::int AS n FROM source_tools WHERE retired_at IS NULL AND status = 'active'");
    expect(rows[0]!.n).toBe(500);
  });

  it('finds the intended tool in the top 3 for at least 90% of the queries', async () => {
    expect(QUERIES).toHaveLength(30);
    const misses: string[] = [];
    for (const [query, intended] of QUERIES) {
      const page = await h.api.get(`/api/v1/tools?q=${encodeURIComponent(query)}&limit=3&format=mcp`);
      expect(page.status).toBe(200);
      const names: string[] = page.body.items.map((tool: { name: string }) => tool.name);
      if (!names.includes(intended)) misses.push(`"${query}": wanted ${intended}, got ${names.join(', ') || 'nothing'}`);
    }
    // Printed so that a change of ranking shows what it did.
    if (misses.length > 0) process.stdout.write(`search misses (${misses.length} of ${QUERIES.length}):\n  ${misses.join('\n  ')}\n`);
    expect(misses.length).toBeLessThanOrEqual(3);
  });
});
