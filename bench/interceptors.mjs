// `npm run bench:interceptors`: what interceptors add to a call, in one run, on one Toolplane and one
// upstream (bench/lib/report-server.mjs over stdio, a singleton: `report` answers 10 KB of text with
// PII in it), REST invoke at 1 connection, the rows taking turns: (a) no interceptors; (b) 20
// interceptors of every built-in kind in force that do not apply to the call (scoped to other
// sources, other tools, a group); (c) one `redact` post interceptor on the tool; (d) one `webhook`
// pre interceptor to a loopback policy service (docs/examples/interceptor-webhook.mjs, its signing
// secret stored with `PUT /api/v1/secrets/{name}`); (e) the same upstream called directly with the
// SDK's stdio client, for reference. Between rows the interceptors are created and deleted over
// REST, so (a) has none at all. Every answer is checked: (a), (b) and (d) carry the PII, (c) has it
// masked, (d) records the webhook's `allow`. Needs `npm run build`. See docs/performance.md.
//
// Settings (environment): INTERCEPTORS_SECONDS measured seconds per row (default 20, split over
// the passes), INTERCEPTORS_ROUNDS (default 3: a pass over the rows and one back, each),
// INTERCEPTORS_CONNECTIONS (default 1), INTERCEPTORS_BYTES (the result's characters, default
// 10240), INTERCEPTORS_OUT (default bench/results/interceptors.md).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout } from 'node:timers';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { api, apiOk } from './lib/api.mjs';
import { startToolplane } from './lib/echo-toolplane.mjs';
import { load, loadCalls, mergeSorted, quantile, target } from './lib/load.mjs';
import { fmt, writeReport } from './lib/report-file.mjs';
import { startPolicyService } from './lib/policy-service.mjs';
import { cpuSeconds, findDescendant, killAllNow, stopAll, treeCpuSeconds } from './lib/processes.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPORT_SERVER = join(ROOT, 'bench/lib/report-server.mjs');
const SECONDS = Number(process.env.INTERCEPTORS_SECONDS || 20);
const ROUNDS = Number(process.env.INTERCEPTORS_ROUNDS || 3);
const CONNECTIONS = Number(process.env.INTERCEPTORS_CONNECTIONS || 1);
const BYTES = Number(process.env.INTERCEPTORS_BYTES || 10_240);
const OUT = resolve(process.env.INTERCEPTORS_OUT || join(ROOT, 'bench/results/interceptors.md'));
const log = (line) => console.log(`[interceptors] ${line}`);

const TOOL = 'report__report';
const ARGUMENTS = { customer: 'c-1042' };
/** A value the report holds (bench/lib/prose.mjs plants it), which redaction masks as `[email]`. */
const EMAIL = 'jane.doe@example.com';
const SIGNING_SECRET = 'policy-hook-key';

const watchdog = setTimeout(() => {
  console.error('[interceptors] took too long: stopping everything');
  killAllNow();
  process.exit(1);
}, (SECONDS * 10 + ROUNDS * 120 + 300) * 1000);
watchdog.unref();

const scratch = mkdtempSync(join(tmpdir(), 'toolplane-interceptors-'));
let direct;
try {
  const hookSecret = randomBytes(32).toString('base64url');
  const policy = await startPolicyService(ROOT, hookSecret);
  const { toolplane, baseUrl, adminKey, auth } = await startToolplane({
    name: 'toolplane',
    root: ROOT,
    scratch,
    dataDir: join(scratch, 'toolplane'),
    source: { name: 'report', transport: 'stdio', lifecycle: 'singleton', command: process.execPath, args: [REPORT_SERVER], env: { REPORT_BYTES: String(BYTES) } },
  });
  await apiOk(baseUrl, adminKey, 'PUT', `/api/v1/secrets/${SIGNING_SECRET}`, { value: hookSecret });
  const interceptors = interceptorsOf(policy.url);

  const invoke = `${baseUrl}/api/v1/tools/${TOOL}/invoke`;
  const answered = (body) => body.includes('"status":"succeeded"');
  const rows = [
    { ...target('(a) no interceptors', invoke, auth, { arguments: ARGUMENTS }, (b) => answered(b) && b.includes(EMAIL) && b.includes('"interceptors":[]')), config: [] },
    {
      ...target('(b) 20 interceptors that do not apply', invoke, auth, { arguments: ARGUMENTS }, (b) => answered(b) && b.includes(EMAIL) && b.includes('"interceptors":[]')),
      config: interceptors.bystanders,
    },
    {
      ...target('(c) `redact` post on the tool', invoke, auth, { arguments: ARGUMENTS }, (b) => answered(b) && !b.includes('@example.com') && b.includes('[email]') && b.includes('"kind":"redact"') && b.includes('"decision":"modify"')),
      config: [interceptors.redact],
    },
    {
      ...target('(d) `webhook` pre on the tool (loopback)', invoke, auth, { arguments: ARGUMENTS }, (b) => answered(b) && b.includes(EMAIL) && b.includes('"kind":"webhook"') && b.includes('"decision":"allow"')),
      config: [interceptors.webhook],
    },
  ];
  for (const row of rows) row.pid = toolplane.pid;
  direct = await directClient();
  rows.push({ name: '(e) the upstream directly (SDK stdio client)', call: direct.call, pid: direct.pid });
  const upstreamPid = findDescendant(toolplane.pid, 'report-server.mjs');
  if (upstreamPid === undefined) throw new Error('the report server under Toolplane was not found');

  const applied = new Set();
  /** Makes `config` exactly the interceptors in force: deletes the others, creates the missing. */
  const configure = async (config) => {
    const wanted = new Set(config.map((interceptor) => interceptor.name));
    for (const name of [...applied].filter((name) => !wanted.has(name))) {
      await apiOk(baseUrl, adminKey, 'DELETE', `/api/v1/interceptors/${name}`);
      applied.delete(name);
    }
    for (const interceptor of config.filter((interceptor) => !applied.has(interceptor.name))) {
      await apiOk(baseUrl, adminKey, 'POST', '/api/v1/interceptors', interceptor);
      applied.add(interceptor.name);
    }
  };
  const run = async (row, seconds) => {
    if (row.call) return loadCalls(row.name, row.call, { seconds });
    await configure(row.config);
    const r = await load(row, { connections: CONNECTIONS, seconds });
    if (r.errors > 0) {
      const sample = await api(baseUrl, adminKey, 'POST', `/api/v1/tools/${TOOL}/invoke`, { arguments: ARGUMENTS });
      throw new Error(`${row.name}: ${r.errors} errors (${JSON.stringify(r.statusCodes)}); an answer now: ${sample.status} ${sample.text.slice(0, 1500)}`);
    }
    return r;
  };

  const passes = Array.from({ length: ROUNDS * 2 }, (_, i) => (i % 2 === 0 ? rows : [...rows].reverse()));
  log(`${rows.length} rows at ${CONNECTIONS} connection(s), ${SECONDS} s each in ${passes.length} passes, taking turns; ${BYTES} characters a result`);
  for (const row of rows) await run(row, 2);
  const results = new Map(rows.map((row) => [row.name, { calls: 0, seconds: 0, latencies: [], rates: [], tree: 0, own: 0, upstream: 0, policy: 0 }]));
  const loads = [loadavg()[0]];
  for (const order of passes) {
    for (const row of order) {
      await run(row, 1);
      const before = cpuOf(row);
      const r = await run(row, SECONDS / passes.length);
      const after = cpuOf(row);
      const acc = results.get(row.name);
      for (const key of ['tree', 'own', 'upstream', 'policy']) acc[key] += after[key] - before[key];
      acc.calls += r.ok;
      acc.seconds += r.elapsedS;
      acc.latencies.push(r.latencies);
      acc.rates.push(r.ok / r.elapsedS);
      if (r.errors > 0) throw new Error(`${row.name}: ${r.errors} errors`);
    }
    loads.push(loadavg()[0]);
  }
  await configure([]);

  /** CPU seconds so far: Toolplane with everything under it (PostgreSQL, the sandboxed upstream), Toolplane alone, the upstream, the policy service. */
  function cpuOf(row) {
    const policyCpu = cpuSeconds(policy.handle.pid);
    if (row.call) return { tree: NaN, own: NaN, upstream: cpuSeconds(row.pid), policy: policyCpu };
    return { tree: treeCpuSeconds(row.pid), own: cpuSeconds(row.pid), upstream: cpuSeconds(upstreamPid), policy: policyCpu };
  }

  const base = results.get(rows[0].name);
  const rate = (acc) => acc.calls / acc.seconds;
  const p = (acc, q) => quantile(mergeSorted(acc.latencies), q);
  const perCall = (acc, key) => (acc[key] * 1e6) / acc.calls;
  const lines = rows.map((row) => {
    const acc = results.get(row.name);
    const ratio = (value, of) => (row === rows[0] ? '—' : `${fmt(value / of, 2)}×`);
    return `| ${row.name} | ${fmt(rate(acc), 0)} (${fmt(Math.min(...acc.rates), 0)}–${fmt(Math.max(...acc.rates), 0)}) | ${ratio(rate(acc), rate(base))} | ${fmt(p(acc, 0.5), 2)} | ${fmt(p(acc, 0.95), 2)} | ${row === rows[0] ? '—' : fmt(p(acc, 0.5) - p(base, 0.5), 2)} | ${row === rows[0] ? '—' : fmt(p(acc, 0.95) - p(base, 0.95), 2)} | ${fmt(perCall(acc, 'tree'), 0)} | ${row.call ? '—' : ratio(perCall(acc, 'tree'), perCall(base, 'tree'))} | ${fmt(perCall(acc, 'own'), 0)} | ${fmt(perCall(acc, 'upstream'), 0)} | ${fmt(perCall(acc, 'policy'), 0)} |`;
  });
  const report = [
    `# What interceptors add to a call (${new Date().toISOString().slice(0, 16)} UTC, ${cpus().length} cores, Node.js ${process.version})`,
    '',
    `\`report\` of bench/lib/report-server.mjs over stdio (a singleton), ${BYTES} characters of text with PII; REST invoke at ${CONNECTIONS} connection(s), ${SECONDS} s per row in ${passes.length} passes taking turns (the spread of the passes in brackets).`,
    `Load average (1 min) over the run: ${fmt(Math.min(...loads), 1)}–${fmt(Math.max(...loads), 1)}.`,
    '"CPU" is user+system per call: of Toolplane with everything under it (its embedded PostgreSQL, the sandboxed upstream), of Toolplane alone, of the upstream, of the policy service.',
    '',
    '| row | calls/s (passes) | calls/s ÷ (a) | p50 ms | p95 ms | added p50 ms | added p95 ms | CPU µs/call, Toolplane and below | ÷ (a) | Toolplane alone | upstream | policy service |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...lines,
    '',
  ].join('\n');
  writeReport(OUT, report, log);
} finally {
  await direct?.close();
  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
}

/** The interceptors of each row: 20 of every built-in kind that apply elsewhere, a `redact` and a `webhook` on the tool. */
function interceptorsOf(policyUrl) {
  const scopes = [
    (i) => ({ source: `crm-${i}` }),
    (i) => ({ tools: [`files-${i}__*`, `*__delete_${i}`] }),
    (i) => ({ source: 'report', tools: [`report__summary_${i}*`] }),
    (i) => ({ group: `support-${i}` }),
  ];
  const kinds = [
    { kind: 'deny', rules: [{ argument: 'path', pathUnder: '/etc', message: 'Files under /etc are off limits.' }] },
    { kind: 'defaults', arguments: { limit: 10, format: 'json' } },
    { kind: 'lock', arguments: { repo: 'acme/site' } },
    { kind: 'redact' },
    { kind: 'cap', maxBytes: 4096 },
    { kind: 'output-schema' },
    { kind: 'webhook', phase: 'pre', url: policyUrl, signingSecret: SIGNING_SECRET },
  ];
  const bystanders = Array.from({ length: 20 }, (_, i) => ({ name: `elsewhere-${i}`, ...kinds[i % kinds.length], scope: scopes[i % scopes.length](i) }));
  return {
    bystanders,
    redact: { name: 'mask-pii', kind: 'redact', scope: { tools: [TOOL] } },
    webhook: { name: 'policy', kind: 'webhook', phase: 'pre', url: policyUrl, signingSecret: SIGNING_SECRET, scope: { tools: [TOOL] } },
  };
}

/** The same upstream as Toolplane's, started and called with the SDK's stdio client. */
async function directClient() {
  const client = new Client({ name: 'toolplane-bench', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [REPORT_SERVER], env: { PATH: process.env.PATH ?? '', REPORT_BYTES: String(BYTES) }, stderr: 'ignore' });
  await client.connect(transport);
  const call = async () => {
    const result = await client.callTool({ name: 'report', arguments: ARGUMENTS });
    return !result.isError && result.content[0]?.text?.includes(EMAIL);
  };
  return { call, pid: transport.pid, close: () => client.close() };
}
