import { closeSync, constants, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, resolve } from 'node:path';

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
  /** The source's persistent home on the host: bound writable at the same path, after the hidden paths, and HOME. */
  home?: string;
}

/** The private writable directory every sandboxed plugin gets (and TMPDIR unless the source sets one). */
export const SANDBOX_TMP = '/tmp';

/** Added to the error of a sandboxed plugin that ended before it answered anything. */
export const SANDBOX_START_NOTE =
  "it ran in the plugin sandbox, which shows it the host's files read-only and, of /tmp, only its package root, cwd and pluginDir: " +
  "list any other path it needs in the source's sandbox.readOnlyPaths, or in sandbox.writablePaths to write there";

/**
 * The same launch, run under bubblewrap:
 * - the host's root read-only (`--ro-bind / /`), a fresh /dev, a private /tmp;
 * - new PID, IPC and UTS namespaces with a fresh /proc: Toolplane's processes are invisible;
 *   the namespace's init dies with bwrap, and the kernel then kills every process in it,
 *   `setsid` descendants included; bwrap itself dies with Toolplane (`--die-with-parent`);
 * - Toolplane's data directory under an empty tmpfs, mounted after every bind so no added path
 *   can reveal it; only the source's own home is bound into it afterwards;
 * - as root: every capability dropped except those `setpriv` needs to become the unprivileged
 *   user, which then clears groups, the bounding and inheritable sets (no_new_privs is set by bwrap);
 * - no network namespace of its own unless the source turns networking off.
 * What the plugin's files need under /tmp (see pluginPaths; relative paths are taken from the
 * launch's cwd) is bound read-only, since the private /tmp hides the host's.
 */
export function sandboxedLaunch(policy: SandboxPolicy, launch: Launch, context: LaunchContext = {}): Launch {
  const settings = context.settings ?? {};
  // The private /tmp is world-writable and sticky like a real one (bwrap's default tmpfs is 0755 root).
  const args: string[] = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--perms', '1777', '--tmpfs', SANDBOX_TMP];
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--die-with-parent');
  if (settings.network === false) args.push('--unshare-net');

  const bound: string[] = [];
  const created = new Set<string>();
  for (const bind of binds(launch, context)) {
    // Inside the private /tmp, bwrap would create the missing parents 0700 root: unreachable for the sandbox user.
    args.push(...makeParents(bind.path, SANDBOX_TMP, bound, created));
    args.push(bind.writable ? '--bind' : '--ro-bind', bind.path, bind.path);
    bound.push(bind.path);
  }
  // A path that does not exist on the host needs no hiding (and bwrap could not mount over it).
  const hidden = policy.hiddenPaths.filter((path) => existsSync(path));
  for (const path of hidden) args.push('--tmpfs', path);
  const home = cleanPath(context.home);
  if (home) {
    const within = hidden.find((path) => home.startsWith(`${path}/`));
    if (within) args.push(...makeParents(home, within, [], new Set()));
    args.push('--bind', home, home);
  }
  if (launch.cwd) args.push('--chdir', launch.cwd);

  const env = { ...launch.env };
  // Toolplane's HOME and TMPDIR are not the plugin's to write to.
  const declared = new Set(context.declaredEnv ?? []);
  if (!declared.has('HOME')) env.HOME = home ?? SANDBOX_TMP;
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

/**
 * Every path to bind, outer before inner so nested binds layer as intended; a path given writable
 * wins. What the launch names under /tmp brings what it needs (pluginPaths), unless a path the
 * source lists already covers it: the source's own settings decide there.
 */
function binds(launch: Launch, context: LaunchContext): Bind[] {
  const settings = context.settings ?? {};
  const byPath = new Map<string, boolean>();
  const add = (path: string | undefined, writable: boolean) => {
    const clean = cleanPath(path);
    if (clean) byPath.set(clean, writable || (byPath.get(clean) ?? false));
  };
  for (const path of settings.readOnlyPaths ?? []) add(path, false);
  for (const path of settings.writablePaths ?? []) add(path, true);
  const listed = [...byPath.keys()];
  // Relative paths name files under the working directory; derived paths only when they exist
  // (a mount point bwrap cannot create would fail the start).
  const cwd = cleanPath(launch.cwd);
  const named = [context.pluginDir, launch.cwd, launch.command, ...launch.args]
    .map((path) => (path && !isAbsolute(path) && cwd ? resolve(cwd, path) : path))
    .filter((path): path is string => typeof path === 'string' && isAbsolute(path) && !path.includes('\0') && underPrivateTmp(path) && existsSync(path));
  const derived = [...new Set(named.flatMap(pluginPaths))];
  for (const path of derived) {
    const covered = [...listed, ...derived].some((other) => other !== path && path.startsWith(`${other}/`));
    if (!covered && !byPath.has(path)) byPath.set(path, false);
  }
  return [...byPath]
    .map(([path, writable]) => ({ path, writable }))
    .sort((a, b) => depth(a.path) - depth(b.path) || a.path.localeCompare(b.path));
}

/**
 * What a path the launch names needs to be usable in the sandbox: its package root (the nearest
 * package.json naming a package at or above it, else the nearest package.json, else its own
 * directory), which holds its sibling modules, and the `node_modules` directories Node resolves
 * its dependencies from. Only paths under the private /tmp, never /tmp itself.
 */
function pluginPaths(path: string): string[] {
  const start = isDirectory(path) ? trimSlash(normalize(path)) : dirname(normalize(path));
  const paths: string[] = [];
  let named: string | undefined;
  let unnamed: string | undefined;
  for (let dir = start; dir !== SANDBOX_TMP && underPrivateTmp(dir); dir = dirname(dir)) {
    if (!named) {
      const manifest = packageManifest(join(dir, 'package.json'));
      if (manifest === 'named') named = dir;
      else if (manifest === 'unnamed') unnamed ??= dir;
    }
    if (isDirectory(join(dir, 'node_modules'))) paths.push(join(dir, 'node_modules'));
  }
  paths.push(named ?? unnamed ?? start);
  return paths.filter((candidate) => candidate !== SANDBOX_TMP);
}

/** Larger package.json files are not read (they still mark a package, an unnamed one). */
const MANIFEST_READ_LIMIT = 64 * 1024;

/** Whether `file` is a package.json, and whether it names its package (a string `name`). */
function packageManifest(file: string): 'named' | 'unnamed' | undefined {
  let fd: number;
  try {
    // Non-blocking: a FIFO planted under that name must not stall the launch.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(MANIFEST_READ_LIMIT + 1);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    if (length > MANIFEST_READ_LIMIT) return 'unnamed';
    const manifest: unknown = JSON.parse(buffer.subarray(0, length).toString('utf8'));
    const name = (manifest as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name !== '' ? 'named' : 'unnamed';
  } catch {
    return 'unnamed';
  } finally {
    closeSync(fd);
  }
}

/**
 * `--dir` for each ancestor of `path` strictly inside `within` (a fresh tmpfs) that neither a bind
 * (which provides everything under it) nor an earlier `--dir` provides, made 0755 so the sandbox
 * user can pass.
 */
function makeParents(path: string, within: string, bound: readonly string[], created: Set<string>): string[] {
  if (!path.startsWith(`${within}/`)) return [];
  const args: string[] = [];
  const parts = path.split('/');
  for (let i = within.split('/').length + 1; i < parts.length; i++) {
    const parent = parts.slice(0, i).join('/');
    if (created.has(parent) || bound.some((done) => parent === done || parent.startsWith(`${done}/`))) continue;
    args.push('--perms', '0755', '--dir', parent);
    created.add(parent);
  }
  return args;
}

function underPrivateTmp(path: string): boolean {
  const clean = normalize(path);
  return clean === SANDBOX_TMP || clean.startsWith(`${SANDBOX_TMP}/`);
}

/** `path` normalized without a trailing slash; undefined when it is not absolute, holds a NUL or is `/`. */
function cleanPath(path: string | undefined): string | undefined {
  if (!path || !isAbsolute(path) || path.includes('\0')) return undefined;
  const clean = trimSlash(normalize(path));
  return clean === '/' ? undefined : clean;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function depth(path: string): number {
  return path.split('/').length;
}
