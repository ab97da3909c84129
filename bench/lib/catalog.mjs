// The catalog workload: many sources with many tools registered in Toolplane, then the time of a
// catalog search (REST), of the whole MCP `tools/list` (every page, both eras) and of the whole
// REST catalog in format=openai. Requests are sent with fetch (keep-alive), one at a time unless
// said otherwise; latencies are wall-clock times in ms, measured in this process.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { catalogSourceNames, catalogTools } from './catalog-inventory.mjs';
import { quantile } from './load.mjs';
import { toolsListRequest } from './mcp-requests.mjs';

/* global fetch, AbortSignal */

/** Runs `task(item)` for every item with at most `concurrency` at a time. */
export async function inPool(items, concurrency, task) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/**
 * Registers `sourceCount` stdio transient sources of `fixture` (test/fixtures/changing-inventory-server.mjs),
 * each serving its own inventory file of `toolsPerSource` tools in one page.
 */
export async function registerCatalogSources({ api, dir, fixture, sourceCount, toolsPerSource, concurrency = 4 }) {
  const names = catalogSourceNames(sourceCount);
  const started = performance.now();
  let toolCount = 0;
  await inPool(
    names.map((name, index) => ({ name, index })),
    concurrency,
    async ({ name, index }) => {
      const inventoryFile = join(dir, `inventory-${name}.json`);
      writeFileSync(inventoryFile, JSON.stringify(catalogTools(index, toolsPerSource)));
      const { status, json, text } = await api('POST', '/api/v1/sources', {
        name,
        transport: 'stdio',
        lifecycle: 'transient',
        command: process.execPath,
        args: [fixture],
        env: { INVENTORY_FILE: inventoryFile, PAGE_SIZE: String(toolsPerSource) },
        // The sandbox hides /tmp: the plugin is shown the inventories' directory, read-only.
        sandbox: { readOnlyPaths: [dir] },
        refreshIntervalSeconds: 0,
      });
      if (status >= 300 || json?.toolCount !== toolsPerSource) {
        throw new Error(`registering ${name} answered ${status}: ${text.slice(0, 1000)}`);
      }
      toolCount += json.toolCount;
    },
  );
  return { sources: names.length, tools: toolCount, seconds: (performance.now() - started) / 1000 };
}

/** One request; its wall-clock time in ms and its parsed JSON (the last event of an SSE answer). */
async function timed(url, init) {
  const started = performance.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  const sse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
  const json = JSON.parse(sse ? text.split('\n').filter((line) => line.startsWith('data:')).at(-1).slice(5) : text);
  return { ms, json, bytes: text.length };
}

function summary(latencies) {
  const sorted = Float64Array.from(latencies).sort();
  return { count: sorted.length, p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), max: sorted.at(-1) };
}

const searchUrl = (baseUrl, query) => `${baseUrl}/api/v1/tools?q=${encodeURIComponent(query)}`;

/** `rounds` passes over `queries`, one request at a time: the latencies, overall and per query. */
export async function measureSearchSequential({ baseUrl, headers, queries, rounds }) {
  const perQuery = new Map(queries.map((q) => [q, { latencies: [], items: 0, more: false }]));
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      const { ms, json } = await timed(searchUrl(baseUrl, query), { headers });
      const entry = perQuery.get(query);
      entry.latencies.push(ms);
      entry.items = json.items.length;
      entry.more = json.nextCursor !== null;
    }
  }
  const all = [...perQuery.values()].flatMap((e) => e.latencies);
  return {
    rounds,
    ...summary(all),
    queries: queries.map((query) => {
      const { latencies, items, more } = perQuery.get(query);
      return { query, items, more, ...summary(latencies) };
    }),
  };
}

/** `count` GETs of `url`, one at a time. */
export async function measureRequests({ url, headers, count }) {
  const latencies = [];
  for (let i = 0; i < count; i++) latencies.push((await timed(url, { headers })).ms);
  return summary(latencies);
}

/** `connections` clients searching in turn through `queries` for `seconds`: latencies and rate. */
export async function measureSearchConcurrent({ baseUrl, headers, queries, connections, seconds }) {
  const latencies = [];
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  const client = async (offset) => {
    for (let i = offset; performance.now() < deadline; i++) {
      latencies.push((await timed(searchUrl(baseUrl, queries[i % queries.length]), { headers })).ms);
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, c) => client(c)));
  const elapsedS = (performance.now() - started) / 1000;
  return { connections, rps: latencies.length / elapsedS, ...summary(latencies) };
}

/** The whole MCP `tools/list` of `path`, following nextCursor: total and first-page time. */
export async function listAllMcpTools({ baseUrl, headers, era, path = '/mcp' }) {
  const started = performance.now();
  let cursor;
  let pages = 0;
  let tools = 0;
  let bytes = 0;
  let firstPageMs;
  do {
    const request = toolsListRequest(era, cursor);
    const answer = await timed(`${baseUrl}${path}`, { method: 'POST', headers: { ...headers, ...request.headers }, body: request.body });
    if (!answer.json.result) throw new Error(`tools/list (${era}) answered ${JSON.stringify(answer.json).slice(0, 500)}`);
    firstPageMs ??= answer.ms;
    pages++;
    tools += answer.json.result.tools.length;
    bytes += answer.bytes;
    cursor = answer.json.result.nextCursor;
  } while (cursor !== undefined && pages < 10_000);
  return { totalMs: performance.now() - started, firstPageMs, pages, tools, bytes };
}

/** The whole REST catalog in `format`, `limit` tools a page, following nextCursor. */
export async function listAllRestTools({ baseUrl, headers, format, limit = 500 }) {
  const started = performance.now();
  let cursor = null;
  let pages = 0;
  let tools = 0;
  let bytes = 0;
  let firstPageMs;
  do {
    const query = `format=${format}&limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const answer = await timed(`${baseUrl}/api/v1/tools?${query}`, { headers });
    firstPageMs ??= answer.ms;
    pages++;
    tools += answer.json.items.length;
    bytes += answer.bytes;
    cursor = answer.json.nextCursor;
  } while (cursor !== null && pages < 10_000);
  return { totalMs: performance.now() - started, firstPageMs, pages, tools, bytes };
}

/** `list()` `repetitions` times: p50 and max of the whole-list and first-page times. */
export async function repeatListing(repetitions, list) {
  const runs = [];
  for (let i = 0; i < repetitions; i++) runs.push(await list());
  const whole = summary(runs.map((r) => r.totalMs));
  const first = summary(runs.map((r) => r.firstPageMs));
  const { pages, tools, bytes } = runs.at(-1);
  return { repetitions, pages, tools, bytes, p50: whole.p50, max: whole.max, firstPageP50: first.p50 };
}
