// `npm run build && CHAIN_BENCH_BASELINE=<checkout> node bench/execution-chain.mjs`: what the
// executions' hash chain costs. Two Toolplane builds serve the same Streamable HTTP echo (a
// read-only tool: no started record): this checkout and CHAIN_BENCH_BASELINE, a checkout of the
// commit before the chain, built (`npm ci && npm run build`). Each runs on its own embedded database.
// Both are called through REST invoke at the same number of connections, alternating in rounds.
// After each round both builds get SETTLE_MS more before their CPU (and PostgreSQL's) is read, so
// that the sealer's background work on the round's records is counted: the chain's whole cost. At
// the end the chain is verified (not counted), and what was still pending is reported.
//
// Settings (environment): CHAIN_BENCH_SECONDS per round and build (default 8), CHAIN_BENCH_ROUNDS
// (default 3), CHAIN_BENCH_CONNECTIONS (default 16), CHAIN_BENCH_OUT (a markdown file to write).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { load, target } from './lib/load.mjs';
import { cpuSeconds, freePort, postgresCpuSeconds, startProcess, stopAll, waitForHttp } from './lib/processes.mjs';

/* global fetch, setTimeout */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BASELINE = process.env.CHAIN_BENCH_BASELINE;
if (!BASELINE) throw new Error('CHAIN_BENCH_BASELINE must name a built checkout of the commit before the execution chain');
const SECONDS = Number(process.env.CHAIN_BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.CHAIN_BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.CHAIN_BENCH_CONNECTIONS ?? 16);
const baseEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };

const dataDirs = [];
try {
  const echoPort = await freePort();
  const echo = startProcess('http-echo', process.execPath, [join(ROOT, 'test/fixtures/http-echo-server.mjs'), '--port', String(echoPort)], { env: baseEnv, cwd: ROOT });
  await waitForHttp(echo, `http://127.0.0.1:${echoPort}/health`).catch(() => undefined);

  const start = async (name, root) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'chain-bench-'));
    dataDirs.push(dataDir);
    const port = await freePort();
    const adminKey = randomBytes(24).toString('hex');
    const process_ = startProcess(name, process.execPath, [join(root, 'dist/src/main.js')], {
      cwd: root,
      env: { ...baseEnv, PORT: String(port), HOST: '127.0.0.1', TOOLPLANE_DATA_DIR: dataDir, TOOLPLANE_ADMIN_KEY: adminKey, LOG_LEVEL: 'warn' },
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForHttp(process_, `${baseUrl}/health/ready`, { timeoutMs: 90_000 });
    const auth = { authorization: `Bearer ${adminKey}` };
    const registered = await fetch(`${baseUrl}/api/v1/sources`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'echo', transport: 'streamable-http', url: `http://127.0.0.1:${echoPort}/mcp`, maxConcurrency: 256, refreshIntervalSeconds: 0 }),
    });
    if (registered.status !== 201) throw new Error(`registration answered ${registered.status}: ${await registered.text()}`);
    const invoke = target(name, `${baseUrl}/api/v1/tools/echo__echo/invoke`, auth, { arguments: { message: 'hello' } }, (body) => body.includes('"status":"succeeded"'));
    return { name, pid: process_.pid, baseUrl, auth, invoke };
  };

  const builds = [await start('without the chain', BASELINE), await start('with the chain', ROOT)];
  /** Twice the seal interval: the sealer's work on a round lands in that round. */
  const SETTLE_MS = 2000;
  const settle = () => new Promise((r) => setTimeout(r, SETTLE_MS));
  const totals = new Map(builds.map((b) => [b, { ok: 0, errors: 0, seconds: 0, toolplaneCpu: 0, postgresCpu: 0, p50: [], p99: [] }]));
  for (const build of builds) {
    await load(build.invoke, { connections: CONNECTIONS, seconds: 2 }); // warm-up
    await settle();
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
      const cpuBefore = cpuSeconds(build.pid);
      const pgBefore = postgresCpuSeconds(build.pid);
      const run = await load(build.invoke, { connections: CONNECTIONS, seconds: SECONDS });
      await settle();
      const total = totals.get(build);
      total.ok += run.ok;
      total.errors += run.errors;
      total.seconds += run.elapsedS;
      total.toolplaneCpu += cpuSeconds(build.pid) - cpuBefore;
      total.postgresCpu += postgresCpuSeconds(build.pid) - pgBefore;
      total.p50.push(run.latencies[Math.floor(run.latencies.length * 0.5)] ?? 0);
      total.p99.push(run.latencies[Math.floor(run.latencies.length * 0.99)] ?? 0);
    }
  }
  const chain = await (await fetch(`${builds[1].baseUrl}/api/v1/executions/verify`, { headers: builds[1].auth })).json();
  if (!chain.intact) throw new Error(`the chain does not verify: ${JSON.stringify(chain.firstProblem ?? chain.unlinked)}`);
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const rows = builds.map((build) => {
    const t = totals.get(build);
    return { name: build.name, rate: t.ok / t.seconds, errors: t.errors, p50: median(t.p50), p99: median(t.p99), toolplaneMs: (t.toolplaneCpu / t.ok) * 1000, postgresMs: (t.postgresCpu / t.ok) * 1000 };
  });
  const [without, withChain] = rows;
  const lines = [
    `REST invoke of a Streamable HTTP echo (read-only), ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per build, alternating;`,
    `${cpus().length} CPUs (${cpus()[0]?.model.trim()}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end.`,
    '',
    '| build | calls/s | errors | p50 ms | p99 ms | Toolplane CPU ms/call | PostgreSQL CPU ms/call |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.name} | ${r.rate.toFixed(0)} | ${r.errors} | ${r.p50} | ${r.p99} | ${r.toolplaneMs.toFixed(2)} | ${r.postgresMs.toFixed(2)} |`),
    '',
    `Throughput cost of the execution chain: ${(((without.rate - withChain.rate) / without.rate) * 100).toFixed(1)}%;`,
    `CPU per call (Toolplane + PostgreSQL, sealing included): ${(without.toolplaneMs + without.postgresMs).toFixed(2)} → ${(withChain.toolplaneMs + withChain.postgresMs).toFixed(2)} ms.`,
    `The chain verified intact at the end: ${chain.events} links, ${chain.pending} records still pending.`,
  ];
  console.log(lines.join('\n'));
  if (process.env.CHAIN_BENCH_OUT) writeFileSync(process.env.CHAIN_BENCH_OUT, lines.join('\n') + '\n');
} finally {
  await stopAll(15_000);
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
