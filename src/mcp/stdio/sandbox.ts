import { existsSync } from 'node:fs';
import { isAbsolute, normalize } from 'node:path';

/** A source's own sandbox settings. */
export interface SandboxSettings {
  /** May the plugin open network connections (loopback included)? Default true. */
  network?: boolean;
  /** Host paths made visible read-only (beyond what is world-readable already, e.g. under /tmp). */
  readOnlyPaths?: string[];
  /** Host paths the plugin may write to (they must be writable by the sandbox user). */
  writablePaths?: string[];
}

/** How every stdio plugin of this Toolplane is isolated; decided once at start. */
export interface SandboxPolicy {
  bwrapPath: string;
  /** Paths no plugin may see (Toolplane's data directory): a fresh empty tmpfs over each. */
  hiddenPaths: string[];
  /** Switch to this user and group inside the sandbox (set when Toolplane runs as root). */
  runAs?: { uid: number; gid: number };
}

/** What to run: the command, its arguments, working directory and complete environment. */
export interface Launch {
  command: string;
  args: string[];
  cwd?: string;
  env: Record<string, string>;
}

/** What the plugin is known to need to see, besides its settings: its directory, cwd, command and path arguments. */
export interface LaunchContext {
  pluginDir?: string;
  settings?: SandboxSettings;
  /** Names of the variables the source declares itself (a declared HOME or TMPDIR is kept). */
  declaredEnv?: readonly string[];
}

/** The private writable directory every sandboxed plugin gets (and its HOME unless the source sets one). */
export const SANDBOX_TMP = '/tmp';

/**
 * The same launch, run under bubblewrap:
 * - the host's root read-only (`--ro-bind / /`), a fresh /dev, a private /tmp;
 * - new PID, IPC and UTS namespaces with a fresh /proc: Toolplane's processes are invisible;
 *   the namespace's init dies with bwrap, and the kernel then kills every process in it,
 *   `setsid` descendants included; bwrap itself dies with Toolplane (`--die-with-parent`);
 * - Toolplane's data directory under an empty tmpfs, mounted last so no added path can reveal it;
 * - as root: every capability dropped except those `setpriv` needs to become the unprivileged
 *   user, which then clears groups, the bounding and inheritable sets (no_new_privs is set by bwrap);
 * - no network namespace of its own unless the source turns networking off.
 * Paths under /tmp that the plugin needs (its directory, cwd, command, path arguments) are bound
 * read-only, since the private /tmp hides the host's.
 */
export function sandboxedLaunch(policy: SandboxPolicy, launch: Launch, context: LaunchContext = {}): Launch {
  const settings = context.settings ?? {};
  // The private /tmp is world-writable and sticky like a real one (bwrap's default tmpfs is 0755 root).
  const args: string[] = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--perms', '1777', '--tmpfs', SANDBOX_TMP];
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--die-with-parent');
  if (settings.network === false) args.push('--unshare-net');

  const bound: string[] = [];
  for (const bind of binds(launch, context)) {
    // Inside the private /tmp, bwrap would create the missing parents 0700 root: unreachable for the sandbox user.
    for (const parent of parentsToCreate(bind.path, bound)) args.push('--perms', '0755', '--dir', parent);
    args.push(bind.writable ? '--bind' : '--ro-bind', bind.path, bind.path);
    bound.push(bind.path);
  }
  // A path that does not exist on the host needs no hiding (and bwrap could not mount over it).
  for (const hidden of policy.hiddenPaths) if (existsSync(hidden)) args.push('--tmpfs', hidden);
  if (launch.cwd) args.push('--chdir', launch.cwd);

  const env = { ...launch.env };
  // Toolplane's HOME and TMPDIR are not the plugin's to write to.
  const declared = new Set(context.declaredEnv ?? []);
  if (!declared.has('HOME')) env.HOME = SANDBOX_TMP;
  if (!declared.has('TMPDIR')) env.TMPDIR = SANDBOX_TMP;

  if (policy.runAs) {
    const { uid, gid } = policy.runAs;
    args.push('--cap-drop', 'ALL', '--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_SETPCAP');
    args.push('--', 'setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--');
  } else {
    args.push('--');
  }
  args.push(launch.command, ...launch.args);
  return { command: policy.bwrapPath, args, cwd: launch.cwd, env };
}

interface Bind {
  path: string;
  writable: boolean;
}

/** Every path to bind, outer before inner so nested binds layer as intended; a path given writable wins. */
function binds(launch: Launch, context: LaunchContext): Bind[] {
  const settings = context.settings ?? {};
  const byPath = new Map<string, boolean>();
  const add = (path: string | undefined, writable: boolean) => {
    if (!path || !isAbsolute(path) || path.includes('\0')) return;
    const clean = trimSlash(normalize(path));
    if (clean === '/') return;
    byPath.set(clean, writable || (byPath.get(clean) ?? false));
  };
  // Derived paths only when they exist: a mount point bwrap cannot create would fail the start.
  const derived = [context.pluginDir, launch.cwd, launch.command, ...launch.args].filter((path): path is string => {
    return typeof path === 'string' && isAbsolute(path) && underPrivateTmp(path) && existsSync(path);
  });
  for (const path of derived) add(path, false);
  for (const path of settings.readOnlyPaths ?? []) add(path, false);
  for (const path of settings.writablePaths ?? []) add(path, true);
  return [...byPath]
    .map(([path, writable]) => ({ path, writable }))
    .sort((a, b) => depth(a.path) - depth(b.path) || a.path.localeCompare(b.path));
}

/** The ancestors of `path` strictly inside the private /tmp that no earlier bind (or created dir) provides. */
function parentsToCreate(path: string, bound: string[]): string[] {
  if (!underPrivateTmp(path)) return [];
  const parents: string[] = [];
  const parts = path.split('/');
  for (let i = 3; i < parts.length; i++) {
    const parent = parts.slice(0, i).join('/');
    if (bound.some((done) => parent === done || parent.startsWith(`${done}/`))) continue;
    parents.push(parent);
    bound.push(parent);
  }
  return parents;
}

function underPrivateTmp(path: string): boolean {
  const clean = normalize(path);
  return clean === SANDBOX_TMP || clean.startsWith(`${SANDBOX_TMP}/`);
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function depth(path: string): number {
  return path.split('/').length;
}
