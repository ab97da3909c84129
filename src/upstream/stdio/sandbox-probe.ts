import { spawnSync } from 'node:child_process';
import type { SandboxMode } from '../../config/app-config.js';
import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildChildEnvironment } from './child-environment.js';
import { sandboxedLaunch, type SandboxPolicy } from './sandbox.js';


export interface SandboxOptions {
  mode: SandboxMode;
  bwrapPath: string;
  /** Toolplane's data directory: keys, credentials, the database cluster. */
  dataDir: string;
  uid: number;
  gid: number;
  /** Toolplane's effective uid (0 = root: plugins are switched to uid/gid). */
  currentUid: number;
  platform?: NodeJS.Platform;
}

/** Whether stdio plugins run sandboxed, and if not, why and what would sandbox them. */
export type SandboxStatus = { enabled: true; policy: SandboxPolicy } | { enabled: false; reason: string; fix: string };

/** What running plugins without a sandbox exposes. */
export const UNSANDBOXED_WARNING = "stdio plugins run as Toolplane's own user, unisolated: they can read what it can, its keys and database credentials included";

const INSTALL_FIX = 'install bubblewrap on the server (apt-get install bubblewrap) and restart Toolplane';
const NAMESPACES_FIX =
  'let bubblewrap create namespaces (unprivileged user namespaces enabled; in a container, a seccomp/AppArmor profile that allows them) and restart Toolplane';

/** Injection token for the SandboxStatus decided at start. */
export const SANDBOX_STATUS = Symbol('SANDBOX_STATUS');

export class SandboxUnavailableError extends Error {
  constructor(reason: string) {
    super(`TOOLPLANE_SANDBOX=required, but no sandbox is available: ${reason}`);
    this.name = 'SandboxUnavailableError';
  }
}

const PROBE_TIMEOUT_MS = 10_000;

/**
 * Decides once, at start, how plugins run: with `auto` or `required`, bubblewrap is tried for
 * real (a sandboxed `true` with the very arguments plugins get), since a present binary may still
 * be unusable (no user namespaces, a seccomp profile, a container without the privileges).
 * `required` turns an unavailable sandbox into an error; `auto` into `enabled: false`.
 */
export function decideSandbox(options: SandboxOptions): SandboxStatus {
  if (options.mode === 'off') {
    return { enabled: false, reason: 'TOOLPLANE_SANDBOX=off', fix: 'unset TOOLPLANE_SANDBOX (or set it to auto, or required to refuse to start without a sandbox), with bubblewrap installed, and restart Toolplane' };
  }
  const status = probe(options);
  if (!status.enabled && options.mode === 'required') throw new SandboxUnavailableError(status.reason);
  return status;
}

/** The policy plugins get under these options (without checking that bubblewrap works). */
export function sandboxPolicy(options: SandboxOptions): SandboxPolicy {
  const dataDir = resolve(options.dataDir);
  const hidden = new Set([dataDir]);
  // Hide the directory under its real name too, should it be reached through a symlink.
  if (existsSync(dataDir)) hidden.add(realpathSync(dataDir));
  return {
    bwrapPath: options.bwrapPath,
    hiddenPaths: [...hidden],
    runAs: options.currentUid === 0 ? { uid: options.uid, gid: options.gid } : undefined,
  };
}

function probe(options: SandboxOptions): SandboxStatus {
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux') {
    return { enabled: false, reason: `bubblewrap sandboxing needs Linux (this is ${platform})`, fix: 'run Toolplane on Linux with bubblewrap, or treat every plugin as trusted code' };
  }
  if (!existsSync(options.bwrapPath)) return { enabled: false, reason: `${options.bwrapPath} not found (install the bubblewrap package)`, fix: INSTALL_FIX };
  const policy = sandboxPolicy(options);
  const launch = sandboxedLaunch(policy, { command: 'true', args: [], env: buildChildEnvironment({}) });
  const result = spawnSync(launch.command, launch.args, { env: launch.env, timeout: PROBE_TIMEOUT_MS, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.error) return { enabled: false, reason: `${options.bwrapPath} could not run: ${result.error.message}`, fix: INSTALL_FIX };
  if (result.status !== 0) {
    const stderr = (result.stderr ?? '').trim().slice(0, 500);
    return { enabled: false, reason: `${options.bwrapPath} failed a trial run (${result.signal ?? `exit ${result.status}`})${stderr ? `: ${stderr}` : ''}`, fix: NAMESPACES_FIX };
  }
  return { enabled: true, policy };
}
