// What traces cost per call: Toolplane with traces off and on (every call sampled, exported over
// OTLP/HTTP to a sink in this process), interleaved, REST invoke and a 2025-era `tools/call` on
// `/mcp` of server-everything's `echo` over stdio. Reports calls/s and Toolplane's CPU per call.
// `npm run build && node bench/trace-overhead.mjs`. Loopback only; everything started is stopped.
//
// Settings (environment):
//   BENCH_SECONDS      measured seconds per run, default 10
//   BENCH_CONNECTIONS  connections, default 16
//   BENCH_ROUNDS       off/on pairs, default 2
//   BENCH_BASELINE     another build's entry point (e.g. before traces existed), measured too, as `before`
//   BENCH_VARIANTS     comma-separated of before, off, on: which to measure (default all)
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { load, target } from './lib/load.mjs';
import { cpuSeconds, freePort, killAllNow, startProcess, stopAll, waitForHttp } from './lib/processes.mjs';
import { LEGACY_HEADERS, legacyToolsCall } from './lib/mcp-requests.mjs';

/* global fetch */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MAIN = join(ROOT, 'dist/src/main.js');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const VARIANTS = [
  ...(process.env.BENCH_BASELINE ? [{ label: 'before', main: resolve(process.env.BENCH_BASELINE), traces: false }] : []),
  { label: 'off', main: MAIN, traces: false },
  { label: 'on', main: MAIN, traces: true },
].filter((variant) => !process.env.BENCH_VARIANTS || process.env.BENCH_VARIANTS.split(',').includes(variant.label));

process.on('exit', killAllNow);

/** An OTLP/HTTP receiver that accepts and counts what it is sent. */
async function startSink() {
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk) => (bytes += chunk.length));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${server.address().port}`, bytes: () => bytes, close: () => new Promise((done) => server.close(done)) };
}

async function startToolplane({ main, traces }, sink) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'trace-bench-'));
  const adminKey = `bench_${randomBytes(16).toString('hex')}`;
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? '/tmp',
    PORT: String(port),
    HOST: '127.0.0.1',
    TOOLPLANE_DATA_DIR: dataDir,
    TOOLPLANE_ADMIN_KEY: adminKey,
    LOG_LEVEL: 'warn',
    ...(traces ? { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_METRICS_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none' } : {}),
  };
  const handle = startProcess(`toolplane (traces ${traces ? 'on' : 'off'})`, process.execPath, [main], { env });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(handle, `${url}/health/ready`, { timeoutMs: 120_000 });
  const auth = { authorization: `Bearer ${adminKey}` };
  const registered = await fetch(`${url}/api/v1/sources`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: process.execPath, args: [EVERYTHING, 'stdio'] }),
  });
  if (registered.status !== 201) throw new Error(`registration answered ${registered.status}: ${await registered.text()}`);
  return { handle, url, auth, dataDir };
}

async function measure(toolplane, t) {
  await load(t, { connections: CONNECTIONS, seconds: 2 });
  let cpuBefore = 0;
  const result = await load(t, {
    connections: CONNECTIONS,
    seconds: SECONDS,
    onStart: () => (cpuBefore = cpuSeconds(toolplane.handle.pid)),
    onEnd: () => cpuSeconds(toolplane.handle.pid) - cpuBefore,
  });
  return { callsPerSecond: result.ok / result.elapsedS, cpuUsPerCall: (result.end / Math.max(1, result.ok)) * 1e6, errors: result.errors };
}

const sink = await startSink();
const rows = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of VARIANTS) {
      const toolplane = await startToolplane(variant, sink);
      try {
        const verify = (body) => body.includes('Echo: bench');
        const rest = target('REST invoke', `${toolplane.url}/api/v1/tools/ev__echo/invoke`, toolplane.auth, { arguments: { message: 'bench' } }, verify);
        const mcp = target('MCP tools/call', `${toolplane.url}/mcp`, { ...toolplane.auth, ...LEGACY_HEADERS }, legacyToolsCall('ev__echo', { message: 'bench' }), verify);
        for (const t of [rest, mcp]) rows.push({ round, traces: variant.label, path: t.name, ...(await measure(toolplane, t)) });
      } finally {
        await stopAll(5000);
        rmSync(toolplane.dataDir, { recursive: true, force: true });
      }
      await sleep(500);
    }
  }
} finally {
  await sink.close();
}

for (const row of rows) console.error(JSON.stringify(row));
console.log(`${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} round(s); OTLP bytes received: ${sink.bytes()}`);
console.log('| path | traces | calls/s | Toolplane CPU µs/call | errors |');
console.log('|---|---|---|---|---|');
for (const path of ['REST invoke', 'MCP tools/call']) {
  for (const { label: traces } of VARIANTS) {
    const runs = rows.filter((row) => row.path === path && row.traces === traces);
    const mean = (key) => runs.reduce((sum, row) => sum + row[key], 0) / runs.length;
    console.log(`| ${path} | ${traces} | ${mean('callsPerSecond').toFixed(0)} | ${mean('cpuUsPerCall').toFixed(0)} | ${runs.reduce((n, row) => n + row.errors, 0)} |`);
  }
}
