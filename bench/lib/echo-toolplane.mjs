// A Toolplane of a built checkout on a fresh embedded database, with one source registered: `echo`
// (server-everything over stdio, a singleton, or the HTTP echo at `upstreamUrl`) or one of the
// benchmark's own. For the benchmarks that put one call path beside a baseline (floor.mjs,
// profile-calls.mjs, interceptors.mjs).
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api } from './api.mjs';
import { freePort, startProcess, waitForHttp } from './processes.mjs';

/** The environment of the benchmarks' processes: nothing of the shell's but PATH and HOME. */
export const BENCH_ENV = { PATH: process.env.PATH, HOME: process.env.HOME ?? tmpdir(), NODE_ENV: 'production' };

const EVERYTHING_PATH = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';

/**
 * `root`: the checkout whose dist/src/main.js runs (server-everything is taken from `everythingRoot`,
 * default `root`); `dataDir` under `scratch`; `nodeArgs` before the script (a profiler, an inspector).
 */
export async function startEchoToolplane({ name, root, everythingRoot = root, scratch, dataDir, nodeArgs = [], upstream, upstreamUrl }) {
  const source =
    upstream === 'http'
      ? { name: 'echo', transport: 'streamable-http', url: upstreamUrl }
      : { name: 'echo', transport: 'stdio', lifecycle: 'singleton', command: process.execPath, args: [join(everythingRoot, EVERYTHING_PATH), 'stdio'] };
  return startToolplane({ name, root, scratch, dataDir, nodeArgs, source });
}

/** The same with `source` (the body of `POST /api/v1/sources`) as its one source; `env` adds to its environment. */
export async function startToolplane({ name, root, scratch, dataDir, nodeArgs = [], env = {}, source }) {
  const port = await freePort();
  const adminKey = randomBytes(24).toString('base64url').slice(0, 32);
  mkdirSync(dataDir, { recursive: true });
  chmodSync(scratch, 0o711);
  const toolplane = startProcess(name, process.execPath, [...nodeArgs, join(root, 'dist/src/main.js')], {
    env: { ...BENCH_ENV, PORT: String(port), HOST: '127.0.0.1', TOOLPLANE_DATA_DIR: dataDir, TOOLPLANE_ADMIN_KEY: adminKey, LOG_LEVEL: 'warn', TOOLPLANE_REFRESH_TICK_MS: '3600000', ...env },
    cwd: root,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(toolplane, `${baseUrl}/health/ready`);
  const registered = await api(baseUrl, adminKey, 'POST', '/api/v1/sources', { ...source, maxConcurrency: 256, refreshIntervalSeconds: 0 });
  if (registered.status >= 300) throw new Error(`registering the ${source.name} source answered ${registered.status}: ${registered.text.slice(0, 500)}`);
  return { toolplane, baseUrl, adminKey, auth: { authorization: `Bearer ${adminKey}` } };
}
