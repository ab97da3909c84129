// `npm run bench:floor`: what bounds a recording proxy on this machine (at 1 connection unless
// FLOOR_CONNECTIONS says otherwise). In one run, interleaved, the same `echo` call through a
// baseline, through the least proxy there can be (bench/lib/floor-proxy.mjs: forward, answer),
// the same with one durable row written per call (committed on its own, or group-committed as
// Toolplane's records are), and through Toolplane (REST; records flushed
// before the answer). Over stdio (default) the upstream is server-everything and the baseline
// mcp-proxy; with FLOOR_UPSTREAM=http the upstream is the benchmark's HTTP echo server and the
// baseline a direct call to it. If the least proxy with a durable record cannot reach a goal, no
// proxy that keeps a durable history can on this machine. Needs `npm run build`. See
// docs/performance.md.
//
// Settings (environment): FLOOR_UPSTREAM stdio (default) or http, FLOOR_SECONDS measured seconds
// per target (default 10, split evenly over the passes), FLOOR_CONNECTIONS (default 1),
// FLOOR_ROUNDS (default 1: one pass over the targets and one back), FLOOR_MCP=1 (Toolplane's
// `/mcp` too, a stateless 2025-era `tools/call`), FLOOR_BEFORE (another built checkout of
// Toolplane, run beside this one on its own embedded PostgreSQL against the same upstream, its
// targets marked "(before)"; with FLOOR_BEFORE_FIRST=1 it starts first and its PostgreSQL holds the
// floor proxies' table), FLOOR_CPU_PROF (a directory: this build's Toolplane runs under
// `node --cpu-prof` and writes its profile there; its numbers are then not comparable), FLOOR_OUT
// (default bench/results/floor.md).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout } from 'node:timers';
import { load, mergeSorted, quantile, target } from './lib/load.mjs';
import { fmt, writeReport } from './lib/report-file.mjs';
import { cpuSeconds, freePort, killAllNow, postgresCpuSeconds, startProcess, stopAll, waitForHttp } from './lib/processes.mjs';
import { LEGACY_HEADERS, legacyToolsCall } from './lib/mcp-requests.mjs';
import { BENCH_ENV, startEchoToolplane } from './lib/echo-toolplane.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const MCP_PROXY = join(ROOT, 'node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs');
const FLOOR_PROXY = join(ROOT, 'bench/lib/floor-proxy.mjs');
const ECHO_FIXTURE = join(ROOT, 'test/fixtures/http-echo-server.mjs');
const UPSTREAM = process.env.FLOOR_UPSTREAM || 'stdio';
if (UPSTREAM !== 'stdio' && UPSTREAM !== 'http') throw new Error('FLOOR_UPSTREAM: stdio or http');
const SECONDS = Number(process.env.FLOOR_SECONDS || 10);
const CONNECTIONS = Number(process.env.FLOOR_CONNECTIONS || 1);
const ROUNDS = Number(process.env.FLOOR_ROUNDS || 1);
const WITH_MCP = process.env.FLOOR_MCP === '1';
const BEFORE = process.env.FLOOR_BEFORE ? resolve(process.env.FLOOR_BEFORE) : undefined;
const CPU_PROF_DIR = process.env.FLOOR_CPU_PROF ? resolve(process.env.FLOOR_CPU_PROF) : undefined;
const OUT = resolve(process.env.FLOOR_OUT || join(ROOT, 'bench/results/floor.md'));
const log = (line) => console.log(`[floor] ${line}`);

const watchdog = setTimeout(() => {
  console.error('[floor] took too long: stopping everything');
  killAllNow();
  process.exit(1);
}, (SECONDS * 12 + ROUNDS * 40 + 300) * 1000);
watchdog.unref();

// server-everything answers "Echo: hello", the HTTP echo server "hello".
const echoed = (body) => body.includes('"result"') && body.includes(UPSTREAM === 'http' ? '"text":"hello"' : 'Echo: hello');
const targets = [];
/** The HTTP echo server's URL (FLOOR_UPSTREAM=http), and the process of the first Toolplane, whose PostgreSQL the floor proxies write into. */
let upstreamUrl;
let firstToolplanePid;

const scratch = mkdtempSync(join(tmpdir(), 'toolplane-floor-'));
try {
  const echoCall = legacyToolsCall('echo', { message: 'hello' });

  const baselinePort = await freePort();
  const baseline =
    UPSTREAM === 'http'
      ? startProcess('http-echo', process.execPath, [ECHO_FIXTURE, '--port', String(baselinePort)], { env: BENCH_ENV, cwd: ROOT })
      : startProcess(
          'mcp-proxy',
          process.execPath,
          [MCP_PROXY, '--port', String(baselinePort), '--host', '127.0.0.1', '--server', 'stream', '--stateless', '--no-eventStore', '--', process.execPath, EVERYTHING, 'stdio'],
          { env: BENCH_ENV, cwd: ROOT },
        );
  const baselineTarget = { ...target(UPSTREAM === 'http' ? 'direct' : 'mcp-proxy', `http://127.0.0.1:${baselinePort}/mcp`, LEGACY_HEADERS, echoCall, echoed), pid: baseline.pid };
  await waitForHttp(baseline, baselineTarget.url, { init: { method: 'POST', headers: baselineTarget.headers, body: baselineTarget.body } });
  targets.push(baselineTarget);
  upstreamUrl = baselineTarget.url;

  // Toolplane first: its embedded PostgreSQL also holds the floor proxy's record table.
  // The first started also holds the floor proxies' table: FLOOR_BEFORE_FIRST=1 gives that to the other build.
  const builds = [{ root: ROOT, mark: '' }, ...(BEFORE ? [{ root: BEFORE, mark: ' (before)' }] : [])];
  if (process.env.FLOOR_BEFORE_FIRST === '1') builds.reverse();
  let dataDir;
  for (const build of builds) {
    const started = await startToolplane(build);
    dataDir ??= started.dataDir;
  }

  const recordUrl = embeddedUrl(dataDir);
  const upstreamArgs = UPSTREAM === 'http' ? ['--upstream', baselineTarget.url] : [];
  for (const [name, args] of [
    ['least proxy', upstreamArgs],
    ['least proxy + durable record', [...upstreamArgs, '--record', recordUrl]],
    ['least proxy + group-committed record', [...upstreamArgs, '--record', recordUrl, '--group']],
  ]) {
    const floorPort = await freePort();
    const handle = startProcess(name, process.execPath, [FLOOR_PROXY, '--port', String(floorPort), ...args], { env: BENCH_ENV, cwd: ROOT });
    const t = { ...target(name, `http://127.0.0.1:${floorPort}/mcp`, LEGACY_HEADERS, echoCall, echoed), pid: handle.pid, postgresOf: args.includes('--record') ? firstToolplanePid : undefined };
    await waitForHttp(handle, t.url, { init: { method: 'POST', headers: t.headers, body: t.body } });
    targets.push(t);
  }

  const passes = Array.from({ length: ROUNDS * 2 }, (_, i) => (i % 2 === 0 ? targets : [...targets].reverse()));
  log(`${targets.length} targets at ${CONNECTIONS} connection(s), ${SECONDS} s each in ${passes.length} passes, interleaved`);
  for (const t of targets) await load(t, { connections: CONNECTIONS, seconds: 3 });
  const results = new Map(targets.map((t) => [t.name, { calls: 0, seconds: 0, latencies: [], cpu: 0, pgCpu: 0 }]));
  for (const order of passes) {
    for (const t of order) {
      await load(t, { connections: CONNECTIONS, seconds: 1 });
      const cpu0 = cpuSeconds(t.pid);
      const pg0 = t.postgresOf ? postgresCpuSeconds(t.postgresOf) : 0;
      const r = await load(t, { connections: CONNECTIONS, seconds: SECONDS / passes.length });
      const acc = results.get(t.name);
      acc.cpu += cpuSeconds(t.pid) - cpu0;
      if (t.postgresOf) acc.pgCpu += postgresCpuSeconds(t.postgresOf) - pg0;
      acc.calls += r.ok;
      acc.seconds += r.elapsedS;
      acc.latencies.push(r.latencies);
      if (r.errors > 0) throw new Error(`${t.name}: ${r.errors} errors`);
    }
  }

  const p50Of = (acc) => quantile(mergeSorted(acc.latencies), 0.5);
  const base = results.get(baselineTarget.name);
  const rows = targets.map((t) => {
    const acc = results.get(t.name);
    const p50 = p50Of(acc);
    const pg = t.postgresOf ? fmt((acc.pgCpu * 1e6) / acc.calls, 0) : '—';
    return `| ${t.name} | ${fmt(rate(acc), 0)} | ${fmt(p50, 2)} | ${fmt(p50 - p50Of(base), 2)} | ${fmt((acc.cpu * 1e6) / acc.calls, 0)} | ${pg} | ${fmt(rate(acc) / rate(base), 2)}× |`;
  });
  const report = [
    `# What bounds a recording proxy (${new Date().toISOString().slice(0, 16)} UTC, ${cpus().length} cores, Node.js ${process.version})`,
    '',
    `${UPSTREAM === 'http' ? 'The HTTP echo server' : 'server-everything over stdio'}, \`echo\`, ${CONNECTIONS} connection(s), ${SECONDS} s per target in ${passes.length} interleaved passes. "CPU" is`,
    'the user+system CPU of the process the load was sent to (not its upstream or PostgreSQL), per call; "PostgreSQL CPU" that of',
    'the embedded cluster the target records into (the floor proxies write into the first Toolplane\'s).',
    ...(BEFORE ? [`"(before)": the build in ${BEFORE}.`] : []),
    '',
    `| target | calls/s | p50 ms | added p50 ms | CPU µs/call | PostgreSQL CPU µs/call | throughput / ${baselineTarget.name} |`,
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  writeReport(OUT, report, log);
} finally {
  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
}

/** A Toolplane of `build` on a fresh embedded database, with the echo source registered, and its targets added. */
async function startToolplane({ root, mark }) {
  const profiled = CPU_PROF_DIR && !mark ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : [];
  if (profiled.length > 0) mkdirSync(CPU_PROF_DIR, { recursive: true });
  const dataDir = join(scratch, `toolplane${mark ? '-before' : ''}`);
  const { toolplane, baseUrl, auth } = await startEchoToolplane({
    name: `toolplane${mark}`,
    root,
    everythingRoot: ROOT,
    scratch,
    dataDir,
    nodeArgs: profiled,
    upstream: UPSTREAM,
    upstreamUrl,
  });
  firstToolplanePid ??= toolplane.pid;
  const own = { pid: toolplane.pid, postgresOf: toolplane.pid };
  targets.push({ ...target(`Toolplane REST${mark}`, `${baseUrl}/api/v1/tools/echo__echo/invoke`, auth, { arguments: { message: 'hello' } }, echoed), ...own });
  if (WITH_MCP) targets.push({ ...target(`Toolplane /mcp${mark}`, `${baseUrl}/mcp`, { ...LEGACY_HEADERS, ...auth }, legacyToolsCall('echo__echo', { message: 'hello' }), echoed), ...own });
  return { dataDir };
}

function rate(acc) {
  return acc.calls / acc.seconds;
}

/** Toolplane's embedded PostgreSQL, as Toolplane reaches it: over the socket in its cluster directory when there is one. */
function embeddedUrl(dir) {
  const password = readFileSync(join(dir, 'postgres.credentials'), 'utf8').trim();
  const [, , , pgPort, socketDir] = readFileSync(join(dir, 'postgres/postmaster.pid'), 'utf8').split('\n');
  const host = socketDir && socketDir.trim() ? `?host=${encodeURIComponent(socketDir.trim())}` : '';
  return `postgresql://toolplane:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/toolplane${host}`;
}
