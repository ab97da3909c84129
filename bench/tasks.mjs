// `npm run bench:tasks`: what a call costs when it runs as a task, in one run, on one Toolplane and
// one upstream (bench/lib/report-server.mjs over stdio, a singleton, sandboxed: `report` answers
// TASKS_BYTES characters of text at once; an SDK v2 server, whose tools declare no
// `execution.taskSupport`, so they run as 2025-11-25 tasks; server-everything's declare theirs
// `forbidden`), one
// call at a time on one keep-alive connection, the rows taking turns: (a) REST invoke, answered in
// its request; (a′) the same of a second source of the same server whose tool is not read-only, so
// that its start is recorded before it is sent, as every task's is; (b) REST invoke with `Prefer: respond-async` (202), then
// `GET /api/v1/executions/{id}/events` until its `result` event; (c) the same 202, then
// `GET /api/v1/executions/{id}` at once and every POLL_MS after until the execution is final;
// (d) `/mcp` 2025-11-25: `tools/call` with `params.task: {}`, then `tasks/result`; (e) `/mcp`
// 2025-11-25: a plain stateless `tools/call`; (f) the same upstream called directly with the SDK's
// stdio client, for reference. Every answer is checked (the report's exact text, the execution
// `succeeded`, the task's id), and at the end every call through Toolplane has one record,
// `succeeded`. Needs `npm run build`. See docs/performance.md.
//
// Settings (environment): TASKS_SECONDS measured seconds per row (default 20, split over the
// passes), TASKS_ROUNDS (default 3: a pass over the rows and one back, each), TASKS_POLL_MS (the
// wait between two polls of row (c) after the first, at once; default 5), TASKS_OUT (default
// bench/results/tasks.md), TASKS_BYTES (the result's characters, default 256), TASKS_ROWS (the
// rows to run, e.g. `a,d`; default all), TASKS_CPU_PROF (a directory: Toolplane runs under
// `node --cpu-prof` and writes its profile there, for bench/profile-summary.mjs; run one row then).
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { Buffer } from 'node:buffer';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { clearTimeout, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startToolplane } from './lib/echo-toolplane.mjs';
import { loadCalls, mergeSorted, quantile } from './lib/load.mjs';
import { LEGACY_HEADERS, legacyToolsCall } from './lib/mcp-requests.mjs';
import { proseWriter } from './lib/prose.mjs';
import { fmt, writeReport } from './lib/report-file.mjs';
import { apiOk } from './lib/api.mjs';
import { cpuSeconds, descendants, findDescendant, heapAfterGc, killAllNow, postgresCpuSeconds, rssBytes, stopAll, treeCpuSeconds } from './lib/processes.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPORT_SERVER = join(ROOT, 'bench/lib/report-server.mjs');
const HEAP_PROBE = join(ROOT, 'bench/lib/heap-probe.mjs');
const SECONDS = Number(process.env.TASKS_SECONDS || 20);
const ROUNDS = Number(process.env.TASKS_ROUNDS || 3);
const POLL_MS = Number(process.env.TASKS_POLL_MS ?? 5);
const BYTES = Number(process.env.TASKS_BYTES || 256);
const ONLY = process.env.TASKS_ROWS ? new Set(process.env.TASKS_ROWS.split(',').map((key) => key.trim())) : undefined;
const CPU_PROF_DIR = process.env.TASKS_CPU_PROF ? resolve(process.env.TASKS_CPU_PROF) : undefined;
const OUT = resolve(process.env.TASKS_OUT || join(ROOT, 'bench/results/tasks.md'));
const log = (line) => console.log(`[tasks] ${line}`);

const TOOL = 'report__report';
const ARGUMENTS = { customer: 'c-1042' };
/** What the report server answers (the same text, bench/lib/prose.mjs with its seed). */
const REPORT = proseWriter(42).prose(BYTES, true);
/** A call's end takes no longer than this; past it the call counts as one that never ended. */
const CALL_BOUND_MS = 10_000;

const watchdog = setTimeout(() => {
  console.error('[tasks] took too long: stopping everything');
  killAllNow();
  process.exit(1);
}, (SECONDS * 10 + ROUNDS * 120 + 300) * 1000);
watchdog.unref();

const scratch = mkdtempSync(join(tmpdir(), 'toolplane-tasks-'));
const heapFile = join(scratch, 'heap.json');
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
let direct;
try {
  const { toolplane, baseUrl, adminKey, auth } = await startToolplane({
    name: 'toolplane',
    root: ROOT,
    scratch,
    dataDir: join(scratch, 'toolplane'),
    nodeArgs: ['--expose-gc', '--import', HEAP_PROBE, ...(CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : [])],
    env: { BENCH_HEAP_FILE: heapFile },
    source: { name: 'report', transport: 'stdio', lifecycle: 'singleton', command: process.execPath, args: [REPORT_SERVER], env: { REPORT_BYTES: String(BYTES) } },
  });
  const http = httpClient(baseUrl, auth);
  const upstreamPid = findDescendant(toolplane.pid, 'report-server.mjs');
  if (upstreamPid === undefined) throw new Error('the report server under Toolplane was not found');
  const writer = { name: 'writer', transport: 'stdio', lifecycle: 'singleton', command: process.execPath, args: [REPORT_SERVER], env: { REPORT_BYTES: String(BYTES), REPORT_READ_ONLY: '0' } };
  await apiOk(baseUrl, adminKey, 'POST', '/api/v1/sources', { ...writer, maxConcurrency: 256, refreshIntervalSeconds: 0 });
  const writerPid = descendants(toolplane.pid).find((p) => p.comm !== 'bwrap' && p.pid !== upstreamPid && readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').includes('report-server.mjs'))?.pid;
  if (writerPid === undefined) throw new Error('the second report server under Toolplane was not found');

  /** Polls per call of row (c), summed with the calls they served. */
  const polling = { calls: 0, polls: 0 };
  const invokePath = `/api/v1/tools/${TOOL}/invoke`;
  const invokeBody = { arguments: ARGUMENTS };
  const async202 = async () => {
    const accepted = await http('POST', invokePath, invokeBody, { prefer: 'respond-async' });
    if (accepted.status !== 202 || accepted.headers['preference-applied'] !== 'respond-async') throw new Error(`respond-async answered ${accepted.status}: ${accepted.text.slice(0, 300)}`);
    const execution = JSON.parse(accepted.text);
    if (accepted.headers.location !== `/api/v1/executions/${execution.id}`) throw new Error(`202 without its Location: ${accepted.headers.location}`);
    return execution;
  };
  const toolCall = legacyToolsCall(TOOL, ARGUMENTS);
  const allRows = [
    {
      key: 'a',
      name: '(a) REST invoke',
      call: async () => {
        const answer = await http('POST', invokePath, invokeBody);
        return answer.status === 200 && succeeded(JSON.parse(answer.text));
      },
    },
    {
      key: "a'",
      name: '(a′) REST invoke, the tool not read-only (its start recorded first)',
      upstreamPid: writerPid,
      call: async () => {
        const answer = await http('POST', '/api/v1/tools/writer__report/invoke', invokeBody);
        return answer.status === 200 && succeeded(JSON.parse(answer.text));
      },
    },
    {
      key: 'b',
      name: '(b) REST `Prefer: respond-async` → 202, then `…/events` (SSE) to its `result`',
      call: async () => {
        const { id } = await async202();
        const stream = await http('GET', `/api/v1/executions/${id}/events`);
        if (stream.status !== 200 || !stream.headers['content-type']?.startsWith('text/event-stream')) return false;
        const events = serverSentEvents(stream.text);
        const result = events.find((event) => event.event === 'result');
        return result !== undefined && events.at(-1) === result && JSON.parse(result.data).id === id && succeeded(JSON.parse(result.data));
      },
    },
    {
      key: 'c',
      name: `(c) REST \`Prefer: respond-async\` → 202, then \`GET …/{id}\` at once and every ${POLL_MS} ms to final`,
      call: async () => {
        const { id } = await async202();
        const until = performance.now() + CALL_BOUND_MS;
        for (let polls = 1; performance.now() < until; polls++) {
          const answer = await http('GET', `/api/v1/executions/${id}`);
          if (answer.status !== 200) return false;
          const execution = JSON.parse(answer.text);
          if (execution.status !== 'working') {
            polling.calls++;
            polling.polls += polls;
            return succeeded(execution);
          }
          await sleep(POLL_MS);
        }
        return false;
      },
    },
    {
      key: 'd',
      name: '(d) /mcp 2025-11-25 `tools/call` with `params.task`, then `tasks/result`',
      call: async () => {
        const created = await rpc(http, { ...toolCall, params: { ...toolCall.params, task: {} } });
        const task = created?.result?.task;
        if (typeof task?.taskId !== 'string' || task.status !== 'working') return false;
        const answer = await rpc(http, { jsonrpc: '2.0', id: 2, method: 'tasks/result', params: { taskId: task.taskId } });
        return reported(answer?.result) && answer.result._meta?.['io.modelcontextprotocol/related-task']?.taskId === task.taskId;
      },
    },
    {
      key: 'e',
      name: '(e) /mcp 2025-11-25 `tools/call`',
      call: async () => reported((await rpc(http, toolCall))?.result),
    },
  ];
  const rows = allRows.filter((row) => !ONLY || ONLY.has(row.key));
  /** Calls sent through Toolplane, warm-ups included. */
  const made = { count: 0 };
  for (const row of rows) {
    const call = row.call;
    row.call = () => {
      made.count++;
      return call();
    };
    row.pid = toolplane.pid;
  }
  direct = await directClient();
  if (!ONLY || ONLY.has('f')) rows.push({ key: 'f', name: '(f) the upstream directly (SDK stdio client)', call: direct.call, pid: direct.pid, direct: true });

  const run = async (row, seconds) => {
    const r = await loadCalls(row.name, bounded(row.call), { seconds });
    if (r.errors > 0) throw new Error(`${row.name}: ${r.errors} of ${r.completed} calls were not answered right (or not within ${CALL_BOUND_MS} ms)`);
    return r;
  };

  const passes = Array.from({ length: ROUNDS * 2 }, (_, i) => (i % 2 === 0 ? rows : [...rows].reverse()));
  log(`${rows.length} rows, one call at a time, ${SECONDS} s each in ${passes.length} passes, taking turns; row (c) polls at once, then every ${POLL_MS} ms`);
  for (const row of rows) await run(row, 2);
  const footprint = async () => ({ heapMb: (await heapAfterGc(toolplane.pid, heapFile)).heapUsed / 2 ** 20, rssMb: rssBytes(toolplane.pid) / 2 ** 20, fds: readdirSync(`/proc/${toolplane.pid}/fd`).length });
  const warm = await footprint();
  const results = new Map(rows.map((row) => [row.name, { calls: 0, seconds: 0, latencies: [], rates: [], tree: 0, own: 0, postgres: 0, upstream: 0 }]));
  const loads = [loadavg()[0]];
  for (const order of passes) {
    for (const row of order) {
      await run(row, 1);
      const before = cpuOf(row);
      const r = await run(row, SECONDS / passes.length);
      const after = cpuOf(row);
      const acc = results.get(row.name);
      for (const key of ['tree', 'own', 'postgres', 'upstream']) acc[key] += after[key] - before[key];
      acc.calls += r.ok;
      acc.seconds += r.elapsedS;
      acc.latencies.push(r.latencies);
      acc.rates.push(r.ok / r.elapsedS);
    }
    loads.push(loadavg()[0]);
  }
  await sleep(2_000);
  const settled = await footprint();
  // Every call through Toolplane has one final record, succeeded: none still running, none lost.
  const stats = JSON.parse((await http('GET', '/api/v1/executions/stats?groupBy=tool')).text);
  const recorded = { count: 0, errorCount: 0 };
  for (const group of stats.groups ?? []) {
    recorded.count += group.count;
    recorded.errorCount += group.errorCount;
  }

  /** CPU seconds so far: Toolplane with everything under it (PostgreSQL, the sandboxed upstream), Toolplane alone, the upstream. */
  function cpuOf(row) {
    if (row.direct) return { tree: NaN, own: NaN, postgres: NaN, upstream: cpuSeconds(row.pid) };
    return { tree: treeCpuSeconds(row.pid), own: cpuSeconds(row.pid), postgres: postgresCpuSeconds(row.pid), upstream: cpuSeconds(row.upstreamPid ?? upstreamPid) };
  }

  const rest = results.get(allRows[0].name);
  const upstream = results.get('(f) the upstream directly (SDK stdio client)');
  const rate = (acc) => acc.calls / acc.seconds;
  const p = (acc, q) => quantile(mergeSorted(acc.latencies), q);
  const perCall = (acc, key) => (acc[key] * 1e6) / acc.calls;
  const ratio = (value, of) => `${fmt(value / of, 2)}×`;
  const lines = rows.map((row) => {
    const acc = results.get(row.name);
    const vsRest = !rest || acc === rest ? '—' : `${ratio(rate(acc), rate(rest))} / ${ratio(p(acc, 0.5), p(rest, 0.5))}`;
    const vsUpstream = !upstream || row.direct ? '—' : `${ratio(rate(acc), rate(upstream))} / ${ratio(p(acc, 0.5), p(upstream, 0.5))}`;
    const cpuVsRest = !rest || row.direct || acc === rest ? '—' : ratio(perCall(acc, 'tree'), perCall(rest, 'tree'));
    return `| ${row.name} | ${fmt(rate(acc), 0)} (${fmt(Math.min(...acc.rates), 0)}–${fmt(Math.max(...acc.rates), 0)}) | ${fmt(p(acc, 0.5), 2)} | ${fmt(p(acc, 0.99), 2)} | ${vsRest} | ${vsUpstream} | ${fmt(perCall(acc, 'tree'), 0)} | ${cpuVsRest} | ${fmt(perCall(acc, 'own'), 0)} | ${fmt(perCall(acc, 'postgres'), 0)} | ${fmt(perCall(acc, 'upstream'), 0)} |`;
  });
  const report = [
    `# What a call costs as a task (${new Date().toISOString().slice(0, 16)} UTC, ${cpus().length} cores, Node.js ${process.version})`,
    '',
    `\`report\` of bench/lib/report-server.mjs over stdio (a singleton, sandboxed; an SDK v2 server answering at once), ${BYTES} characters of text a result; one call at a time on one keep-alive connection, ${SECONDS} s per row in ${passes.length} passes taking turns (the spread of the passes in brackets). A call is its whole life: for (b)–(d) from the request that starts it to its result in hand.`,
    ...(polling.calls > 0 ? [`Row (c) polls at once after the 202, then every ${POLL_MS} ms: ${fmt(polling.polls / polling.calls, 2)} polls a call on average.`] : []),
    `Load average (1 min) over the run: ${fmt(Math.min(...loads), 1)}–${fmt(Math.max(...loads), 1)}.`,
    '"CPU" is user+system per call: of Toolplane with everything under it (its embedded PostgreSQL, the sandboxed upstream), of Toolplane alone, of its PostgreSQL, of the upstream. "÷ (a)" and "÷ (f)": calls/s, then p50.',
    `Toolplane after the warm-up: heap after a full GC ${fmt(warm.heapMb, 1)} MB, RSS ${fmt(warm.rssMb, 0)} MB, ${warm.fds} open file descriptors; 2 s after the last row: heap ${fmt(settled.heapMb, 1)} MB, RSS ${fmt(settled.rssMb, 0)} MB, ${settled.fds} file descriptors; ${made.count} calls through Toolplane, ${recorded.count} execution records, ${recorded.errorCount} of them not \`succeeded\`.`,
    '',
    '| row | calls/s (passes) | p50 ms | p99 ms | ÷ (a) | ÷ (f) | CPU µs/call, Toolplane and below | ÷ (a) | Toolplane alone | PostgreSQL | upstream |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...lines,
    '',
  ].join('\n');
  writeReport(OUT, report, log);
  if (recorded.count !== made.count || recorded.errorCount !== 0) throw new Error(`${made.count} calls but ${recorded.count} records (${recorded.errorCount} not succeeded): ${JSON.stringify(recorded)}`);
} finally {
  agent.destroy();
  await direct?.close();
  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
}

/** Whether an execution (REST's answer, the SSE `result`, a poll) succeeded with the report. */
function succeeded(execution) {
  return execution.status === 'succeeded' && reported(execution.result);
}

/** Whether a CallToolResult is the report. */
function reported(result) {
  return result !== undefined && result.isError !== true && result.content?.[0]?.type === 'text' && result.content[0].text === REPORT;
}

/** `call` failing when it takes longer than CALL_BOUND_MS: a call that never ends stops the run rather than hanging it. */
function bounded(call) {
  return () => {
    let timer;
    const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no end within ${CALL_BOUND_MS} ms`)), CALL_BOUND_MS)));
    return Promise.race([call(), late]).finally(() => clearTimeout(timer));
  };
}

/** One request at a time to Toolplane over one keep-alive connection, as its admin: status, headers, whole body. */
function httpClient(baseUrl, auth) {
  const { hostname, port } = new URL(baseUrl);
  return (method, path, body, headers = {}) =>
    new Promise((resolveAnswer, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request({ agent, hostname, port, method, path, headers: { ...auth, ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }) } }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolveAnswer({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
}

/** One 2025-era stateless JSON-RPC request to `/mcp`; its answer, parsed (a JSON body or the last SSE `data`). */
async function rpc(http, message) {
  const answer = await http('POST', '/mcp', message, LEGACY_HEADERS);
  if (answer.status !== 200) return undefined;
  const data = answer.headers['content-type']?.startsWith('text/event-stream') ? serverSentEvents(answer.text).at(-1)?.data : answer.text;
  return data === undefined ? undefined : JSON.parse(data);
}

/** The events of a whole Server-Sent Events body: [{ event, data }] (comments left out). */
function serverSentEvents(text) {
  return text
    .split(/\n\n+/)
    .map((block) => {
      const lines = block.split('\n').filter((line) => line !== '' && !line.startsWith(':'));
      const field = (name) => lines.filter((line) => line.startsWith(`${name}:`)).map((line) => line.slice(name.length + 1).replace(/^ /, ''));
      return { event: field('event')[0] ?? 'message', data: field('data').join('\n'), empty: lines.length === 0 };
    })
    .filter((event) => !event.empty)
    .map(({ event, data }) => ({ event, data }));
}

/** The same upstream as Toolplane's, started and called with the SDK's stdio client. */
async function directClient() {
  const client = new Client({ name: 'toolplane-bench', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [REPORT_SERVER], env: { PATH: process.env.PATH ?? '', REPORT_BYTES: String(BYTES) }, stderr: 'ignore' });
  await client.connect(transport);
  const call = async () => reported(await client.callTool({ name: 'report', arguments: ARGUMENTS }));
  return { call, pid: transport.pid, close: () => client.close() };
}
