import type { Client } from '@modelcontextprotocol/client';
import type { UpstreamTarget } from '../modules/sources/domain/upstream.js';
import { connectUpstream, type ClientFactorySettings } from './client-factory.js';
import { Deadline } from './deadline.js';
import type { CallerSignal } from '../shared/caller-signal.js';
import type { McpConnection } from './mcp-connection.js';
import { connectionFingerprint, endpointLabel } from './upstream-endpoint.js';
import { UpstreamError, type UpstreamFailureKind } from './upstream-error.js';

export interface ClientUseOptions {
  /** Budget for the whole use: connecting (when needed) plus everything `fn` does. */
  timeoutMs: number;
  signal?: CallerSignal;
  /** The signal aborts with a `TimeoutError` once `timeoutMs` has passed (see Deadline). */
  signalTimesOut?: boolean;
  /**
   * Handed a function that says, whenever asked, what the use has got to: its phase and, while a
   * stdio server has not spoken MCP yet, what it wrote instead (see McpConnection.startupReport).
   */
  onProgress?: (describe: () => string) => void;
}

/** Handed to the callback of withClient(). */
export interface ClientSession {
  client: Client;
  connection: McpConnection;
  deadline: Deadline;
  /** `{ timeout, signal }` for an SDK request: the remaining budget and the combined abort signal. */
  requestOptions(): { timeout: number; signal: AbortSignal };
  /** Names the current step for timeout and failure messages, e.g. "listing tools". */
  setPhase(phase: string): void;
}

interface PooledEntry {
  sourceId: string;
  /** Its key in the pool: the source id, or `${sourceId}#${principalId}` for a principal's own connection. */
  poolKey: string;
  /** A principal's own connection (bounded per source, closed sooner when idle). */
  perPrincipal: boolean;
  /** When a use last began (least-recently-used eviction). */
  lastUsed: number;
  fingerprint: string;
  /** Stops a connect still under way when the entry is closed. */
  abort: AbortController;
  connecting: Promise<McpConnection>;
  connection?: McpConnection;
  /** The connection being made (or made): what its server did so far explains a user's timeout. */
  attempt: { connection?: McpConnection };
  users: number;
  retired: boolean;
  /** Closes the connection once it has been unused for the idle timeout. */
  idleTimer?: NodeJS.Timeout;
}

/** Consecutive failures of a pooled source and when the next connect may start. */
interface RestartState {
  failures: number;
  notBefore: number;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60 * 1000;
export const DEFAULT_PRINCIPAL_POOL_MAX = 64;
export const DEFAULT_PRINCIPAL_IDLE_TIMEOUT_MS = 5 * 60 * 1000;
export const DEFAULT_RESTART_BACKOFF = { initialMs: 100, maxMs: 5000 } as const;

/**
 * Owns upstream connections. Transient stdio sources get a fresh process per use, closed when
 * the use ends; singleton stdio sources and remote sources keep one connection per source,
 * reconnected when it died and replaced when its configuration changed. Concurrent uses of a
 * pooled connection share it (the SDK multiplexes requests by JSON-RPC id).
 *
 * Reconnecting after consecutive failures (a crash-looping process, an unreachable server) waits
 * with exponential backoff (100 ms doubling to 5 s by default), reset by a successful use. A pooled
 * connection nobody used for `idleTimeoutMs` (default 10 minutes) is closed.
 *
 * Connections are pooled by the target's `poolKey` (the source id when absent): a target carrying a
 * principal's own credential gets a connection (for stdio, a process) of that principal's own. Those
 * are bounded per source (`principalMax`, the least recently used closed first) and closed after
 * `principalIdleTimeoutMs` unused; releasing a source closes all of its connections.
 */
export class TransportFactory {
  private readonly pool = new Map<string, PooledEntry>();
  private readonly transient = new Set<McpConnection>();
  private readonly restarts = new Map<string, RestartState>();
  private readonly toolChangeListeners = new Set<(sourceId: string) => void>();
  private readonly idleTimeoutMs: number;
  private readonly principalIdleTimeoutMs: number;
  private readonly principalMax: number;
  private readonly backoff: { initialMs: number; maxMs: number };
  private shuttingDown = false;

  constructor(private readonly settings: ClientFactorySettings = {}) {
    this.idleTimeoutMs = settings.pool?.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.principalIdleTimeoutMs = settings.pool?.principalIdleTimeoutMs ?? DEFAULT_PRINCIPAL_IDLE_TIMEOUT_MS;
    this.principalMax = Math.max(1, settings.pool?.principalMax ?? DEFAULT_PRINCIPAL_POOL_MAX);
    this.backoff = {
      initialMs: settings.pool?.restartBackoff?.initialMs ?? DEFAULT_RESTART_BACKOFF.initialMs,
      maxMs: settings.pool?.restartBackoff?.maxMs ?? DEFAULT_RESTART_BACKOFF.maxMs,
    };
  }
  /** Connections kept open (singleton sources), and those of transient uses under way (metrics). */
  connectionCounts(): { pooled: number; transient: number } {
    return { pooled: this.pool.size, transient: this.transient.size };
  }


  async withClient<T>(target: UpstreamTarget, fn: (session: ClientSession) => Promise<T>, options: ClientUseOptions): Promise<T> {
    if (this.shuttingDown) throw new UpstreamError('aborted', 'Toolplane is shutting down');
    const deadline = new Deadline(options.timeoutMs, options.signal, options.signalTimesOut === true);
    const progress = options.onProgress ? new UseProgress() : undefined;
    if (progress) options.onProgress!(() => progress.describe());
    try {
      if (isPooled(target)) return await this.usePooled(target, fn, deadline, progress);
      return await this.useTransient(target, fn, deadline, progress);
    } finally {
      deadline.dispose();
    }
  }

  /** Closes every pooled connection of a source, its principals' own included (killing their process groups, for stdio). */
  async release(sourceId: string): Promise<void> {
    for (const key of this.restarts.keys()) if (belongsTo(key, sourceId)) this.restarts.delete(key);
    const entries = [...this.pool.values()].filter((entry) => entry.sourceId === sourceId);
    for (const entry of entries) this.pool.delete(entry.poolKey);
    await Promise.allSettled(entries.map(closeEntry));
  }

  /** Closes the pooled connection of a removed source, then deletes what its plugins kept (their home). */
  async forget(sourceId: string): Promise<void> {
    await this.release(sourceId);
    await this.settings.stdio?.homes?.remove(sourceId);
  }

  /** Closes every connection this factory holds, pooled and in use. */
  async closeAll(): Promise<void> {
    this.shuttingDown = true;
    const entries = [...this.pool.values()];
    this.pool.clear();
    this.restarts.clear();
    const transient = [...this.transient];
    this.transient.clear();
    await Promise.allSettled([...entries.map(closeEntry), ...transient.map((connection) => connection.close())]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.closeAll();
  }

  /**
   * Calls `listener` with the source's id when the upstream of a pooled connection announces that
   * its tools changed (2025 era: the notification; 2026-07-28: on the subscription the client
   * opens), coalesced over 300 ms. Answers the function that stops it.
   */
  onToolsChanged(listener: (sourceId: string) => void): () => void {
    this.toolChangeListeners.add(listener);
    return () => this.toolChangeListeners.delete(listener);
  }

  /** Consecutive connection failures of a pooled source and the wait before its next connect (diagnostics). */
  restartState(sourceId: string): { failures: number; waitMs: number } | undefined {
    const state = this.restarts.get(sourceId);
    return state ? { failures: state.failures, waitMs: this.restartDelay(sourceId) } : undefined;
  }

  /** Ids of the sources that currently hold a pooled connection (diagnostics), each once. */
  pooledSourceIds(): string[] {
    return [...new Set([...this.pool.values()].map((entry) => entry.sourceId))];
  }

  /** The pool keys a source's connections are held under (its own, its principals'), for diagnostics. */
  poolKeysOf(sourceId: string): string[] {
    return [...this.pool.values()].filter((entry) => entry.sourceId === sourceId).map((entry) => entry.poolKey);
  }

  private async useTransient<T>(target: UpstreamTarget, fn: (session: ClientSession) => Promise<T>, deadline: Deadline, progress?: UseProgress): Promise<T> {
    const onConnection = progress ? (made: McpConnection) => (progress.connection = () => made) : undefined;
    const connection = await connectUpstream(target, deadline, this.settings, { onConnection });
    this.transient.add(connection);
    try {
      return await this.run(connection, fn, deadline, progress);
    } finally {
      this.transient.delete(connection);
      await connection.close().catch(() => undefined);
    }
  }

  private async usePooled<T>(target: UpstreamTarget, fn: (session: ClientSession) => Promise<T>, deadline: Deadline, progress?: UseProgress): Promise<T> {
    const key = poolKeyOf(target);
    const entry = this.acquire(target, deadline);
    entry.users++;
    entry.lastUsed = performance.now();
    clearIdleTimer(entry);
    if (progress) progress.connection = () => entry.attempt.connection;
    let broken = false;
    try {
      // Connected already (the usual case): no race against the deadline to set up.
      if (entry.connection) deadline.throwIfStopped('connecting');
      const connection = entry.connection ?? (await awaitConnect(entry, deadline));
      try {
        return await this.run(connection, fn, deadline, progress);
      } catch (error) {
        broken = isBroken(error);
        throw error;
      } finally {
        // The connection carried a whole use without breaking: the source is healthy again.
        if (!broken && this.pool.get(key) === entry) this.restarts.delete(key);
      }
    } catch (error) {
      // A remote that went away (restart, lost session) or a dead process: reconnect next time.
      if (isBroken(error) && !entry.retired) {
        if (entry.connection) this.recordFailure(key);
        this.retire(key, entry);
      }
      throw error;
    } finally {
      entry.users--;
      if (entry.retired && entry.users === 0) await closeEntry(entry);
      else if (entry.users === 0) this.armIdleTimer(entry);
    }
  }

  private acquire(target: UpstreamTarget, deadline: Deadline): PooledEntry {
    const key = poolKeyOf(target);
    const fingerprint = connectionFingerprint(target);
    const current = this.pool.get(key);
    if (current && current.fingerprint === fingerprint && (!current.connection || current.connection.alive)) return current;
    if (current) {
      // Died while idle: a failure like any other. A changed configuration deserves a prompt first try.
      if (current.fingerprint === fingerprint) this.recordFailure(key);
      else this.restarts.delete(key);
      this.retire(key, current);
    }

    const waitMs = this.restartDelay(key);
    if (waitMs > deadline.remainingMs()) {
      const failures = this.restarts.get(key)?.failures ?? 0;
      throw new UpstreamError(
        target.transport === 'stdio' ? 'process' : 'unreachable',
        `${endpointLabel(target)} failed ${failures} time${failures === 1 ? '' : 's'} in a row; the next attempt to reconnect is in ${waitMs} ms`,
      );
    }

    const abort = new AbortController();
    const attempt: PooledEntry['attempt'] = {};
    const perPrincipal = key !== target.sourceId;
    if (perPrincipal) this.evictBeyondBound(target.sourceId);
    const entry: PooledEntry = {
      sourceId: target.sourceId,
      poolKey: key,
      perPrincipal,
      lastUsed: performance.now(),
      fingerprint,
      abort,
      users: 0,
      retired: false,
      attempt,
      connecting: this.connectShared(target, new Deadline(deadline.timeoutMs + waitMs, abort.signal), waitMs, () => entry, attempt),
    };
    this.pool.set(key, entry);
    return entry;
  }

  /** Makes room for one more principal's own connection of a source: the least recently used ones go. */
  private evictBeyondBound(sourceId: string): void {
    const own = [...this.pool.values()].filter((entry) => entry.sourceId === sourceId && entry.perPrincipal).sort((a, b) => a.lastUsed - b.lastUsed);
    for (const entry of own.slice(0, Math.max(0, own.length - this.principalMax + 1))) this.retire(entry.poolKey, entry);
  }

  /**
   * The connect is shared by every concurrent user, so it runs on a deadline of its own rather
   * than on the initiating caller's signal: one caller giving up must not fail the others.
   */
  private connectShared(
    target: UpstreamTarget,
    deadline: Deadline,
    waitMs: number,
    entryOf: () => PooledEntry,
    attempt: PooledEntry['attempt'],
  ): Promise<McpConnection> {
    const connect = async () => {
      if (waitMs > 0) await deadline.run('waiting to reconnect', () => sleep(waitMs, deadline.signal));
      // Only the connection the pool currently holds for the source speaks for it.
      const onToolsChanged = () => {
        if (this.pool.get(entryOf().poolKey) !== entryOf()) return;
        for (const listener of this.toolChangeListeners) listener(target.sourceId);
      };
      return connectUpstream(target, deadline, this.settings, { onToolsChanged, onConnection: (made) => (attempt.connection = made) });
    };
    const connecting = connect().then(
      (connection) => {
        const entry = entryOf();
        entry.connection = connection;
        if (entry.retired) void connection.close();
        else if (entry.users === 0) this.armIdleTimer(entry);
        return connection;
      },
      (error: unknown) => {
        const entry = entryOf();
        if (this.pool.get(entry.poolKey) === entry) {
          this.pool.delete(entry.poolKey);
          if (!entry.abort.signal.aborted && !this.shuttingDown) this.recordFailure(entry.poolKey);
        }
        throw error;
      },
    );
    void connecting.finally(() => deadline.dispose()).catch(() => undefined);
    return connecting;
  }

  /** Takes an entry out of the pool; it is closed once its last user is done. */
  private retire(poolKey: string, entry: PooledEntry): void {
    if (this.pool.get(poolKey) === entry) this.pool.delete(poolKey);
    entry.retired = true;
    clearIdleTimer(entry);
    if (entry.users === 0) void closeEntry(entry);
  }

  private armIdleTimer(entry: PooledEntry): void {
    clearIdleTimer(entry);
    const idleTimeoutMs = entry.perPrincipal ? this.principalIdleTimeoutMs : this.idleTimeoutMs;
    if (idleTimeoutMs <= 0 || entry.retired || !entry.connection) return;
    entry.idleTimer = setTimeout(() => {
      entry.idleTimer = undefined;
      if (entry.users === 0 && !entry.retired) this.retire(entry.poolKey, entry);
    }, idleTimeoutMs);
    entry.idleTimer.unref();
  }

  private recordFailure(poolKey: string): void {
    const failures = (this.restarts.get(poolKey)?.failures ?? 0) + 1;
    const delayMs = Math.min(this.backoff.initialMs * 2 ** (failures - 1), this.backoff.maxMs);
    this.restarts.set(poolKey, { failures, notBefore: Date.now() + delayMs });
  }

  /** How long a connect of `poolKey` must still wait after its recent failures. */
  private restartDelay(poolKey: string): number {
    const state = this.restarts.get(poolKey);
    return state ? Math.max(0, state.notBefore - Date.now()) : 0;
  }

  private async run<T>(connection: McpConnection, fn: (session: ClientSession) => Promise<T>, deadline: Deadline, progress?: UseProgress): Promise<T> {
    let phase = 'waiting for the server';
    if (progress) progress.phase = phase;
    const session: ClientSession = {
      client: connection.client,
      connection,
      deadline,
      requestOptions: () => deadline.requestOptions(),
      setPhase: (next) => {
        phase = next;
        if (progress) progress.phase = next;
      },
    };
    try {
      return await deadline.run(
        () => phase,
        () => fn(session),
      );
    } catch (error) {
      throw connection.describe(error, phase, deadline.timeoutMs);
    }
  }
}

/** What a use has got to (see ClientUseOptions.onProgress). */
class UseProgress {
  phase = 'connecting';
  connection: () => McpConnection | undefined = () => undefined;

  describe(): string {
    const startup = this.connection()?.startupReport;
    return startup === undefined ? this.phase : `${this.phase}: ${startup}`;
  }
}

/**
 * Waits for a pooled connect, shared with other users, within this user's deadline. A user whose
 * time runs out first learns what the server did meanwhile, as the connect's own failure would say.
 */
async function awaitConnect(entry: PooledEntry, deadline: Deadline): Promise<McpConnection> {
  try {
    return await deadline.run('connecting', () => entry.connecting);
  } catch (error) {
    const attempt = entry.attempt.connection;
    throw deadline.expired && attempt ? attempt.describe(error, 'connecting', deadline.timeoutMs) : error;
  }
}

const BROKEN_CONNECTION = new Set<UpstreamFailureKind>(['process', 'unreachable', 'http']);

function isBroken(error: unknown): boolean {
  return error instanceof UpstreamError && BROKEN_CONNECTION.has(error.kind);
}

function clearIdleTimer(entry: PooledEntry): void {
  if (entry.idleTimer) clearTimeout(entry.idleTimer);
  entry.idleTimer = undefined;
}

function sleep(ms: number, signal: CallerSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    // On abort the surrounding Deadline.run() has already rejected; just stop waiting.
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Where a target's connection is pooled: its own key, else its source's. */
function poolKeyOf(target: UpstreamTarget): string {
  return target.poolKey ?? target.sourceId;
}

function belongsTo(poolKey: string, sourceId: string): boolean {
  return poolKey === sourceId || poolKey.startsWith(`${sourceId}#`);
}

function isPooled(target: UpstreamTarget): boolean {
  return target.transport !== 'stdio' || target.lifecycle === 'singleton';
}

async function closeEntry(entry: PooledEntry): Promise<void> {
  entry.retired = true;
  clearIdleTimer(entry);
  if (!entry.connection) entry.abort.abort(new Error('the connection was released'));
  const connection = entry.connection ?? (await entry.connecting.catch(() => undefined));
  await connection?.close().catch(() => undefined);
}
