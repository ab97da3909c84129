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
 */
export class TransportFactory {
  private readonly pool = new Map<string, PooledEntry>();
  private readonly transient = new Set<McpConnection>();
  private readonly restarts = new Map<string, RestartState>();
  private readonly toolChangeListeners = new Set<(sourceId: string) => void>();
  private readonly idleTimeoutMs: number;
  private readonly backoff: { initialMs: number; maxMs: number };
  private shuttingDown = false;

  constructor(private readonly settings: ClientFactorySettings = {}) {
    this.idleTimeoutMs = settings.pool?.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
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

  /** Closes the pooled connection of a source (killing its process group, for stdio). */
  async release(sourceId: string): Promise<void> {
    this.restarts.delete(sourceId);
    const entry = this.pool.get(sourceId);
    if (!entry) return;
    this.pool.delete(sourceId);
    await closeEntry(entry);
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

  /** Ids of the sources that currently hold a pooled connection (diagnostics). */
  pooledSourceIds(): string[] {
    return [...this.pool.keys()];
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
    const entry = this.acquire(target, deadline);
    entry.users++;
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
        if (!broken && this.pool.get(target.sourceId) === entry) this.restarts.delete(target.sourceId);
      }
    } catch (error) {
      // A remote that went away (restart, lost session) or a dead process: reconnect next time.
      if (isBroken(error) && !entry.retired) {
        if (entry.connection) this.recordFailure(target.sourceId);
        this.retire(target.sourceId, entry);
      }
      throw error;
    } finally {
      entry.users--;
      if (entry.retired && entry.users === 0) await closeEntry(entry);
      else if (entry.users === 0) this.armIdleTimer(entry);
    }
  }

  private acquire(target: UpstreamTarget, deadline: Deadline): PooledEntry {
    const fingerprint = connectionFingerprint(target);
    const current = this.pool.get(target.sourceId);
    if (current && current.fingerprint === fingerprint && (!current.connection || current.connection.alive)) return current;
    if (current) {
      // Died while idle: a failure like any other. A changed configuration deserves a prompt first try.
      if (current.fingerprint === fingerprint) this.recordFailure(target.sourceId);
      else this.restarts.delete(target.sourceId);
      this.retire(target.sourceId, current);
    }

    const waitMs = this.restartDelay(target.sourceId);
    if (waitMs > deadline.remainingMs()) {
      const failures = this.restarts.get(target.sourceId)?.failures ?? 0;
      throw new UpstreamError(
        target.transport === 'stdio' ? 'process' : 'unreachable',
        `${endpointLabel(target)} failed ${failures} time${failures === 1 ? '' : 's'} in a row; the next attempt to reconnect is in ${waitMs} ms`,
      );
    }

    const abort = new AbortController();
    const attempt: PooledEntry['attempt'] = {};
    const entry: PooledEntry = {
      sourceId: target.sourceId,
      fingerprint,
      abort,
      users: 0,
      retired: false,
      attempt,
      connecting: this.connectShared(target, new Deadline(deadline.timeoutMs + waitMs, abort.signal), waitMs, () => entry, attempt),
    };
    this.pool.set(target.sourceId, entry);
    return entry;
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
        if (this.pool.get(target.sourceId) !== entryOf()) return;
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
        if (this.pool.get(target.sourceId) === entry) {
          this.pool.delete(target.sourceId);
          if (!entry.abort.signal.aborted && !this.shuttingDown) this.recordFailure(target.sourceId);
        }
        throw error;
      },
    );
    void connecting.finally(() => deadline.dispose()).catch(() => undefined);
    return connecting;
  }

  /** Takes an entry out of the pool; it is closed once its last user is done. */
  private retire(sourceId: string, entry: PooledEntry): void {
    if (this.pool.get(sourceId) === entry) this.pool.delete(sourceId);
    entry.retired = true;
    clearIdleTimer(entry);
    if (entry.users === 0) void closeEntry(entry);
  }

  private armIdleTimer(entry: PooledEntry): void {
    clearIdleTimer(entry);
    if (this.idleTimeoutMs <= 0 || entry.retired || !entry.connection) return;
    entry.idleTimer = setTimeout(() => {
      entry.idleTimer = undefined;
      if (entry.users === 0 && !entry.retired) this.retire(entry.sourceId, entry);
    }, this.idleTimeoutMs);
    entry.idleTimer.unref();
  }

  private recordFailure(sourceId: string): void {
    const failures = (this.restarts.get(sourceId)?.failures ?? 0) + 1;
    const delayMs = Math.min(this.backoff.initialMs * 2 ** (failures - 1), this.backoff.maxMs);
    this.restarts.set(sourceId, { failures, notBefore: Date.now() + delayMs });
  }

  /** How long a connect of `sourceId` must still wait after its recent failures. */
  private restartDelay(sourceId: string): number {
    const state = this.restarts.get(sourceId);
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
