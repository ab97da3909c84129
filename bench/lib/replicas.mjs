// The replicas workload: the REST invoke of the HTTP echo through one Toolplane, then through two
// Toolplane processes on one PostgreSQL with the connections split between them (as a
// round-robin load balancer would), in the same run. Both setups share the same database server.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiOk } from './api.mjs';
import { load, mergeSorted, quantile, target } from './load.mjs';
import { cpuSeconds, freePort, postgresCpuSeconds, startProcess, stopProcess, waitForHttp } from './processes.mjs';

/* global fetch */

export async function replicasWorkload({ root, main, echoUrl, connections, seconds, warmupSeconds, executionCommit, log }) {
  const dir = mkdtempSync(join(tmpdir(), 'toolplane-bench-replicas-'));
  // As root the embedded PostgreSQL runs as another user, which must reach its directory.
  chmodSync(dir, 0o755);
  const { startEmbeddedPostgres } = await import(pathToFileURL(join(root, 'dist/src/shared/database/embedded-postgres.js')).href);
  const database = await startEmbeddedPostgres({ dataDir: join(dir, 'postgres'), environment: process.env });
  const adminKey = randomBytes(24).toString('base64url');
  const settings = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    TOOLPLANE_ADMIN_KEY: adminKey,
    TOOLPLANE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    TOOLPLANE_REFRESH_TICK_MS: '3600000',
    TOOLPLANE_EXECUTION_COMMIT: executionCommit,
  };
  const replicas = [];
  try {
    for (const name of ['a', 'b']) {
      const port = await freePort();
      const handle = startProcess(`toolplane-${name}`, process.execPath, [main], { cwd: root, env: { ...settings, PORT: String(port), TOOLPLANE_DATA_DIR: join(dir, name) } });
      const url = `http://127.0.0.1:${port}`;
      await waitForHttp(handle, `${url}/health/ready`, { timeoutMs: 90_000 });
      replicas.push({ handle, url });
    }
    const auth = { authorization: `Bearer ${adminKey}` };
    await apiOk(replicas[0].url, adminKey, 'POST', '/api/v1/sources', { name: 'http-echo', transport: 'streamable-http', url: echoUrl, maxConcurrency: 256, refreshIntervalSeconds: 0 });
    const verify = (body) => body.includes('"status":"succeeded"') && body.includes('"text":"hello"');
    const targets = replicas.map((r, i) => target(`replica ${i + 1}`, `${r.url}/api/v1/tools/http-echo__echo/invoke`, auth, { arguments: { message: 'hello' } }, verify));
    // The second replica sees the source through the shared database.
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(targets[1].url, { method: 'POST', headers: targets[1].headers, body: targets[1].body });
      if (response.ok && verify(await response.text())) break;
      if (attempt > 50) throw new Error('replica b never served the source registered on replica a');
      await sleep(100);
    }

    /** One window over `parts` ([target, connections]) at once, with both replicas' and PostgreSQL's CPU. */
    const window = async (parts, windowSeconds) => {
      const pids = replicas.map((r) => r.handle.pid);
      const before = { cpu: pids.map((p) => cpuSeconds(p)), pg: postgresCpuSeconds(process.pid) };
      const results = await Promise.all(parts.map(([t, c]) => load(t, { connections: c, seconds: windowSeconds })));
      const cpu = pids.reduce((sum, p, i) => sum + cpuSeconds(p) - before.cpu[i], 0);
      const pg = postgresCpuSeconds(process.pid) - before.pg;
      const completed = results.reduce((n, r) => n + r.completed, 0);
      return {
        ok: results.reduce((n, r) => n + r.ok, 0),
        errors: results.reduce((n, r) => n + r.errors, 0),
        completed,
        elapsedS: Math.max(...results.map((r) => r.elapsedS)),
        latencies: mergeSorted(results.map((r) => r.latencies)),
        cpuS: cpu,
        pgS: pg,
      };
    };
    const setups = (c) => [
      { name: 'one replica', parts: [[targets[0], c]] },
      { name: 'two replicas', parts: [[targets[0], Math.ceil(c / 2)], [targets[1], Math.floor(c / 2)]].filter(([, n]) => n > 0) },
    ];
    const rows = [];
    for (const c of connections) {
      const halves = new Map();
      const order = setups(c);
      for (const setup of [...order, ...[...order].reverse()]) {
        if (warmupSeconds > 0) await window(setup.parts, warmupSeconds);
        const result = await window(setup.parts, seconds / 2);
        halves.set(setup.name, [...(halves.get(setup.name) ?? []), result]);
        log(`replicas c=${c} ${setup.name}: ${Math.round(result.ok / result.elapsedS)} req/s, p50 ${quantile(result.latencies, 0.5).toFixed(2)} ms`);
      }
      for (const setup of order) {
        const parts = halves.get(setup.name);
        const sum = (key) => parts.reduce((n, p) => n + p[key], 0);
        const latencies = mergeSorted(parts.map((p) => p.latencies));
        rows.push({
          setup: setup.name,
          connections: c,
          rps: sum('ok') / sum('elapsedS'),
          p50: quantile(latencies, 0.5),
          p99: quantile(latencies, 0.99),
          errors: sum('errors'),
          cpuUsPerCall: (sum('cpuS') / Math.max(1, sum('completed'))) * 1e6,
          pgCpuUsPerCall: (sum('pgS') / Math.max(1, sum('completed'))) * 1e6,
        });
      }
    }
    return { rows };
  } finally {
    for (const r of replicas.reverse()) await stopProcess(r.handle, 20_000);
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
