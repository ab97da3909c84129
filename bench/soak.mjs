// `npm run soak`: Toolplane under a moderate, steady, mixed load for SOAK_MINUTES (default 10),
// sampling what would leak — heap after a full GC, open file descriptors, plugin processes,
// sandboxes, PostgreSQL connections, RSS — and judging each for a growth trend. See
// docs/performance.md ("Soak"). Loopback only; everything started is stopped at the end.
//
// Settings (environment):
//   SOAK_MINUTES         how long the load runs, default 10
//   SOAK_SAMPLE_SECONDS  seconds between samples, default 15
//   SOAK_RATE            calls per second of each steady target, default 100
//   SOAK_OUT             the markdown file to write, default bench/results/soak.md
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { setTimeout, clearTimeout } from 'node:timers';
import autocannon from 'autocannon';
import { descendants, freePort, heapAfterGc, killAllNow, rssBytes, startProcess, stopAll, waitForHttp } from './lib/processes.mjs';
import { apiOk } from './lib/api.mjs';
import { modernHeaders, modernToolsCall } from './lib/mcp-requests.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MAIN = join(ROOT, 'dist/src/main.js');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const ECHO_FIXTURE = join(ROOT, 'test/fixtures/http-echo-server.mjs');
const HEAP_PROBE = join(ROOT, 'bench/lib/heap-probe.mjs');

const MINUTES = Number(process.env.SOAK_MINUTES || 10);
const SAMPLE_SECONDS = Number(process.env.SOAK_SAMPLE_SECONDS || 15);
const RATE = Number(process.env.SOAK_RATE || 100);
const OUT = resolve(process.env.SOAK_OUT || join(ROOT, 'bench/results/soak.md'));
const log = (message) => process.stderr.write(`[soak] ${message}\n`);

const watchdog = setTimeout(() => {
  log('watchdog: stopping everything');
  killAllNow();
  process.exit(3);
}, (MINUTES * 60 + 600) * 1000);
process.on('exit', () => killAllNow());

/** A steady load of `rate` calls per second until `stop()`; counts answers by status. */
function steadyLoad(name, { url, headers, body, rate, connections }) {
  const counts = { ok: 0, other: 0 };
  const instance = autocannon({ url, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), connections, overallRate: rate, duration: MINUTES * 60 + 60, timeout: 30 });
  instance.on('response', (_client, status) => (status >= 200 && status < 300 ? counts.ok++ : counts.other++));
  const done = instance.then((result) => ({ name, ...counts, errors: result.errors, timeouts: result.timeouts }));
  return { counts, stop: () => (instance.stop(), done) };
}

function openFds(pid) {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return NaN;
  }
}

function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** What is running under Toolplane: plugin processes, sandboxes, PostgreSQL client connections. */
function processCensus(pid) {
  let plugins = 0;
  let sandboxes = 0;
  let pgConnections = 0;
  for (const p of descendants(pid)) {
    const cmd = commandLine(p.pid);
    if (p.comm === 'bwrap') sandboxes++;
    else if (cmd.includes(EVERYTHING)) plugins++;
    // A PostgreSQL backend serving a client names it in its title: "postgres: user db 127.0.0.1(port) …",
    // or "postgres: user db [local] …" over the cluster's Unix socket.
    else if (p.comm === 'postgres' && /postgres: \S+ \S+ (?:\S+\(\d+\)|\[local\])/.test(cmd)) pgConnections++;
  }
  return { plugins, sandboxes, pgConnections };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolplane-soak-'));
  // As root the embedded PostgreSQL runs as another user, which must reach its directory.
  chmodSync(dataDir, 0o755);
  const heapFile = join(dataDir, 'heap.json');
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
  const echoPort = await freePort();
  const echo = startProcess('http-echo', process.execPath, [ECHO_FIXTURE, '--port', String(echoPort)], { env, cwd: ROOT });
  const echoUrl = `http://127.0.0.1:${echoPort}/mcp`;
  const port = await freePort();
  const adminKey = randomBytes(24).toString('base64url');
  const toolplane = startProcess('toolplane', process.execPath, ['--expose-gc', '--import', HEAP_PROBE, MAIN], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', TOOLPLANE_DATA_DIR: join(dataDir, 'data'), TOOLPLANE_ADMIN_KEY: adminKey, LOG_LEVEL: 'warn', BENCH_HEAP_FILE: heapFile },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(toolplane, `${baseUrl}/health/ready`, { timeoutMs: 90_000 });
    await waitForHttp(echo, echoUrl, { init: { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' } }).catch(() => undefined);
    await apiOk(baseUrl, adminKey, 'POST', '/api/v1/sources', { name: 'everything', transport: 'stdio', lifecycle: 'singleton', command: process.execPath, args: [EVERYTHING, 'stdio'], maxConcurrency: 64 });
    await apiOk(baseUrl, adminKey, 'POST', '/api/v1/sources', { name: 'transient', transport: 'stdio', lifecycle: 'transient', command: process.execPath, args: [EVERYTHING, 'stdio'] });
    await apiOk(baseUrl, adminKey, 'POST', '/api/v1/sources', { name: 'http-echo', transport: 'streamable-http', url: echoUrl, maxConcurrency: 64 });
    const auth = { authorization: `Bearer ${adminKey}` };
    const echoArgs = { message: 'soak' };
    const loads = [
      steadyLoad('REST stdio singleton', { url: `${baseUrl}/api/v1/tools/everything__echo/invoke`, headers: auth, body: { arguments: echoArgs }, rate: RATE, connections: 8 }),
      steadyLoad('/mcp 2026-07-28 HTTP', { url: `${baseUrl}/mcp`, headers: { ...auth, ...modernHeaders('tools/call', 'http-echo__echo') }, body: modernToolsCall('http-echo__echo', echoArgs), rate: RATE, connections: 8 }),
      // A plugin process started and stopped for every call, in its sandbox.
      steadyLoad('REST stdio transient', { url: `${baseUrl}/api/v1/tools/transient__echo/invoke`, headers: auth, body: { arguments: echoArgs }, rate: 2, connections: 2 }),
    ];
    log(`load running for ${MINUTES} min: ${RATE}/s REST stdio, ${RATE}/s /mcp HTTP, 2/s transient stdio; a sample every ${SAMPLE_SECONDS} s`);

    const samples = [];
    const started = Date.now();
    while (Date.now() - started < MINUTES * 60_000) {
      await sleep(SAMPLE_SECONDS * 1000);
      const heap = await heapAfterGc(toolplane.pid, heapFile);
      const sample = {
        minute: (Date.now() - started) / 60_000,
        heapMB: heap.heapUsed / 2 ** 20,
        rssMB: rssBytes(toolplane.pid) / 2 ** 20,
        fds: openFds(toolplane.pid),
        ...processCensus(toolplane.pid),
        calls: loads.reduce((n, l) => n + l.counts.ok, 0),
        failed: loads.reduce((n, l) => n + l.counts.other, 0),
      };
      samples.push(sample);
      log(`${sample.minute.toFixed(1)} min: heap ${sample.heapMB.toFixed(1)} MB, RSS ${sample.rssMB.toFixed(0)} MB, fds ${sample.fds}, plugins ${sample.plugins}, sandboxes ${sample.sandboxes}, pg ${sample.pgConnections}, calls ${sample.calls} (${sample.failed} not 2xx)`);
    }
    const results = [];
    for (const l of loads) results.push(await l.stop());
    await sleep(3000);
    const after = { ...processCensus(toolplane.pid), fds: openFds(toolplane.pid), heapMB: (await heapAfterGc(toolplane.pid, heapFile)).heapUsed / 2 ** 20 };
    writeReport(samples, results, after);
  } finally {
    await stopAll(20_000);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Growth of one measure between the middle and the last third of the run (the first third is
 * warm-up: caches, pools, JIT). Counts sampled at an instant (plugin processes while a transient
 * call runs, connections while a batch commits) swing between bounds: a leak shows as the bounds
 * and the mean rising together, so both must rise beyond the tolerance to count as growth.
 */
function judge(samples, key, tolerance) {
  const third = Math.floor(samples.length / 3);
  const middle = samples.slice(third, 2 * third).map((s) => s[key]);
  const last = samples.slice(2 * third).map((s) => s[key]);
  const mean = (values) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  const maxGrowth = Math.max(...last) - Math.max(...middle);
  const meanGrowth = mean(last) - mean(middle);
  const growing = maxGrowth > tolerance && meanGrowth > tolerance;
  return { maxGrowth, meanGrowth, verdict: growing ? '**growing**' : 'flat' };
}

function writeReport(samples, results, after) {
  const metrics = [
    ['heap after GC (MB)', 'heapMB', 2],
    ['RSS (MB)', 'rssMB', 10],
    ['open file descriptors', 'fds', 5],
    ['plugin processes', 'plugins', 1],
    ['sandboxes (bwrap)', 'sandboxes', 2],
    ['PostgreSQL connections', 'pgConnections', 3],
  ];
  const rows = metrics.map(([label, key, tolerance]) => {
    const values = samples.map((s) => s[key]);
    const { maxGrowth, meanGrowth, verdict } = judge(samples, key, tolerance);
    return `| ${label} | ${fmt(values[0])} | ${fmt(Math.min(...values))} | ${fmt(Math.max(...values))} | ${fmt(values.at(-1))} | ${signed(maxGrowth)} | ${signed(meanGrowth)} | ±${tolerance} | ${verdict} |`;
  });
  const totalCalls = results.reduce((n, r) => n + r.ok, 0);
  const lines = [
    `# Soak: ${MINUTES} minutes`,
    '',
    `${new Date().toISOString()}, Node.js ${process.version}, ${cpus().length} cores. Load: ${RATE} calls/s REST to server-everything over stdio (singleton, sandboxed), ${RATE} calls/s \`/mcp\` 2026-07-28 to an HTTP upstream, 2 calls/s to a transient stdio source (a sandboxed process per call). A sample every ${SAMPLE_SECONDS} s. Growth compares the last third of the run with the middle third (the first is warm-up): a measure grows when both its highest and its mean value rose by more than the tolerance.`,
    '',
    '| measure | first | min | max | last | growth of the highest | growth of the mean | tolerance | verdict |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Calls: ${results.map((r) => `${r.name} ${r.ok} ok, ${r.other} not 2xx, ${r.errors} errors`).join('; ')} — ${totalCalls} in all.`,
    `After the load stopped (3 s): ${after.plugins} plugin processes, ${after.sandboxes} sandboxes, ${after.pgConnections} PostgreSQL connections, ${after.fds} file descriptors, heap ${after.heapMB.toFixed(1)} MB.`,
    '',
    '| minute | heap MB | RSS MB | fds | plugins | sandboxes | pg connections | calls |',
    '|---|---|---|---|---|---|---|---|',
    ...samples.map((s) => `| ${s.minute.toFixed(1)} | ${s.heapMB.toFixed(1)} | ${s.rssMB.toFixed(0)} | ${s.fds} | ${s.plugins} | ${s.sandboxes} | ${s.pgConnections} | ${s.calls} |`),
    '',
  ];
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, lines.join('\n'));
  process.stdout.write(lines.join('\n'));
  log(`written to ${OUT}`);
}

function signed(value) {
  return `${value >= 0 ? '+' : '−'}${fmt(Math.abs(value))}`;
}

function fmt(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  exitCode = 1;
  log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  clearTimeout(watchdog);
}
process.exit(exitCode);
