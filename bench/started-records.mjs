// `npm run build && node bench/started-records.mjs`: what recording calls as `started` before they
// are sent costs. One Streamable HTTP upstream (test/fixtures/http-echo-server.mjs) offers the same
// echo twice: `echo` (readOnlyHint: no started record) and `echo_write` (not read-only: a started row
// group-committed before the call, completed after it). Both are called through Toolplane's REST
// invoke at the same number of connections, alternating in rounds, in one run on the embedded
// database. Reports calls/s, p50/p99 latency and the CPU Toolplane and PostgreSQL spend per call.
//
// Settings (environment): STARTED_BENCH_SECONDS per round and tool (default 8), STARTED_BENCH_ROUNDS
// (default 3), STARTED_BENCH_CONNECTIONS (default 16), STARTED_BENCH_OUT (a markdown file to write).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { load, target } from './lib/load.mjs';
import { cpuSeconds, freePort, postgresCpuSeconds, startProcess, stopAll, waitForHttp } from './lib/processes.mjs';

/* global fetch */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.env.STARTED_BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.STARTED_BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.STARTED_BENCH_CONNECTIONS ?? 16);
const baseEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };

const dataDir = mkdtempSync(join(tmpdir(), 'started-bench-'));
try {
  const echoPort = await freePort();
  const echo = startProcess('http-echo', process.execPath, [join(ROOT, 'test/fixtures/http-echo-server.mjs'), '--port', String(echoPort)], {
    env: { ...baseEnv, ECHO_WRITE_TOOL: '1' },
    cwd: ROOT,
  });
  await waitForHttp(echo, `http://127.0.0.1:${echoPort}/health`).catch(() => undefined);

  const port = await freePort();
  const adminKey = randomBytes(24).toString('hex');
  const toolplane = startProcess('toolplane', process.execPath, [join(ROOT, 'dist/src/main.js')], {
    cwd: ROOT,
    env: { ...baseEnv, PORT: String(port), HOST: '127.0.0.1', TOOLPLANE_DATA_DIR: dataDir, TOOLPLANE_ADMIN_KEY: adminKey, LOG_LEVEL: 'warn' },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(toolplane, `${baseUrl}/health/ready`, { timeoutMs: 90_000 });
  const auth = { authorization: `Bearer ${adminKey}` };
  const registered = await fetch(`${baseUrl}/api/v1/sources`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'echo', transport: 'streamable-http', url: `http://127.0.0.1:${echoPort}/mcp`, maxConcurrency: 256, refreshIntervalSeconds: 0 }),
  });
  if (registered.status !== 201) throw new Error(`registration answered ${registered.status}: ${await registered.text()}`);

  const verify = (body) => body.includes('"status":"succeeded"');
  const tools = {
    'read-only (no started record)': target('echo', `${baseUrl}/api/v1/tools/echo__echo/invoke`, auth, { arguments: { message: 'hello' } }, verify),
    'not read-only (started record)': target('echo_write', `${baseUrl}/api/v1/tools/echo__echo_write/invoke`, auth, { arguments: { message: 'hello' } }, verify),
  };
  const totals = Object.fromEntries(Object.keys(tools).map((name) => [name, { ok: 0, errors: 0, seconds: 0, toolplaneCpu: 0, postgresCpu: 0, p50: [], p99: [] }]));
  for (const [, t] of Object.entries(tools)) await load(t, { connections: CONNECTIONS, seconds: 2 }); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? Object.keys(tools) : Object.keys(tools).reverse();
    for (const name of order) {
      const cpuBefore = cpuSeconds(toolplane.pid);
      const pgBefore = postgresCpuSeconds(toolplane.pid);
      const run = await load(tools[name], { connections: CONNECTIONS, seconds: SECONDS });
      const total = totals[name];
      total.ok += run.ok;
      total.errors += run.errors;
      total.seconds += run.elapsedS;
      total.toolplaneCpu += cpuSeconds(toolplane.pid) - cpuBefore;
      total.postgresCpu += postgresCpuSeconds(toolplane.pid) - pgBefore;
      total.p50.push(run.latencies[Math.floor(run.latencies.length * 0.5)] ?? 0);
      total.p99.push(run.latencies[Math.floor(run.latencies.length * 0.99)] ?? 0);
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const rows = Object.entries(totals).map(([name, t]) => ({
    name,
    rate: t.ok / t.seconds,
    errors: t.errors,
    p50: median(t.p50),
    p99: median(t.p99),
    toolplaneMs: (t.toolplaneCpu / t.ok) * 1000,
    postgresMs: (t.postgresCpu / t.ok) * 1000,
  }));
  const [readOnly, recorded] = rows;
  const lines = [
    `REST invoke of a Streamable HTTP echo, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per tool, alternating;`,
    `${cpus().length} CPUs (${cpus()[0]?.model.trim()}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end.`,
    '',
    '| tool | calls/s | errors | p50 ms | p99 ms | Toolplane CPU ms/call | PostgreSQL CPU ms/call |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.name} | ${r.rate.toFixed(0)} | ${r.errors} | ${r.p50} | ${r.p99} | ${r.toolplaneMs.toFixed(2)} | ${r.postgresMs.toFixed(2)} |`),
    '',
    `Throughput cost of started records: ${(((readOnly.rate - recorded.rate) / readOnly.rate) * 100).toFixed(1)}%.`,
  ];
  console.log(lines.join('\n'));
  if (process.env.STARTED_BENCH_OUT) writeFileSync(process.env.STARTED_BENCH_OUT, lines.join('\n') + '\n');
} finally {
  await stopAll(15_000);
  rmSync(dataDir, { recursive: true, force: true });
}
