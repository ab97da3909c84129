// `npm run bench`: Toolplane's tool-call paths (REST invoke, and `tools/call` on `/mcp` in both
// protocol eras) against the same upstream reached without it, in the same run, interleaved; then
// the catalog with 10,000 tools (search, MCP `tools/list`). See docs/performance.md. Loopback only;
// every load is bounded in time; everything started is stopped at the end, also on failure (and by
// a watchdog).
//
// Settings (environment):
//   BENCH_SECONDS         measured seconds per (workload, connections, target), default 10
//   BENCH_WARMUP_SECONDS  warm-up before each measured half, default 1
//   BENCH_CONNECTIONS     comma-separated, default 1,16,64
//   BENCH_WORKLOADS       comma-separated of http-echo, stdio-everything, stdio-lifecycles, catalog,
//                         refresh, replicas (default all): stdio-lifecycles compares transient,
//                         singleton and unsandboxed stdio; refresh needs catalog's sources; replicas
//                         (one vs two Toolplane processes on one PostgreSQL) needs http-echo
//   BENCH_MEMORY_CALLS    calls of each memory run (REST, then /mcp), default 50000 (0 skips them);
//                         each bounded at 180 s; needs the http-echo workload
//   BENCH_CATALOG_SOURCES sources of the catalog workload, default 100
//   BENCH_CATALOG_TOOLS   tools per source of the catalog workload, default 100
//   BENCH_CATALOG_ROUNDS  passes over the search queries (one at a time), default 10
//   BENCH_CATALOG_LISTS   repetitions of each whole listing, default 5
//   BENCH_EXECUTION_COMMIT TOOLPLANE_EXECUTION_COMMIT of the Toolplane under test: durable (default) or async
//   BENCH_CPU_PROF        a directory: run Toolplane under `node --cpu-prof` and write its profile there
//   BENCH_OUT             the markdown file to write, default bench/results/latest.md
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { setTimeout, clearTimeout, setInterval, clearInterval } from 'node:timers';
import { load, mergeSorted, quantile, target } from './lib/load.mjs';
import {
  cpuSeconds,
  findDescendant,
  freePort,
  heapAfterGc,
  killAllNow,
  loadGeneratorCpuSeconds,
  machineBusySeconds,
  ownCpuSeconds,
  postgresCpuSeconds,
  rssBytes,
  startProcess,
  stopAll,
  systemCpuSeconds,
  waitForHttp,
} from './lib/processes.mjs';
import { renderReport } from './lib/report.mjs';
import { LEGACY_HEADERS, LEGACY_VERSION, MODERN_VERSION, legacyToolsCall, modernHeaders, modernToolsCall } from './lib/mcp-requests.mjs';
import {
  listAllMcpTools,
  listAllRestTools,
  measureRequests,
  measureSearchConcurrent,
  measureSearchSequential,
  registerCatalogSources,
  repeatListing,
} from './lib/catalog.mjs';
import { CATALOG_QUERIES } from './lib/catalog-inventory.mjs';
import { api } from './lib/api.mjs';
import { refreshWorkload } from './lib/refresh.mjs';
import { replicasWorkload } from './lib/replicas.mjs';

/* global fetch, AbortSignal */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MAIN = join(ROOT, 'dist/src/main.js');
const ECHO_FIXTURE = join(ROOT, 'test/fixtures/http-echo-server.mjs');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const MCP_PROXY = join(ROOT, 'node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs');
const INVENTORY_FIXTURE = join(ROOT, 'test/fixtures/changing-inventory-server.mjs');
const HEAP_PROBE = join(ROOT, 'bench/lib/heap-probe.mjs');

function numberSetting(name, fallback, min = 0) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number >= ${min} (got "${raw}")`);
  return value;
}

const SECONDS = numberSetting('BENCH_SECONDS', 10, 0.5);
const WARMUP_SECONDS = numberSetting('BENCH_WARMUP_SECONDS', 1, 0);
const FIRST_WARMUP_SECONDS = Math.max(WARMUP_SECONDS, Math.min(3, SECONDS));
const CONNECTIONS = (process.env.BENCH_CONNECTIONS || '1,16,64').split(',').map((c) => {
  const n = Number(c.trim());
  if (!Number.isInteger(n) || n < 1 || n > 512) throw new Error(`BENCH_CONNECTIONS: "${c}" is not a connection count`);
  return n;
});
const ALL_WORKLOADS = ['http-echo', 'stdio-everything', 'stdio-lifecycles', 'catalog', 'refresh', 'replicas'];
const WORKLOADS = (process.env.BENCH_WORKLOADS || ALL_WORKLOADS.join(',')).split(',').map((w) => w.trim());
for (const w of WORKLOADS) if (!ALL_WORKLOADS.includes(w)) throw new Error(`BENCH_WORKLOADS: unknown workload "${w}"`);
if (WORKLOADS.includes('refresh') && !WORKLOADS.includes('catalog')) throw new Error('BENCH_WORKLOADS: refresh needs catalog (it refreshes the catalog\'s sources)');
if (WORKLOADS.includes('replicas') && !WORKLOADS.includes('http-echo')) throw new Error('BENCH_WORKLOADS: replicas needs http-echo (its upstream)');
/** Connections of the lifecycle comparison: a transient source starts a sandboxed process per call. */
const LIFECYCLE_CONNECTIONS = CONNECTIONS.filter((c) => c <= 16);
const MEMORY_CALLS = numberSetting('BENCH_MEMORY_CALLS', 50_000, 0);
const MEMORY_BOUND_SECONDS = 180;
const CATALOG = {
  sources: numberSetting('BENCH_CATALOG_SOURCES', 100, 1),
  toolsPerSource: numberSetting('BENCH_CATALOG_TOOLS', 100, 1),
  searchRounds: numberSetting('BENCH_CATALOG_ROUNDS', 10, 1),
  listRepetitions: numberSetting('BENCH_CATALOG_LISTS', 5, 1),
  searchConnections: 16,
  concurrentSearchSeconds: 5,
  // allowance of the watchdog: registration, searches and listings are bounded by their own count
  allowanceSeconds: 600,
};
const IDLE_SECONDS = 5;
const MEMORY_CONNECTIONS = 16;
const EXECUTION_COMMIT = process.env.BENCH_EXECUTION_COMMIT?.trim() || 'durable';
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;
const OUT = resolve(process.env.BENCH_OUT || join(ROOT, 'bench/results/latest.md'));

const log = (message) => process.stderr.write(`[bench] ${message}\n`);

// ---------------------------------------------------------------------------------------------
// Watchdog and cleanup: whatever happens, no process is left behind.

const TARGETS_PER_WORKLOAD = { 'http-echo': 5, 'stdio-everything': 4, 'stdio-lifecycles': 4, catalog: 0, refresh: 0, replicas: 4 };
const MEMORY_RUNS = 2;
const plannedSeconds =
  WORKLOADS.reduce((sum, w) => sum + TARGETS_PER_WORKLOAD[w] * (FIRST_WARMUP_SECONDS + CONNECTIONS.length * (SECONDS + 2 * WARMUP_SECONDS)), 0) +
  (MEMORY_CALLS > 0 ? MEMORY_RUNS * MEMORY_BOUND_SECONDS : 0) +
  (WORKLOADS.includes('catalog') ? CATALOG.allowanceSeconds : 0) +
  (WORKLOADS.includes('refresh') ? CATALOG.allowanceSeconds : 0);
const WATCHDOG_MS = (plannedSeconds * 1.5 + 300) * 1000;
const watchdog = setTimeout(() => {
  log(`watchdog: still running after ${Math.round(WATCHDOG_MS / 1000)} s; stopping everything`);
  killAllNow();
  removeTemporaryDirectories();
  process.exit(3);
}, WATCHDOG_MS);

let cleaningUp;
let dataDir;
let scratchDir;
let unsandboxedDir;
function removeTemporaryDirectories() {
  for (const dir of [dataDir, scratchDir, unsandboxedDir]) if (dir) rmSync(dir, { recursive: true, force: true });
}
async function cleanup() {
  cleaningUp ??= (async () => {
    await stopAll(25_000);
    removeTemporaryDirectories();
  })();
  return cleaningUp;
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    log(`${signal}: stopping everything`);
    void cleanup().finally(() => process.exit(130));
  });
}
process.on('exit', () => killAllNow());

// ---------------------------------------------------------------------------------------------

function machineInfo() {
  const run = (cmd, args) => {
    try {
      return execFileSync(cmd, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return undefined;
    }
  };
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  const version = (pkg) => {
    try {
      return JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
    } catch {
      return '?';
    }
  };
  const dirty = run('git', ['status', '--porcelain', '--untracked-files=no']);
  return {
    date: new Date().toISOString(),
    node: process.version,
    nproc: run('nproc', []) ?? String(cpus().length),
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? 'unknown',
    kernel: release(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadAverage: loadavg().map((l) => l.toFixed(2)).join(' '),
    executionCommit: EXECUTION_COMMIT,
    commit: (run('git', ['rev-parse', '--short', 'HEAD']) ?? 'unknown') + (dirty ? ' (with uncommitted changes)' : ''),
    versions: {
      autocannon: version('autocannon'),
      'mcp-proxy': version('mcp-proxy'),
      '@modelcontextprotocol/server-everything': version('@modelcontextprotocol/server-everything'),
      '@modelcontextprotocol/server': version('@modelcontextprotocol/server'),
    },
  };
}

/** One request of `t` sent with fetch; throws unless it is a 2xx that `t.verify` accepts. */
async function checkTarget(t) {
  const response = await fetch(t.url, { method: 'POST', headers: t.headers, body: t.body, signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  if (!response.ok || !t.verify(text)) throw new Error(`${t.name}: unexpected answer ${response.status}: ${text.slice(0, 1000)}`);
  log(`${t.name} answers ${response.status} ${response.headers.get('content-type')}, ${text.length} bytes`);
  return text;
}

/** Execution counts per source name from GET /api/v1/executions/stats?groupBy=source. */
async function executionCounts(baseUrl, key) {
  const { status, json, text } = await api(baseUrl, key, 'GET', '/api/v1/executions/stats?groupBy=source');
  if (status !== 200) throw new Error(`GET /api/v1/executions/stats answered ${status}: ${text.slice(0, 500)}`);
  return Object.fromEntries(json.groups.map((g) => [g.sourceName ?? '(none)', { count: g.count, byStatus: g.countsByStatus }]));
}

/** Execution records are written in batches: waits until the counts stop changing (at most 15 s). */
async function settledExecutionCounts(baseUrl, key) {
  let previous = JSON.stringify(await executionCounts(baseUrl, key));
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    await sleep(1000);
    const now = await executionCounts(baseUrl, key);
    if (JSON.stringify(now) === previous) return now;
    previous = JSON.stringify(now);
  }
  return JSON.parse(previous);
}

async function main() {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" first (npm run bench does)`);
  for (const file of [ECHO_FIXTURE, EVERYTHING, MCP_PROXY]) if (!existsSync(file)) throw new Error(`${file} is missing (npm install?)`);
  const machine = machineInfo();
  log(`node ${machine.node}, ${machine.nproc} cores (${machine.cpuModel}); ${SECONDS} s per measurement, connections ${CONNECTIONS.join('/')}`);

  const baseEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
  // Every Toolplane of the run records calls the same way.
  const toolplaneEnv = { ...baseEnv, TOOLPLANE_EXECUTION_COMMIT: EXECUTION_COMMIT };
  dataDir = mkdtempSync(join(tmpdir(), 'toolplane-bench-'));

  // --- upstreams -------------------------------------------------------------------------------
  const echoArgs = { message: 'hello' };
  const echoCall = legacyToolsCall('echo', echoArgs);
  const targets = {};
  const upstreamProcesses = [];

  if (WORKLOADS.includes('http-echo')) {
    const port = await freePort();
    const echo = startProcess('http-echo', process.execPath, [ECHO_FIXTURE, '--port', String(port)], { env: baseEnv, cwd: ROOT });
    upstreamProcesses.push(echo);
    const verifyEcho = (body) => body.includes('"text":"hello"') && body.includes('"result"');
    // A stateless 2025-era client: tools/call with no initialize (the fixture serves it statelessly).
    targets.echoDirect = target(`direct ${LEGACY_VERSION}`, `http://127.0.0.1:${port}/mcp`, LEGACY_HEADERS, echoCall, verifyEcho);
    // What Toolplane itself sends to this server, which it speaks 2026-07-28 with: the same request
    // with the per-request `_meta` envelope and the Mcp-Method/Mcp-Name headers.
    targets.echoDirectModern = target(
      `direct ${MODERN_VERSION}`,
      targets.echoDirect.url,
      modernHeaders('tools/call', 'echo'),
      modernToolsCall('echo', echoArgs),
      verifyEcho,
    );
    for (const t of [targets.echoDirect, targets.echoDirectModern]) {
      t.pid = echo.pid;
      t.upstreamPid = echo.pid;
    }
    await waitForHttp(echo, targets.echoDirect.url, {
      init: { method: 'POST', headers: targets.echoDirect.headers, body: targets.echoDirect.body },
    });
    log(`http-echo on ${targets.echoDirect.url}`);
  }

  const stdioWanted = WORKLOADS.includes('stdio-everything') || WORKLOADS.includes('stdio-lifecycles');
  if (stdioWanted) {
    const port = await freePort();
    const proxy = startProcess(
      'mcp-proxy',
      process.execPath,
      [MCP_PROXY, '--port', String(port), '--host', '127.0.0.1', '--server', 'stream', '--stateless', '--no-eventStore', '--', process.execPath, EVERYTHING, 'stdio'],
      { env: baseEnv, cwd: ROOT },
    );
    targets.everythingProxy = target('mcp-proxy', `http://127.0.0.1:${port}/mcp`, LEGACY_HEADERS, echoCall, (body) =>
      body.includes('Echo: hello') && body.includes('"result"'),
    );
    targets.everythingProxy.pid = proxy.pid;
    upstreamProcesses.push(proxy);
    await waitForHttp(proxy, targets.everythingProxy.url, {
      init: { method: 'POST', headers: targets.everythingProxy.headers, body: targets.everythingProxy.body },
    });
    log(`mcp-proxy (stateless streamable HTTP) on ${targets.everythingProxy.url}`);
  }

  // --- Toolplane -------------------------------------------------------------------------------
  const port = await freePort();
  const adminKey = randomBytes(24).toString('base64url').slice(0, 32);
  scratchDir = mkdtempSync(join(tmpdir(), 'toolplane-bench-scratch-'));
  const heapFile = join(scratchDir, 'heap.json');
  // The heap probe only listens for SIGUSR2 (a full GC, then process.memoryUsage() to heapFile).
  const nodeArgs = ['--expose-gc', '--import', HEAP_PROBE];
  if (CPU_PROF_DIR) {
    mkdirSync(CPU_PROF_DIR, { recursive: true });
    nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`);
  }
  const started = performance.now();
  const toolplane = startProcess('toolplane', process.execPath, [...nodeArgs, MAIN], {
    cwd: ROOT,
    env: {
      ...toolplaneEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      TOOLPLANE_DATA_DIR: dataDir,
      TOOLPLANE_ADMIN_KEY: adminKey,
      LOG_LEVEL: 'warn',
      TOOLPLANE_REFRESH_TICK_MS: '3600000',
      BENCH_HEAP_FILE: heapFile,
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const processes = [toolplane, ...upstreamProcesses];
  const extraProcesses = [];
  // The "Toolplane ready on …" line is an info log, silenced by LOG_LEVEL=warn: readiness is polled.
  await waitForHttp(toolplane, `${baseUrl}/health/ready`, { timeoutMs: 90_000 });
  const startupMs = Math.round(performance.now() - started);
  log(`Toolplane on ${baseUrl} (pid ${toolplane.pid}), ready in ${startupMs} ms`);

  const auth = { authorization: `Bearer ${adminKey}` };
  const invokeBody = { arguments: echoArgs };
  const tpVerify = (text) => (body) => body.includes('"status":"succeeded"') && body.includes(text);
  // A /mcp answer: the result (not a JSON-RPC error, not isError) holding the echo, as the upstream sent it.
  const mcpVerify = (text) => (body) => body.includes('"result"') && body.includes(text) && !body.includes('"isError":true');
  /** The two /mcp targets calling `toolName`: a 2026-07-28 `tools/call` and a stateless 2025-era one. */
  const mcpTargets = (toolName, text) => [
    target(`Toolplane /mcp ${MODERN_VERSION}`, `${baseUrl}/mcp`, { ...auth, ...modernHeaders('tools/call', toolName) }, modernToolsCall(toolName, echoArgs), mcpVerify(text)),
    target('Toolplane /mcp 2025-era', `${baseUrl}/mcp`, { ...auth, ...LEGACY_HEADERS }, legacyToolsCall(toolName, echoArgs), mcpVerify(text)),
  ];

  if (targets.echoDirect) {
    const { status, text } = await api(baseUrl, adminKey, 'POST', '/api/v1/sources', {
      name: 'http-echo',
      transport: 'streamable-http',
      url: targets.echoDirect.url,
      maxConcurrency: 256,
      refreshIntervalSeconds: 0,
    });
    if (status >= 300) throw new Error(`registering http-echo answered ${status}: ${text.slice(0, 1000)}`);
    targets.echoToolplane = target('Toolplane REST', `${baseUrl}/api/v1/tools/http-echo__echo/invoke`, auth, invokeBody, tpVerify('"text":"hello"'));
    [targets.echoMcpModern, targets.echoMcpLegacy] = mcpTargets('http-echo__echo', '"text":"hello"');
  }
  if (targets.everythingProxy) {
    const { status, text } = await api(baseUrl, adminKey, 'POST', '/api/v1/sources', {
      name: 'everything',
      transport: 'stdio',
      lifecycle: 'singleton',
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
      maxConcurrency: 256,
      refreshIntervalSeconds: 0,
    });
    if (status >= 300) throw new Error(`registering everything answered ${status}: ${text.slice(0, 1000)}`);
    targets.everythingToolplane = target(
      'Toolplane REST',
      `${baseUrl}/api/v1/tools/everything__echo/invoke`,
      auth,
      invokeBody,
      tpVerify('Echo: hello'),
    );
    [targets.everythingMcpModern, targets.everythingMcpLegacy] = mcpTargets('everything__echo', 'Echo: hello');
  }
  if (targets.everythingProxy && WORKLOADS.includes('stdio-lifecycles')) {
    const { status, text } = await api(baseUrl, adminKey, 'POST', '/api/v1/sources', {
      name: 'everything-transient',
      transport: 'stdio',
      lifecycle: 'transient',
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
      maxConcurrency: 256,
      refreshIntervalSeconds: 0,
    });
    if (status >= 300) throw new Error(`registering everything-transient answered ${status}: ${text.slice(0, 1000)}`);
    targets.everythingTransient = target('Toolplane REST transient, sandboxed', `${baseUrl}/api/v1/tools/everything-transient__echo/invoke`, auth, invokeBody, tpVerify('Echo: hello'));
    // The same singleton source in a Toolplane without the sandbox (its own embedded PostgreSQL).
    const plainPort = await freePort();
    unsandboxedDir = mkdtempSync(join(tmpdir(), 'toolplane-bench-plain-'));
    const plain = startProcess('toolplane-unsandboxed', process.execPath, [MAIN], {
      cwd: ROOT,
      env: { ...toolplaneEnv, PORT: String(plainPort), HOST: '127.0.0.1', TOOLPLANE_DATA_DIR: unsandboxedDir, TOOLPLANE_ADMIN_KEY: adminKey, TOOLPLANE_SANDBOX: 'off', LOG_LEVEL: 'warn', TOOLPLANE_REFRESH_TICK_MS: '3600000' },
    });
    extraProcesses.push(plain);
    const plainUrl = `http://127.0.0.1:${plainPort}`;
    await waitForHttp(plain, `${plainUrl}/health/ready`, { timeoutMs: 90_000 });
    const registered = await api(plainUrl, adminKey, 'POST', '/api/v1/sources', {
      name: 'everything',
      transport: 'stdio',
      lifecycle: 'singleton',
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
      maxConcurrency: 256,
      refreshIntervalSeconds: 0,
    });
    if (registered.status >= 300) throw new Error(`registering everything (unsandboxed) answered ${registered.status}: ${registered.text.slice(0, 1000)}`);
    targets.everythingUnsandboxed = target('Toolplane REST singleton, unsandboxed', `${plainUrl}/api/v1/tools/everything__echo/invoke`, auth, invokeBody, tpVerify('Echo: hello'));
    targets.everythingUnsandboxed.pid = plain.pid;
    targets.everythingUnsandboxed.toolplane = true;
  }
  for (const t of Object.values(targets)) t.pid ??= toolplane.pid;
  for (const t of [targets.echoToolplane, targets.echoMcpModern, targets.echoMcpLegacy]) if (t) t.upstreamPid = targets.echoDirect.pid;

  // Every target answers the real result before any load.
  const toolplaneCalls = { answered: 0, sent: 0 };
  for (const t of Object.values(targets)) {
    await checkTarget(t);
    if (t.pid === toolplane.pid) {
      toolplaneCalls.answered++;
      toolplaneCalls.sent++;
    }
  }
  toolplane.rememberGroups();
  // The stdio upstreams run once the first call (or the discovery) started them.
  if (targets.everythingToolplane) {
    const upstreamPid = findDescendant(toolplane.pid, EVERYTHING);
    for (const t of [targets.everythingToolplane, targets.everythingMcpModern, targets.everythingMcpLegacy]) t.upstreamPid = upstreamPid;
    targets.everythingProxy.upstreamPid = findDescendant(targets.everythingProxy.pid, EVERYTHING);
  }
  if (targets.everythingUnsandboxed) {
    targets.everythingUnsandboxed.upstreamPid = findDescendant(targets.everythingUnsandboxed.pid, EVERYTHING);
    // The sandboxed singleton under a name of its own in this comparison.
    targets.everythingLifecycleSingleton = { ...targets.everythingToolplane, name: 'Toolplane REST singleton, sandboxed' };
  }
  const executionsBefore = await executionCounts(baseUrl, adminKey);

  ensureAlive(processes);
  // What Toolplane burns with nothing to do (timers, pools): it weighs on every call at low rates.
  await sleep(1000);
  const idleBefore = { cpu: cpuSeconds(toolplane.pid), pg: postgresCpuSeconds(toolplane.pid), at: performance.now() };
  await sleep(IDLE_SECONDS * 1000);
  const idleSeconds = (performance.now() - idleBefore.at) / 1000;
  const idle = {
    seconds: idleSeconds,
    toolplaneCores: (cpuSeconds(toolplane.pid) - idleBefore.cpu) / idleSeconds,
    postgresCores: (postgresCpuSeconds(toolplane.pid) - idleBefore.pg) / idleSeconds,
  };
  log(`idle: Toolplane ${(idle.toolplaneCores * 100).toFixed(1)}% of a core, PostgreSQL ${(idle.postgresCores * 100).toFixed(1)}%`);

  // --- load ------------------------------------------------------------------------------------
  const runs = [];
  const isToolplane = (t) => t.pid === toolplane.pid;

  /** One load window, with Toolplane's (and its PostgreSQL's) or the proxy's CPU time around it. */
  async function measure(t, connections, seconds, extra = {}) {
    ensureAlive([...processes, ...extraProcesses]);
    let before;
    const probe = () => ({
      cpu: cpuSeconds(t.pid),
      sys: systemCpuSeconds(t.pid),
      upstream: t.upstreamPid ? cpuSeconds(t.upstreamPid) : NaN,
      pg: isToolplane(t) || t.toolplane ? postgresCpuSeconds(t.pid) : NaN,
      own: ownCpuSeconds(),
      loader: loadGeneratorCpuSeconds(),
      busy: machineBusySeconds(),
    });
    const result = await load(t, {
      connections,
      seconds,
      ...extra,
      onStart: () => (before = probe()),
      onEnd: () => probe(),
    });
    if (isToolplane(t)) {
      toolplaneCalls.answered += result.completed;
      toolplaneCalls.sent += result.sent;
    }
    ensureAlive(processes);
    result.cpuS = result.end.cpu - before.cpu;
    result.sysCpuS = result.end.sys - before.sys;
    result.pgCpuS = result.end.pg - before.pg;
    result.upstreamCpuS = result.end.upstream - before.upstream;
    result.loaderCpuS = result.end.loader - before.loader;
    result.busyCpuS = result.end.busy - before.busy;
    // CPU the rest of the machine used meanwhile (other users' work disturbs the numbers).
    result.otherCpuS = Math.max(0, result.end.busy - before.busy - (result.end.own - before.own));
    return result;
  }

  // Per workload: the baselines (the first one is the reference of the goals) and Toolplane.
  const groups = [];
  if (targets.echoDirect) {
    groups.push({
      workload: 'http-echo',
      baselines: [targets.echoDirect, targets.echoDirectModern],
      toolplanes: [targets.echoToolplane, targets.echoMcpModern, targets.echoMcpLegacy],
    });
  }
  if (targets.everythingProxy && WORKLOADS.includes('stdio-everything')) {
    groups.push({
      workload: 'stdio-everything',
      baselines: [targets.everythingProxy],
      toolplanes: [targets.everythingToolplane, targets.everythingMcpModern, targets.everythingMcpLegacy],
    });
  }
  if (targets.everythingTransient) {
    groups.push({
      workload: 'stdio-lifecycles',
      baselines: [targets.everythingProxy],
      toolplanes: [targets.everythingLifecycleSingleton, targets.everythingTransient, targets.everythingUnsandboxed],
      connections: LIFECYCLE_CONNECTIONS,
    });
  }

  for (const group of groups) {
    for (const t of [...group.baselines, ...group.toolplanes]) {
      log(`${group.workload}: first warm-up of ${t.name} (${FIRST_WARMUP_SECONDS} s, 16 connections)`);
      await measure(t, 16, FIRST_WARMUP_SECONDS);
    }
  }

  for (const group of groups) {
    for (const connections of group.connections ?? CONNECTIONS) {
      // Two halves, in order A B … then … B A, so drift during the group weighs on every target alike.
      const order = [...group.baselines, ...group.toolplanes];
      const halves = new Map(order.map((t) => [t, []]));
      for (const t of [...order, ...[...order].reverse()]) {
        if (WARMUP_SECONDS > 0) await measure(t, connections, WARMUP_SECONDS);
        const result = await measure(t, connections, SECONDS / 2);
        halves.get(t).push(result);
        log(
          `${group.workload} c=${connections} ${t.name}: ${Math.round(result.ok / result.elapsedS)} req/s, ` +
            `p50 ${quantile(result.latencies, 0.5).toFixed(2)} ms, errors ${result.errors}`,
        );
      }
      for (const t of order) {
        runs.push(combine(group.workload, group.toolplanes.includes(t) ? 'toolplane' : 'baseline', t, connections, halves.get(t)));
      }
    }
  }

  // --- memory ----------------------------------------------------------------------------------
  /** `MEMORY_CALLS` calls of `t` with Toolplane's RSS along the way and its heap (after a GC) around them. */
  async function memoryRun(t) {
    // A warm-up with this target first, so the RSS before is that of this load, not of the previous one or the last forced GC.
    await measure(t, MEMORY_CONNECTIONS, FIRST_WARMUP_SECONDS);
    const live = await fetch(`${baseUrl}/health/live`);
    const liveBefore = live.status;
    await live.arrayBuffer();
    await sleep(1000);
    // RSS as the previous load left it, then the heap after a full GC (which may shrink the RSS).
    const rssBefore = rssBytes(toolplane.pid);
    const heapBefore = await heapAfterGc(toolplane.pid, heapFile);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      const rss = rssBytes(toolplane.pid);
      if (rss > rssPeak) rssPeak = rss;
    }, 200);
    // RSS at every tenth of the calls: a plateau is warm-up, a steady climb is a leak.
    const milestones = [];
    const step = Math.max(1, Math.floor(MEMORY_CALLS / 10));
    log(`memory: ${MEMORY_CALLS} calls of ${t.name} with ${MEMORY_CONNECTIONS} connections (bounded at ${MEMORY_BOUND_SECONDS} s)`);
    let result;
    try {
      result = await measure(t, MEMORY_CONNECTIONS, MEMORY_BOUND_SECONDS, {
        amount: MEMORY_CALLS,
        onResponse: (count) => {
          if (count % step === 0) milestones.push({ calls: count, rss: rssBytes(toolplane.pid) });
        },
      });
    } finally {
      clearInterval(sampler);
    }
    const rssAfter = rssBytes(toolplane.pid);
    await sleep(5000);
    const rssSettled = rssBytes(toolplane.pid);
    const heapAfter = await heapAfterGc(toolplane.pid, heapFile);
    const liveAfter = await fetch(`${baseUrl}/health/live`);
    await liveAfter.arrayBuffer();
    log(
      `memory (${t.name}): RSS ${mb(rssBefore)} -> ${mb(rssAfter)} MB (${mb(rssSettled)} MB 5 s later, peak ${mb(rssPeak)} MB); ` +
        `heap after GC ${mb(heapBefore.heapUsed)} -> ${mb(heapAfter.heapUsed)} MB`,
    );
    return {
      target: t.name,
      requested: MEMORY_CALLS,
      calls: result.completed,
      ok: result.ok,
      errors: result.errors,
      seconds: result.elapsedS,
      stoppedEarly: result.stoppedEarly,
      cpuUsPerCall: (result.cpuS / Math.max(1, result.completed)) * 1e6,
      otherCores: result.otherCpuS / result.elapsedS,
      rssBefore,
      rssAfter,
      rssSettled,
      rssPeak,
      heapBefore,
      heapAfter,
      milestones,
      liveBefore,
      liveAfter: liveAfter.status,
    };
  }

  const memory = [];
  if (MEMORY_CALLS > 0 && targets.echoToolplane) {
    for (const t of [targets.echoToolplane, targets.echoMcpModern]) memory.push(await memoryRun(t));
  }

  // --- execution records -----------------------------------------------------------------------
  const executionsAfter = await settledExecutionCounts(baseUrl, adminKey);
  const executions = {};
  for (const name of new Set([...Object.keys(executionsBefore), ...Object.keys(executionsAfter)])) {
    const before = executionsBefore[name] ?? { count: 0, byStatus: {} };
    const after = executionsAfter[name] ?? { count: 0, byStatus: {} };
    const byStatus = {};
    for (const status of new Set([...Object.keys(before.byStatus), ...Object.keys(after.byStatus)])) {
      const n = (after.byStatus[status] ?? 0) - (before.byStatus[status] ?? 0);
      if (n !== 0) byStatus[status] = n;
    }
    executions[name] = { count: after.count - before.count, byStatus };
  }

  // Toolplane's own view of each Toolplane row: the duration it records per execution (resolve →
  // invoke → classify; not the HTTP layer nor the write of the record itself), over each measured
  // half (only that target ran then: the stats cannot tell REST from MCP calls apart otherwise).
  for (const run of runs.filter((r) => r.side === 'toolplane')) {
    const sourceName = run.workload === 'http-echo' ? 'http-echo' : 'everything';
    const halves = [];
    for (const half of run.halves) {
      const query = `since=${new Date(half.since).toISOString()}&until=${new Date(half.until + 1).toISOString()}`;
      const { status, json } = await api(baseUrl, adminKey, 'GET', `/api/v1/executions/stats?groupBy=source&${query}`);
      const group = status === 200 ? json.groups.find((g) => g.sourceName === sourceName) : undefined;
      if (group) halves.push(group);
    }
    if (halves.length > 0) run.recorded = recordedOfHalves(halves);
  }

  const catalog = WORKLOADS.includes('catalog')
    ? await catalogWorkload(baseUrl, auth, toolplane.pid, (method, path, body) => api(baseUrl, adminKey, method, path, body))
    : undefined;

  const refresh = WORKLOADS.includes('refresh')
    ? await refreshWorkload({
        api: (method, path, body) => api(baseUrl, adminKey, method, path, body),
        dir: join(scratchDir, 'inventories'),
        fixture: INVENTORY_FIXTURE,
        sourceCount: CATALOG.sources,
        toolsPerSource: CATALOG.toolsPerSource,
        withCpu: (unitsOf, run) => withCpu(toolplane.pid, unitsOf, run),
      })
    : undefined;
  for (const row of refresh?.rows ?? []) log(`refresh ×${row.concurrency} ${row.target}: ${row.sources} sources in ${row.seconds.toFixed(1)} s, p50 ${row.p50.toFixed(0)} ms`);
  const replicas = WORKLOADS.includes('replicas')
    ? await replicasWorkload({ root: ROOT, main: MAIN, echoUrl: targets.echoDirect.url, connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, executionCommit: EXECUTION_COMMIT, log })
    : undefined;

  const report = renderReport({
    machine,
    settings: { seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, firstWarmupSeconds: FIRST_WARMUP_SECONDS, connections: CONNECTIONS },
    startupMs,
    idle,
    runs,
    memory,
    catalog,
    refresh,
    replicas,
    executions: { created: executions, toolplaneCalls },
    cpuProfile: Boolean(CPU_PROF_DIR),
  });
  process.stdout.write(report);
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, report);
  log(`written to ${OUT}`);
  return report;
}

/** Fails the run, with its last output, when one of the benchmark's processes has exited. */
function ensureAlive(handles) {
  for (const handle of handles) {
    const { exitCode, signalCode } = handle.child;
    if (exitCode !== null || signalCode !== null) {
      throw new Error(`${handle.name} exited (code ${exitCode}, signal ${signalCode}) during the benchmark; its last output:\n${handle.output().slice(-4000)}`);
    }
  }
}

/** The recorded durations of the two halves of a row as one: their count-weighted mean p50 and p95. */
function recordedOfHalves(groups) {
  const count = groups.reduce((n, g) => n + g.count, 0);
  const weighted = (key) => groups.reduce((sum, g) => sum + g[key] * g.count, 0) / Math.max(1, count);
  return { count, p50: weighted('p50DurationMs'), p95: weighted('p95DurationMs') };
}

/**
 * `measure()`, with the CPU that Toolplane and its PostgreSQL spent meanwhile, per unit of work
 * (`unitsOf(result)`: requests or whole listings), in ms.
 */
async function withCpu(toolplanePid, unitsOf, measure) {
  const before = { toolplane: cpuSeconds(toolplanePid), postgres: postgresCpuSeconds(toolplanePid) };
  const result = await measure();
  const units = Math.max(1, unitsOf(result));
  result.toolplaneCpuMs = ((cpuSeconds(toolplanePid) - before.toolplane) * 1000) / units;
  result.postgresCpuMs = ((postgresCpuSeconds(toolplanePid) - before.postgres) * 1000) / units;
  return result;
}

/**
 * The catalog workload: registers CATALOG.sources × CATALOG.toolsPerSource tools, then times REST
 * searches (one at a time, then CATALOG.searchConnections at once), the whole MCP `tools/list` of
 * `/mcp` in both eras and the whole REST catalog in format=openai.
 */
async function catalogWorkload(baseUrl, headers, toolplanePid, api) {
  const dir = join(scratchDir, 'inventories');
  mkdirSync(dir, { recursive: true });
  // Sandboxed plugins run as another user, which must reach the inventories.
  chmodSync(scratchDir, 0o755);
  chmodSync(dir, 0o755);
  log(`catalog: registering ${CATALOG.sources} sources of ${CATALOG.toolsPerSource} tools`);
  const registration = await registerCatalogSources({
    api,
    dir,
    fixture: INVENTORY_FIXTURE,
    sourceCount: CATALOG.sources,
    toolsPerSource: CATALOG.toolsPerSource,
  });
  log(`catalog: ${registration.tools} tools registered in ${registration.seconds.toFixed(1)} s`);
  const listMcp = (era) => () => listAllMcpTools({ baseUrl, headers, era });
  const perRequest = (result) => result.count;
  const perListing = (result) => result.repetitions;
  // The first listing after the registrations, which may rebuild Toolplane's MCP catalog snapshot.
  const firstMcpList = await listMcp(MODERN_VERSION)();
  // Warm-up: every query once, every listing once.
  await measureSearchSequential({ baseUrl, headers, queries: CATALOG_QUERIES, rounds: 1 });
  await listMcp(LEGACY_VERSION)();

  const search = await withCpu(toolplanePid, perRequest, () =>
    measureSearchSequential({ baseUrl, headers, queries: CATALOG_QUERIES, rounds: CATALOG.searchRounds }),
  );
  log(`catalog: search p50 ${search.p50.toFixed(2)} ms, p95 ${search.p95.toFixed(2)} ms over ${search.count} searches`);
  // The same request without a search (one tool): what every catalog answer pays besides the search.
  const unsearched = await withCpu(toolplanePid, perRequest, () =>
    measureRequests({ url: `${baseUrl}/api/v1/tools?limit=1`, headers, count: CATALOG_QUERIES.length * 2 }),
  );
  const concurrentSearch = await withCpu(toolplanePid, perRequest, () =>
    measureSearchConcurrent({ baseUrl, headers, queries: CATALOG_QUERIES, connections: CATALOG.searchConnections, seconds: CATALOG.concurrentSearchSeconds }),
  );
  log(`catalog: search at ${concurrentSearch.connections} connections: ${Math.round(concurrentSearch.rps)}/s, p50 ${concurrentSearch.p50.toFixed(2)} ms`);

  const lists = {};
  for (const era of [MODERN_VERSION, LEGACY_VERSION]) {
    lists[`/mcp tools/list ${era}`] = await withCpu(toolplanePid, perListing, () => repeatListing(CATALOG.listRepetitions, listMcp(era)));
  }
  lists['REST format=openai, 500 a page'] = await withCpu(toolplanePid, perListing, () =>
    repeatListing(CATALOG.listRepetitions, () => listAllRestTools({ baseUrl, headers, format: 'openai' })),
  );
  for (const [name, l] of Object.entries(lists)) log(`catalog: ${name}: ${l.tools} tools in ${l.pages} pages, p50 ${l.p50.toFixed(1)} ms`);
  return { registration, firstMcpList, search, unsearched, concurrentSearch, lists, settings: CATALOG };
}

function mb(bytes) {
  return (bytes / 2 ** 20).toFixed(1);
}

/** The two measured halves of one (workload, target, connections) as one result. */
function combine(workload, side, t, connections, halves) {
  const latencies = mergeSorted(halves.map((h) => h.latencies));
  const sum = (key) => halves.reduce((n, h) => n + h[key], 0);
  const completed = sum('completed');
  const elapsedS = sum('elapsedS');
  return {
    workload,
    side,
    target: t.name,
    halves: halves.map((h) => ({ since: h.startedAtMs, until: h.endedAtMs })),
    connections,
    seconds: elapsedS,
    completed,
    ok: sum('ok'),
    rps: sum('ok') / elapsedS,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors: sum('errors'),
    non2xx: sum('non2xx'),
    mismatches: sum('mismatches'),
    connectionErrors: sum('connectionErrors'),
    statusCodes: halves.reduce((acc, h) => {
      for (const [code, n] of Object.entries(h.statusCodes)) acc[code] = (acc[code] ?? 0) + n;
      return acc;
    }, {}),
    cpuUsPerCall: (sum('cpuS') / Math.max(1, completed)) * 1e6,
    systemShare: sum('sysCpuS') / sum('cpuS'),
    otherCores: sum('otherCpuS') / elapsedS,
    upstreamCpuUsPerCall: (sum('upstreamCpuS') / Math.max(1, completed)) * 1e6,
    pgCpuUsPerCall: (sum('pgCpuS') / Math.max(1, completed)) * 1e6,
    loaderCpuUsPerCall: (sum('loaderCpuS') / Math.max(1, completed)) * 1e6,
    busyCores: sum('busyCpuS') / elapsedS,
  };
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  exitCode = 1;
  log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  log('stopping every process that was started');
  await cleanup();
  clearTimeout(watchdog);
}
process.exit(exitCode);
