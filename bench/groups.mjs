// `node bench/groups.mjs`: what serving a tool group costs beside the whole catalog, in one run,
// interleaved, on one Toolplane (server-everything over stdio as its `echo` source, a singleton):
// `tools/list` and `tools/call` (stateless 2025-era requests) on `/mcp` and on `/mcp/groups/{name}`
// of a group that selects every tool of the source (the same tools, under their upstream names),
// and a call of a group's renamed tool whose argument is locked. Needs `npm run build`. See
// docs/performance.md.
//
// Settings (environment): GROUPS_SECONDS measured seconds per target (default 8, split over the
// passes), GROUPS_CONNECTIONS (default 1), GROUPS_ROUNDS (default 1: one pass over the targets and
// one back), GROUPS_OUT (default bench/results/groups.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api } from './lib/api.mjs';
import { startEchoToolplane } from './lib/echo-toolplane.mjs';
import { load, mergeSorted, quantile, target } from './lib/load.mjs';
import { fmt, writeReport } from './lib/report-file.mjs';
import { LEGACY_HEADERS, legacyToolsCall } from './lib/mcp-requests.mjs';
import { cpuSeconds, stopAll } from './lib/processes.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.env.GROUPS_SECONDS || 8);
const CONNECTIONS = Number(process.env.GROUPS_CONNECTIONS || 1);
const ROUNDS = Number(process.env.GROUPS_ROUNDS || 1);
const OUT = resolve(process.env.GROUPS_OUT || join(ROOT, 'bench/results/groups.md'));
const log = (line) => console.log(`[groups] ${line}`);

const scratch = mkdtempSync(join(tmpdir(), 'toolplane-groups-'));
try {
  const { toolplane, baseUrl, adminKey, auth } = await startEchoToolplane({ name: 'toolplane', root: ROOT, scratch, dataDir: join(scratch, 'toolplane') });
  for (const group of [
    { name: 'everything', select: [{ sources: ['echo'] }] },
    { name: 'support', include: ['echo__echo'], overrides: { echo__echo: { name: 'say', description: 'Says the fixed phrase back', locked: { message: 'hello' } } } },
  ]) {
    const created = await api(baseUrl, adminKey, 'POST', '/api/v1/groups', group);
    if (created.status !== 201) throw new Error(`creating group ${group.name} answered ${created.status}: ${created.text.slice(0, 500)}`);
  }
  const headers = { ...LEGACY_HEADERS, ...auth };
  const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
  const listed = (body) => body.includes('"tools"') && body.includes('echo');
  const echoed = (body) => body.includes('"result"') && body.includes('Echo: hello');
  const pid = { pid: toolplane.pid };
  const targets = [
    { ...target('/mcp tools/list', `${baseUrl}/mcp`, headers, list, listed), ...pid, kind: 'list' },
    { ...target('/mcp/groups/everything tools/list', `${baseUrl}/mcp/groups/everything`, headers, list, listed), ...pid, kind: 'list' },
    { ...target('/mcp tools/call echo__echo', `${baseUrl}/mcp`, headers, legacyToolsCall('echo__echo', { message: 'hello' }), echoed), ...pid, kind: 'call' },
    { ...target('/mcp/groups/everything tools/call echo', `${baseUrl}/mcp/groups/everything`, headers, legacyToolsCall('echo', { message: 'hello' }), echoed), ...pid, kind: 'call' },
    { ...target('/mcp/groups/support tools/call say (locked message)', `${baseUrl}/mcp/groups/support`, headers, legacyToolsCall('say', {}), echoed), ...pid, kind: 'call' },
  ];

  const passes = Array.from({ length: ROUNDS * 2 }, (_, i) => (i % 2 === 0 ? targets : [...targets].reverse()));
  log(`${targets.length} targets at ${CONNECTIONS} connection(s), ${SECONDS} s each in ${passes.length} passes, interleaved`);
  for (const t of targets) await load(t, { connections: CONNECTIONS, seconds: 2 });
  const results = new Map(targets.map((t) => [t.name, { calls: 0, seconds: 0, latencies: [], cpu: 0, rates: [] }]));
  for (const order of passes) {
    for (const t of order) {
      await load(t, { connections: CONNECTIONS, seconds: 1 });
      const cpu0 = cpuSeconds(t.pid);
      const r = await load(t, { connections: CONNECTIONS, seconds: SECONDS / passes.length });
      const acc = results.get(t.name);
      acc.cpu += cpuSeconds(t.pid) - cpu0;
      acc.calls += r.ok;
      acc.seconds += r.elapsedS;
      acc.latencies.push(r.latencies);
      acc.rates.push(r.ok / r.elapsedS);
      if (r.errors > 0) throw new Error(`${t.name}: ${r.errors} errors`);
    }
  }

  const p50Of = (acc) => quantile(mergeSorted(acc.latencies), 0.5);
  const baseOf = (t) => results.get(t.kind === 'list' ? targets[0].name : targets[2].name);
  const rows = targets.map((t) => {
    const acc = results.get(t.name);
    const base = baseOf(t);
    const cpu = (acc.cpu * 1e6) / acc.calls;
    return `| ${t.name} | ${fmt(acc.calls / acc.seconds, 0)} (${fmt(Math.min(...acc.rates), 0)}–${fmt(Math.max(...acc.rates), 0)}) | ${fmt(p50Of(acc), 3)} | ${fmt(p50Of(acc) - p50Of(base), 3)} | ${fmt(cpu, 0)} | ${fmt(cpu - (base.cpu * 1e6) / base.calls, 0)} |`;
  });
  const report = [
    `# Serving a tool group beside the whole catalog (${new Date().toISOString().slice(0, 16)} UTC, ${cpus().length} cores, Node.js ${process.version})`,
    '',
    `server-everything over stdio as the \`echo\` source; stateless 2025-era requests, ${CONNECTIONS} connection(s), ${SECONDS} s per target in ${passes.length} interleaved passes.`,
    '"CPU" is the user+system CPU of Toolplane per request; "added" is against `/mcp` for the same method.',
    '',
    '| target | requests/s (passes) | p50 ms | added p50 ms | CPU µs/request | added CPU µs |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  writeReport(OUT, report, log);
} finally {
  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
}
