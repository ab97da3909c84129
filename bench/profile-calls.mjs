// CPU profiles of Toolplane's calls alone: `npm run build && node --experimental-websocket bench/profile-calls.mjs`.
// Starts Toolplane (the build in this checkout, or PROFILE_BUILD) with the inspector on loopback,
// registers server-everything over stdio (or the HTTP echo server), warms each target up, and then
// profiles exactly one measured window per target through the inspector (Profiler.start/stop), so
// no start-up and no warm-up is in the profile and the calls it covers are counted. Each profile is
// written to PROFILE_DIR and summarised with bench/profile-summary.mjs, per call and stage by stage.
//
// Settings (environment): PROFILE_UPSTREAM stdio (default) or http, PROFILE_TARGETS (default
// `rest,mcp`: REST invoke and a stateless 2025-era `tools/call` on /mcp; also `mcp-modern`, the
// 2026-07-28 one), PROFILE_CONNECTIONS (default 1), PROFILE_SECONDS (default 10),
// PROFILE_INTERVAL_US (sampling interval, default 100), PROFILE_DIR (default
// bench/results/profiles), PROFILE_BUILD (another built checkout to profile).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout } from 'node:timers';
import { load, target } from './lib/load.mjs';
import { cpuSeconds, freePort, killAllNow, startProcess, stopAll, waitForHttp } from './lib/processes.mjs';
import { LEGACY_HEADERS, legacyToolsCall, modernHeaders, modernToolsCall } from './lib/mcp-requests.mjs';
import { BENCH_ENV, startEchoToolplane } from './lib/echo-toolplane.mjs';

/* global fetch, WebSocket */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BUILD = resolve(process.env.PROFILE_BUILD || ROOT);
const ECHO_FIXTURE = join(ROOT, 'test/fixtures/http-echo-server.mjs');
const UPSTREAM = process.env.PROFILE_UPSTREAM || 'stdio';
if (UPSTREAM !== 'stdio' && UPSTREAM !== 'http') throw new Error('PROFILE_UPSTREAM: stdio or http');
const TARGETS = (process.env.PROFILE_TARGETS || 'rest,mcp').split(',');
const CONNECTIONS = Number(process.env.PROFILE_CONNECTIONS || 1);
const SECONDS = Number(process.env.PROFILE_SECONDS || 10);
const INTERVAL_US = Number(process.env.PROFILE_INTERVAL_US || 100);
const DIR = resolve(process.env.PROFILE_DIR || join(ROOT, 'bench/results/profiles'));
const log = (line) => console.error(`[profile] ${line}`);
if (typeof WebSocket !== 'function') throw new Error('run with node --experimental-websocket (Node.js 20) or Node.js 22+');

const watchdog = setTimeout(
  () => {
    console.error('[profile] took too long: stopping everything');
    killAllNow();
    process.exit(1);
  },
  (TARGETS.length * (SECONDS + 20) + 180) * 1000,
);
watchdog.unref();

const scratch = mkdtempSync(join(tmpdir(), 'toolplane-profile-'));
try {
  const echoed = (body) => body.includes('"result"') && body.includes(UPSTREAM === 'http' ? '"text":"hello"' : 'Echo: hello');
  let upstreamUrl;
  if (UPSTREAM === 'http') {
    const echoPort = await freePort();
    upstreamUrl = `http://127.0.0.1:${echoPort}/mcp`;
    const echo = startProcess('http-echo', process.execPath, [ECHO_FIXTURE, '--port', String(echoPort)], { env: BENCH_ENV, cwd: ROOT });
    await waitForHttp(echo, upstreamUrl, { init: { method: 'POST', headers: { 'content-type': 'application/json', ...LEGACY_HEADERS }, body: JSON.stringify(legacyToolsCall('echo', { message: 'hello' })) } });
  }

  const inspectPort = await freePort();
  const { toolplane, baseUrl, auth } = await startEchoToolplane({
    name: 'toolplane',
    root: BUILD,
    everythingRoot: ROOT,
    scratch,
    dataDir: join(scratch, 'toolplane'),
    nodeArgs: [`--inspect=127.0.0.1:${inspectPort}`],
    upstream: UPSTREAM,
    upstreamUrl,
  });

  const args = { message: 'hello' };
  const all = {
    rest: target('rest', `${baseUrl}/api/v1/tools/echo__echo/invoke`, auth, { arguments: args }, echoed),
    mcp: target('mcp', `${baseUrl}/mcp`, { ...LEGACY_HEADERS, ...auth }, legacyToolsCall('echo__echo', args), echoed),
    'mcp-modern': target('mcp-modern', `${baseUrl}/mcp`, { ...modernHeaders('tools/call', 'echo__echo'), ...auth }, modernToolsCall('echo__echo', args), echoed),
  };
  const inspector = await connectInspector(inspectPort);
  await inspector.send('Profiler.enable');
  await inspector.send('Profiler.setSamplingInterval', { interval: INTERVAL_US });
  mkdirSync(DIR, { recursive: true });

  for (const name of TARGETS) {
    const t = all[name];
    if (!t) throw new Error(`PROFILE_TARGETS: unknown target ${name} (rest, mcp, mcp-modern)`);
    await load(t, { connections: CONNECTIONS, seconds: 5 });
    const cpu0 = cpuSeconds(toolplane.pid);
    await inspector.send('Profiler.start');
    const r = await load(t, { connections: CONNECTIONS, seconds: SECONDS });
    const { profile } = await inspector.send('Profiler.stop');
    const cpu = cpuSeconds(toolplane.pid) - cpu0;
    if (r.errors > 0) throw new Error(`${name}: ${r.errors} errors`);
    const file = join(DIR, `${UPSTREAM}-${name}-c${CONNECTIONS}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    log(`${name}: ${r.ok} calls in ${r.elapsedS.toFixed(1)} s, ${((cpu * 1e6) / r.ok).toFixed(0)} µs of CPU a call under the profiler; ${file}`);
    spawnSync(process.execPath, [join(ROOT, 'bench/profile-summary.mjs'), file, '30', `--calls=${r.ok}`], { stdio: 'inherit' });
  }
  inspector.close();
} finally {
  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
}

/** A minimal Chrome DevTools Protocol session with the process's inspector. */
async function connectInspector(inspectPort) {
  const [{ webSocketDebuggerUrl }] = await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json();
  const socket = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolveOpen, rejectOpen) => {
    socket.addEventListener('open', resolveOpen, { once: true });
    socket.addEventListener('error', rejectOpen, { once: true });
  });
  let nextId = 0;
  const pending = new Map();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.error) waiting.reject(new Error(`${message.error.message}`));
    else waiting.resolve(message.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolveResult, rejectResult) => {
        const id = ++nextId;
        pending.set(id, { resolve: resolveResult, reject: rejectResult });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}
