// `npm run build && node bench/sandbox-startup.mjs`: what the plugin sandbox costs a transient call.
// A transient stdio source starts one process per call: connect (spawn + MCP handshake), one
// `tools/call`, close (the process group is killed and reaped). This runs exactly that path of
// Toolplane's MCP client (dist/src/upstream/client-factory.js) against the hand-written hostile fixture's
// smallest tool, with the sandbox (bubblewrap, as Toolplane would set it up here) and without,
// interleaved call by call in the same run. Reports ms per call (p50/p95/mean) and the CPU this
// process (Toolplane's side) spends per call.
//
// Settings (environment): SANDBOX_BENCH_CALLS per mode (default 200), SANDBOX_BENCH_OUT (a markdown
// file to write; default: print only).
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { connectUpstream } = await import(join(ROOT, 'dist/src/upstream/client-factory.js'));
const { Deadline } = await import(join(ROOT, 'dist/src/upstream/deadline.js'));
const { decideSandbox } = await import(join(ROOT, 'dist/src/upstream/stdio/sandbox-probe.js'));

const CALLS = Number(process.env.SANDBOX_BENCH_CALLS ?? 200);
const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
const status = decideSandbox({ mode: 'required', bwrapPath: '/usr/bin/bwrap', dataDir, uid: 65534, gid: 65534, currentUid: process.getuid() });

const target = {
  sourceId: 'bench',
  sourceName: 'bench',
  transport: 'stdio',
  lifecycle: 'transient',
  command: process.execPath,
  args: [join(ROOT, 'test/fixtures/hostile-server.mjs'), 'sandbox-bench'],
  env: { HOSTILE_TOOLS: 'slow' },
  headers: {},
  secrets: [],
  era: 'legacy',
};

const CLK_TCK = 100;
/** CPU seconds of this process (/proc/self/stat utime + stime). */
function cpuSeconds() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return { self: (Number(fields[11]) + Number(fields[12])) / CLK_TCK };
}

async function oneCall(sandbox) {
  const deadline = new Deadline(30_000);
  const started = performance.now();
  const connection = await connectUpstream(target, deadline, { stdio: sandbox ? { sandbox: status.policy } : {} });
  try {
    const result = await connection.client.callTool({ name: 'slow', arguments: { ms: 0 } });
    if (result.content?.[0]?.text !== 'slow done') throw new Error(`unexpected result ${JSON.stringify(result)}`);
  } finally {
    await connection.close();
    deadline.dispose();
  }
  return performance.now() - started;
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const modes = { off: { ms: [], cpu: 0 }, on: { ms: [], cpu: 0 } };
try {
  if (!status.enabled) throw new Error(`no sandbox here: ${status.reason}`);
  for (let i = 0; i < 10; i++) await oneCall(i % 2 === 0); // warm-up
  for (let i = 0; i < CALLS * 2; i++) {
    const mode = i % 2 === 0 ? 'on' : 'off';
    const before = cpuSeconds();
    modes[mode].ms.push(await oneCall(mode === 'on'));
    const after = cpuSeconds();
    // Only this process's own CPU: a sandboxed plugin is reaped inside its PID namespace, so its CPU never
    // reaches this process's children counters (comparing them would flatter the sandbox).
    modes[mode].cpu += after.self - before.self;
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const rows = ['on', 'off'].map((mode) => [mode, modes[mode]]).map(([mode, { ms, cpu }]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  return { mode, p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), mean, cpuMs: (cpu / ms.length) * 1000 };
});
const f = (n) => n.toFixed(1);
const table = [
  `Transient stdio call (spawn, MCP initialize, tools/call, close), ${CALLS} calls per mode, interleaved;`,
  `${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end, uid ${process.getuid()}.`,
  '',
  '| sandbox | p50 ms | p95 ms | mean ms | Toolplane-side CPU ms per call |',
  '|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.mode} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.mean)} | ${f(r.cpuMs)} |`),
  '',
  `Sandbox cost per call: p50 +${f(rows[0].p50 - rows[1].p50)} ms, p95 +${f(rows[0].p95 - rows[1].p95)} ms, CPU +${f(rows[0].cpuMs - rows[1].cpuMs)} ms.`,
].join('\n');
console.log(table);
if (process.env.SANDBOX_BENCH_OUT) writeFileSync(process.env.SANDBOX_BENCH_OUT, `${table}\n`);
