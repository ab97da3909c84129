import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UpstreamTarget } from '../../src/modules/sources/domain/upstream.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export const paths = {
  everything: join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
  memory: join(root, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js'),
  changingInventory: join(root, 'test/fixtures/changing-inventory-server.mjs'),
  modern: join(root, 'test/fixtures/modern-server.mjs'),
  crashing: join(root, 'test/fixtures/crashing-server.mjs'),
  faulty: join(root, 'test/fixtures/faulty-server.mjs'),
  httpEcho: join(root, 'test/fixtures/http-echo-server.mjs'),
  banner: join(root, 'test/fixtures/banner-server.mjs'),
  hanging: join(root, 'test/fixtures/hanging-server.mjs'),
};

/** A unique argument to recognise the processes one test started (`ps` shows it; servers ignore it). */
export function processTag(): string {
  return `toolplane-test-${randomUUID()}`;
}

let sourceCounter = 0;

export function stdioTarget(command: string, args: string[], overrides: Partial<UpstreamTarget> = {}): UpstreamTarget {
  sourceCounter++;
  return {
    sourceId: `source-${sourceCounter}`,
    sourceName: `source ${sourceCounter}`,
    transport: 'stdio',
    lifecycle: 'transient',
    command,
    args,
    env: {},
    headers: {},
    ...overrides,
    secrets: overrides.secrets ?? [],
  };
}

export function remoteTarget(transport: 'streamable-http' | 'sse', url: string, overrides: Partial<UpstreamTarget> = {}): UpstreamTarget {
  sourceCounter++;
  return {
    sourceId: `source-${sourceCounter}`,
    sourceName: `source ${sourceCounter}`,
    transport,
    lifecycle: 'transient',
    args: [],
    env: {},
    url,
    headers: {},
    ...overrides,
    secrets: overrides.secrets ?? [],
  };
}

/** Pids of running processes whose command line contains `fragment` (ignoring `ps` itself). */
export function processesMatching(fragment: string): number[] {
  const output = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' });
  return output
    .split('\n')
    .filter((line) => line.includes(fragment) && !line.includes('ps -eo'))
    .map((line) => Number.parseInt(line.trim(), 10))
    .filter((pid) => Number.isInteger(pid) && pid !== process.pid);
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

export const freePort = closedPort;

export interface RunningServer {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts an HTTP MCP server process and waits until its port accepts connections. */
export async function startHttpServer(args: string[], env: Record<string, string> = {}, port?: number): Promise<RunningServer> {
  const listenPort = port ?? (await freePort());
  const child = spawn(process.execPath, args.map((arg) => arg.replace('{port}', String(listenPort))), {
    env: { ...process.env, ...env, PORT: String(listenPort) },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      await exited;
    }
  };
  const deadline = Date.now() + 15_000;
  while (!(await accepts(listenPort))) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${stderr}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server did not listen on ${listenPort}: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { port: listenPort, child, stop };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface Scratch {
  dir: string;
  file(name: string): string;
  write(name: string, content: unknown): string;
  lines(name: string): string[];
  remove(): void;
}

export function scratchDir(): Scratch {
  const dir = mkdtempSync(join(tmpdir(), 'toolplane-mcp-'));
  return {
    dir,
    file: (name) => join(dir, name),
    write: (name, content) => {
      const path = join(dir, name);
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
      return path;
    },
    lines: (name) => {
      const path = join(dir, name);
      return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function tool(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, description: `the ${name} tool`, inputSchema: { type: 'object', properties: {} }, ...extra };
}

/** Waits until `condition` holds (processes take a moment to disappear from the table). */
export async function eventually(condition: () => boolean, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return condition();
}
