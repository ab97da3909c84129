// `npm run bench:credentials`: a person's first call of an OAuth-protected upstream through
// Toolplane, from "no connection" to a result, and then what a call costs when it carries the
// caller's own token against one that carries the source's shared token, in one run, on one
// Toolplane and one upstream (test/fixtures/oauth-upstream.mjs: an OAuth 2.1 authorization server
// and the streamable-HTTP MCP server it protects, whose `echo` answers the message and `whoami`
// the token's subject).
//
// The first call: the admin registers an `oauth` source and connects (its connection discovers the
// tools); a person with an agent key calls `whoami` and is refused `UPSTREAM_CONSENT_REQUIRED`
// with a link; the link (Toolplane's single-use connect ticket) is opened as a browser would, the
// authorization server consents at once (its auto-consent mode) and redirects to Toolplane's
// callback; the same call then answers the person's subject. Each step's time is printed.
//
// The rows, taking turns, one call at a time on one keep-alive connection (REST invoke of `echo`
// as the person): (a) a `shared` source whose header is `Bearer ${secret:…}` holding the person's
// access token; (b) the `oauth` source, the person's own connection; (c) a `user-secret` source,
// `Bearer ${user-secret:…}` holding the same token; (d) the upstream called directly with the SDK's
// client and that token, for reference. Every answer is checked (the echoed text).
// Needs `npm run build`. See docs/performance.md.
//
// Settings (environment): CREDENTIALS_SECONDS measured seconds per row (default 20, split over
// the rounds), CREDENTIALS_ROUNDS (default 3), CREDENTIALS_OUT (default bench/results/credentials.md).
import { Buffer } from 'node:buffer';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startToolplane } from './lib/echo-toolplane.mjs';
import { loadCalls, mergeSorted, quantile } from './lib/load.mjs';
import { fmt, writeReport } from './lib/report-file.mjs';
import { apiOk } from './lib/api.mjs';
import { cpuSeconds, killAllNow, postgresCpuSeconds, startProcess, stopAll } from './lib/processes.mjs';

/* global fetch */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.env.CREDENTIALS_SECONDS || 20);
const ROUNDS = Number(process.env.CREDENTIALS_ROUNDS || 3);
const OUT = resolve(process.env.CREDENTIALS_OUT || join(ROOT, 'bench/results/credentials.md'));
const log = (line) => console.log(`[credentials] ${line}`);
const MESSAGE = 'the quarterly numbers';

async function startUpstream() {
  const handle = startProcess('oauth-upstream', process.execPath, [join(ROOT, 'test/fixtures/oauth-upstream.mjs')], { env: { PATH: process.env.PATH }, cwd: ROOT });
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const line = handle.output().split('\n').find((l) => l.startsWith('{'));
    if (line) return { handle, ...JSON.parse(line) };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the OAuth fixture did not start: ${handle.output()}`);
}

/** Follows a connect link (or an authorization URL) as a browser would, the fixture consenting at once as `login`; answers where Toolplane sent the browser at the end. */
async function openLink(link, login) {
  let url = new URL(link);
  for (let hop = 0; hop < 5; hop++) {
    if (url.pathname.endsWith('/authorize')) url.searchParams.set('login', login);
    const answer = await fetch(url, { redirect: 'manual' });
    const location = answer.headers.get('location');
    if (answer.status !== 302 || !location) throw new Error(`${url.pathname} answered ${answer.status}: ${await answer.text()}`);
    if (location.startsWith('/')) return location;
    url = new URL(location);
  }
  throw new Error('too many redirects');
}

function invoker(baseUrl, key, agent) {
  return (tool, args) =>
    new Promise((resolvePromise, reject) => {
      const body = JSON.stringify({ arguments: args });
      const req = request(`${baseUrl}/api/v1/tools/${tool}/invoke`, { method: 'POST', agent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolvePromise({ status: res.statusCode, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
}

async function main() {
  const scratch = mkdtempSync(join(tmpdir(), 'tp-bench-credentials-'));
  const upstream = await startUpstream();
  log(`upstream at ${upstream.mcpUrl}`);
  const { toolplane, baseUrl, adminKey } = await startToolplane({
    name: 'toolplane',
    root: ROOT,
    scratch,
    dataDir: join(scratch, 'data'),
    env: { TOOLPLANE_SANDBOX: 'off' },
    source: { name: 'peruser', transport: 'streamable-http', url: upstream.mcpUrl, upstreamAuth: { mode: 'oauth', oauth: {} } },
  });
  const admin = (method, path, body) => apiOk(baseUrl, adminKey, method, path, body);
  const lines = [];
  const say = (line) => {
    lines.push(line);
    log(line);
  };

  // The admin connects: its connection discovers the tools.
  const waiting = await admin('GET', '/api/v1/sources/peruser');
  say(`registered "peruser" (oauth): health ${waiting.health}`);
  const adminStart = await fetch(`${baseUrl}/api/v1/sources/peruser/connect`, { headers: { authorization: `Bearer ${adminKey}`, accept: 'application/json' } }).then((r) => r.json());
  await openLink(adminStart.authorizationUrl, 'platform-admin');
  let source;
  for (let i = 0; i < 100; i++) {
    source = await admin('GET', '/api/v1/sources/peruser');
    if (source.health === 'healthy') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  say(`the admin connected (as platform-admin at the authorization server): health ${source.health}`);

  // The person's first call.
  const person = await admin('POST', '/api/v1/api-keys', { name: 'dana', role: 'agent' });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const invoke = invoker(baseUrl, person.key, agent);
  let t0 = performance.now();
  const refused = await invoke('peruser__whoami', {});
  const refusal = JSON.parse(refused.text).error;
  say(`1. dana calls peruser__whoami: ${refused.status} ${refusal.code} (${fmt(performance.now() - t0, 1)} ms) — "${refusal.message}"`);
  t0 = performance.now();
  const landed = await openLink(refusal.connectUrl, 'dana');
  say(`2. dana opens the link, consents at the authorization server, and lands on ${landed} (${fmt(performance.now() - t0, 1)} ms for the three redirects)`);
  t0 = performance.now();
  const first = await invoke('peruser__whoami', {});
  const firstMs = performance.now() - t0;
  const whoami = JSON.parse(first.text).result;
  say(`3. dana calls peruser__whoami again: ${first.status}, ${JSON.stringify(whoami.structuredContent ?? whoami.content)} (${fmt(firstMs, 1)} ms, its first call on a new connection of its own)`);
  const mine = await apiOk(baseUrl, person.key, 'GET', '/api/v1/me/connections');
  const connection = mine.items.find((item) => item.source === 'peruser');
  say(`4. GET /api/v1/me/connections: peruser ${connection.status}, scopes ${connection.scopes.join(' ')}, expires ${connection.expiresAt}`);

  // The same token for the shared, user-secret and direct rows.
  const tokens = await fetch(`${upstream.controlUrl}/tokens`).then((r) => r.json());
  const token = tokens.tokens.find((t) => t.kind === 'access' && t.sub === 'dana' && !t.revoked).token;
  await admin('PUT', '/api/v1/secrets/SHARED_TOKEN', { value: token });
  await admin('POST', '/api/v1/sources?wait=true', { name: 'shared', transport: 'streamable-http', url: upstream.mcpUrl, headers: { Authorization: 'Bearer ${secret:SHARED_TOKEN}' }, maxConcurrency: 256, refreshIntervalSeconds: 0 });
  await admin('PUT', '/api/v1/me/secrets/UPSTREAM_TOKEN', { value: token });
  await apiOk(baseUrl, person.key, 'PUT', '/api/v1/me/secrets/UPSTREAM_TOKEN', { value: token });
  await admin('POST', '/api/v1/sources?wait=true', { name: 'mine', transport: 'streamable-http', url: upstream.mcpUrl, headers: { Authorization: 'Bearer ${user-secret:UPSTREAM_TOKEN}' }, upstreamAuth: { mode: 'user-secret' }, maxConcurrency: 256, refreshIntervalSeconds: 0 });
  await admin('PATCH', '/api/v1/sources/peruser', { maxConcurrency: 256, refreshIntervalSeconds: 0 });

  const direct = new Client({ name: 'bench-direct', version: '1' });
  await direct.connect(new StreamableHTTPClientTransport(new URL(upstream.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));

  const echoed = (text) => text.includes(MESSAGE);
  const viaToolplane = (tool) => async () => {
    const answer = await invoke(tool, { message: MESSAGE });
    return answer.status === 200 && echoed(answer.text);
  };
  const rows = [
    { key: 'a', label: 'shared token (`Bearer ${secret:…}`), REST invoke', call: viaToolplane('shared__echo'), toolplane: true },
    { key: 'b', label: 'the caller’s own OAuth connection, REST invoke', call: viaToolplane('peruser__echo'), toolplane: true },
    { key: 'c', label: 'the caller’s own `${user-secret:…}`, REST invoke', call: viaToolplane('mine__echo'), toolplane: true },
    { key: 'd', label: 'the upstream directly (SDK client, same token)', call: async () => echoed(JSON.stringify((await direct.callTool({ name: 'echo', arguments: { message: MESSAGE } })).content)), toolplane: false },
  ];
  for (const row of rows) for (let i = 0; i < 50; i++) if (!(await row.call())) throw new Error(`row ${row.key} answered wrong during warm-up`);

  const results = new Map(rows.map((row) => [row.key, { runs: [], toolplaneCpu: 0, postgresCpu: 0 }]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? rows : [...rows].reverse();
    for (const row of order) {
      const tp0 = cpuSeconds(toolplane.pid);
      const pg0 = postgresCpuSeconds(toolplane.pid);
      const run = await loadCalls(row.key, row.call, { seconds: SECONDS / ROUNDS });
      const r = results.get(row.key);
      r.toolplaneCpu += cpuSeconds(toolplane.pid) - tp0;
      r.postgresCpu += postgresCpuSeconds(toolplane.pid) - pg0;
      r.runs.push(run);
      log(`round ${round + 1} row ${row.key}: ${run.ok} calls, ${run.errors} wrong`);
    }
  }
  await direct.close();

  const table = ['| row | calls | wrong | calls/s | p50 ms | p99 ms | Toolplane CPU µs/call | PostgreSQL CPU µs/call |', '|---|---:|---:|---:|---:|---:|---:|---:|'];
  const summary = {};
  for (const row of rows) {
    const r = results.get(row.key);
    const ok = r.runs.reduce((n, run) => n + run.ok, 0);
    const wrong = r.runs.reduce((n, run) => n + run.errors, 0);
    const elapsed = r.runs.reduce((n, run) => n + run.elapsedS, 0);
    const latencies = mergeSorted(r.runs.map((run) => run.latencies));
    summary[row.key] = { cpu: (r.toolplaneCpu / ok) * 1e6, p50: quantile(latencies, 0.5), rate: ok / elapsed };
    table.push(`| (${row.key}) ${row.label} | ${ok} | ${wrong} | ${fmt(ok / elapsed, 0)} | ${fmt(quantile(latencies, 0.5), 2)} | ${fmt(quantile(latencies, 0.99), 2)} | ${row.toolplane ? fmt((r.toolplaneCpu / ok) * 1e6, 0) : '—'} | ${row.toolplane ? fmt((r.postgresCpu / ok) * 1e6, 0) : '—'} |`);
  }
  const ratio = (x, y) => fmt(summary[x].cpu / summary[y].cpu, 2);
  const report = [
    '# Per-user upstream credentials: the first call, and what a call costs',
    '',
    `${new Date().toISOString()}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${SECONDS} s per row over ${ROUNDS} rounds; \`npm run bench:credentials\`.`,
    '',
    '## A person’s first call, from no connection to a result',
    '',
    ...lines.map((line) => `- ${line}`),
    '',
    '## A call with the caller’s own token against the shared one',
    '',
    ...table,
    '',
    `Toolplane CPU per call, own OAuth connection ÷ shared token: ${ratio('b', 'a')}; own user secret ÷ shared: ${ratio('c', 'a')}. Latency p50 through Toolplane ÷ direct: ${fmt(summary.a.p50 / summary.d.p50, 2)} (shared), ${fmt(summary.b.p50 / summary.d.p50, 2)} (OAuth), ${fmt(summary.c.p50 / summary.d.p50, 2)} (user secret).`,
    '',
  ].join('\n');
  writeReport(OUT, report, log);
  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
}

main().catch(async (error) => {
  console.error(error);
  killAllNow();
  process.exitCode = 1;
});
