import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const EVERYTHING = resolve(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const MEMORY_DIR = resolve(ROOT, 'node_modules/@modelcontextprotocol/server-memory');
export const FIXTURES = resolve(ROOT, 'test/fixtures');
/**
 * The tools server-everything lists to Toolplane: 13 to any client, plus trigger-sampling-request
 * and trigger-elicitation-request, which it registers for a client that declares sampling and
 * elicitation (Toolplane's 2025-era connections do).
 */
export const EVERYTHING_TOOL_COUNT = 15;
/** Those agents are offered: all of them (simulate-research-query, which must run as a task, is called as one upstream). */
export const EVERYTHING_CALLABLE_COUNT = EVERYTHING_TOOL_COUNT;

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface RunningUpstream {
  port: number;
  url: string;
  stop(): Promise<void>;
}

/** Starts an HTTP MCP server as its own process group and waits until it accepts connections. */
export async function startHttpUpstream(
  args: string[] | ((port: number) => string[]),
  path: string,
  env: Record<string, string> = {},
  /** A fixed port, e.g. to restart an upstream where its clients expect it. */
  fixedPort?: number,
): Promise<RunningUpstream> {
  const port = fixedPort ?? (await freePort());
  const child = spawn(process.execPath, typeof args === 'function' ? args(port) : args, {
    env: { PATH: process.env.PATH ?? '', PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  await waitForPort(port, child, () => stderr);
  return { port, url: `http://127.0.0.1:${port}${path}`, stop: () => stopGroup(child) };
}

export function startEverythingHttp(mode: 'streamableHttp' | 'sse'): Promise<RunningUpstream> {
  return startHttpUpstream([EVERYTHING, mode], mode === 'sse' ? '/sse' : '/mcp');
}

async function waitForPort(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`upstream exited with ${child.exitCode}: ${stderr()}`);
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), done(true)));
      socket.once('error', () => done(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  await stopGroup(child);
  throw new Error(`upstream did not listen on ${port}: ${stderr()}`);
}

export async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 2000);
  await exited;
  clearTimeout(timer);
}

export interface CountingProxy {
  url: string;
  /** Requests that arrived, whatever became of them. */
  count(): number;
  /** Cuts every connection open now, the client's and the upstream's side alike (an idle timeout, a proxy restarting); it keeps listening. */
  sever(): void;
  stop(): Promise<void>;
}

/** A loopback HTTP proxy in front of an upstream port, counting the requests that reach it. */
export async function startCountingProxy(upstreamPort: number, path = '/mcp'): Promise<CountingProxy> {
  const { createServer: createHttpServer, request } = await import('node:http');
  let count = 0;
  const server = createHttpServer((req, res) => {
    count += 1;
    const forward = request(
      { host: '127.0.0.1', port: upstreamPort, path: req.url, method: req.method, headers: req.headers },
      (upstream) => {
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(res);
      },
    );
    forward.on('error', () => {
      if (res.destroyed) return;
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('upstream down');
    });
    // The client gone, the upstream learns it too.
    res.on('close', () => forward.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    count: () => count,
    sever: () => server.closeAllConnections(),
    stop: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
