// The refresh workload: every catalog source rediscovered through Toolplane (POST …/refresh, which
// starts the sandboxed plugin, lists every page and stores the changes), against the same
// listing done directly with the SDK's stdio client (start the server, initialize, list, stop).
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { quantile } from './load.mjs';
import { inPool } from './catalog.mjs';
import { catalogSourceNames } from './catalog-inventory.mjs';

async function timedPass(names, concurrency, refreshOne) {
  const latencies = [];
  const started = performance.now();
  await inPool(names, concurrency, async (name) => {
    const t0 = performance.now();
    await refreshOne(name);
    latencies.push(performance.now() - t0);
  });
  const sorted = Float64Array.from(latencies).sort();
  return { concurrency, sources: names.length, seconds: (performance.now() - started) / 1000, p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) };
}

/**
 * `sourceCount` sources registered by the catalog workload (their inventories in `dir`), refreshed
 * one at a time and `concurrency` at once, through Toolplane and directly.
 */
export async function refreshWorkload({ api, dir, fixture, sourceCount, toolsPerSource, concurrency = 8, withCpu }) {
  const names = catalogSourceNames(sourceCount);
  const throughToolplane = async (name) => {
    const { status, json, text } = await api('POST', `/api/v1/sources/${name}/refresh`);
    if (status !== 200 || json?.unchanged === undefined) throw new Error(`refreshing ${name} answered ${status}: ${text.slice(0, 500)}`);
  };
  const direct = async (name) => {
    const client = new Client({ name: 'toolplane-bench', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [fixture],
      env: { PATH: process.env.PATH ?? '', INVENTORY_FILE: join(dir, `inventory-${name}.json`), PAGE_SIZE: String(toolsPerSource) },
      stderr: 'ignore',
    });
    await client.connect(transport);
    try {
      let cursor;
      let count = 0;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor });
        count += page.tools.length;
        cursor = page.nextCursor;
      } while (cursor);
      if (count !== toolsPerSource) throw new Error(`${name}: listed ${count} tools directly, expected ${toolsPerSource}`);
    } finally {
      await client.close();
    }
  };
  const rows = [];
  for (const c of [1, concurrency]) {
    rows.push({ target: 'direct (SDK stdio client)', ...(await timedPass(names, c, direct)) });
    rows.push({ target: 'Toolplane refresh', ...(await withCpu((r) => r.sources, () => timedPass(names, c, throughToolplane))) });
  }
  return { rows, toolsPerSource };
}
