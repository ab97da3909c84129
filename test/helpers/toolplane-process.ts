import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from './upstreams.js';

export const MAIN = resolve(ROOT, 'dist/src/main.js');
/** The built CLI, whose `serve` runs Toolplane as `npx toolplane serve` does. */
export const CLI = resolve(ROOT, 'dist/src/cli/main.js');

export interface SpawnOptions {
  /** What node runs (default: `dist/src/main.js`, as `npm start`). */
  entry?: string[];
  /** Its own process group, as a shell starts a foreground job: signal it all with `process.kill(-pid, signal)`. */
  detached?: boolean;
  /** Its working directory (default: this process's). */
  cwd?: string;
}

export interface ToolplaneProcess {
  url: string;
  /** Start to ready, as Toolplane logged it. */
  readyMs: number;
  child: ChildProcess;
  /** Everything it logged so far (stdout and stderr). */
  logs(): string;
  /** SIGTERM, then wait for the exit code (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<number | null>;
}

/**
 * Runs the built Toolplane (`dist/src/main.js`, as `npm start` does, unless `options.entry` says
 * otherwise) with the given environment (and in `options.cwd`, else this process's directory) and
 * waits for its "ready" log line. The environment is exactly `env` plus PATH and HOME.
 */
export async function spawnToolplane(env: Record<string, string>, options: SpawnOptions = {}): Promise<ToolplaneProcess> {
  const entry = options.entry ?? [MAIN];
  if (!existsSync(entry[0]!)) throw new Error(`${entry[0]} is missing: run "npm run build" first (npm test does)`);
  const child = spawn(process.execPath, entry, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: '0', LOG_LEVEL: 'debug', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached === true,
  });
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 8 * 1024 * 1024) output = output.slice(-4 * 1024 * 1024);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  let exitSignal: NodeJS.Signals | null = null;
  const exited = new Promise<number | null>((done) =>
    child.once('close', (code, signal) => {
      exitSignal = signal;
      done(code);
    }),
  );

  const ready = await new Promise<{ url: string; ms: number }>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`Toolplane did not get ready in 60 s:\n${output.slice(-4000)}`)), 60_000);
    const check = () => {
      const match = /Toolplane ready on (http:\/\/[^\s]+) in (\d+) ms/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolveReady({ url: match[1]!, ms: Number(match[2]) });
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`Toolplane exited (code ${code}, signal ${exitSignal}) before it was ready:\n${output.slice(-4000)}`));
    });
  });

  return {
    url: ready.url,
    readyMs: ready.ms,
    child,
    logs: () => output,
    stop: async (graceMs = 20_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
