import type { Client } from '@modelcontextprotocol/client';
import type { UpstreamTarget } from '../modules/sources/domain/upstream.js';
import { connectUpstream, type ClientFactorySettings } from './client-factory.js';
import { Deadline } from './deadline.js';
import type { McpConnection } from './mcp-connection.js';
import { connectionFingerprint } from './upstream-endpoint.js';
import { UpstreamError, type UpstreamFailureKind } from './upstream-error.js';

export interface ClientUseOptions {
  /** Budget for the whole use: connecting (when needed) plus everything `fn` does. */
  timeoutMs: number;
  signal?: AbortSignal;
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
  fingerprint: string;
  /** Stops a connect still under way when the entry is closed. */
  abort: AbortController;
  connecting: Promise<McpConnection>;
  connection?: McpConnection;
  users: number;
  retired: boolean;
}

/**
 * Owns upstream connections. Transient stdio sources get a fresh process per use, closed when
 * the use ends; singleton stdio sources and remote sources keep one connection per source,
 * reconnected when it died and replaced when its configuration changed.
 */
export class TransportFactory {
  private readonly pool = new Map<string, PooledEntry>();
  private readonly transient = new Set<McpConnection>();
  private shuttingDown = false;

  constructor(private readonly settings: ClientFactorySettings = {}) {}

  async withClient<T>(target: UpstreamTarget, fn: (session: ClientSession) => Promise<T>, options: ClientUseOptions): Promise<T> {
    if (this.shuttingDown) throw new UpstreamError('aborted', 'Toolplane is shutting down');
    const deadline = new Deadline(options.timeoutMs, options.signal);
    try {
      if (isPooled(target)) return await this.usePooled(target, fn, deadline);
      return await this.useTransient(target, fn, deadline);
    } finally {
      deadline.dispose();
    }
  }

  /** Closes the pooled connection of a source (killing its process group, for stdio). */
  async release(sourceId: string): Promise<void> {
    const entry = this.pool.get(sourceId);
    if (!entry) return;
    this.pool.delete(sourceId);
    await closeEntry(entry);
  }

  /** Closes every connection this factory holds, pooled and in use. */
  async closeAll(): Promise<void> {
    this.shuttingDown = true;
    const entries = [...this.pool.values()];
    this.pool.clear();
    const transient = [...this.transient];
    this.transient.clear();
    await Promise.allSettled([...entries.map(closeEntry), ...transient.map((connection) => connection.close())]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.closeAll();
  }

  /** Ids of the sources that currently hold a pooled connection (diagnostics). */
  pooledSourceIds(): string[] {
    return [...this.pool.keys()];
  }

  private async useTransient<T>(target: UpstreamTarget, fn: (session: ClientSession) => Promise<T>, deadline: Deadline): Promise<T> {
    const connection = await connectUpstream(target, deadline, this.settings);
    this.transient.add(connection);
    try {
      return await this.run(connection, fn, deadline);
    } finally {
      this.transient.delete(connection);
      await connection.close().catch(() => undefined);
    }
  }

  private async usePooled<T>(target: UpstreamTarget, fn: (session: ClientSession) => Promise<T>, deadline: Deadline): Promise<T> {
    const entry = this.acquire(target, deadline);
    entry.users++;
    try {
      const connection = await deadline.run('connecting', () => entry.connecting);
      return await this.run(connection, fn, deadline);
    } catch (error) {
      // A remote that went away (restart, lost session) or a dead process: reconnect next time.
      if (error instanceof UpstreamError && BROKEN_CONNECTION.has(error.kind)) this.retire(target.sourceId, entry);
      throw error;
    } finally {
      entry.users--;
      if (entry.retired && entry.users === 0) await closeEntry(entry);
    }
  }

  private acquire(target: UpstreamTarget, deadline: Deadline): PooledEntry {
    const fingerprint = connectionFingerprint(target);
    const current = this.pool.get(target.sourceId);
    if (current && current.fingerprint === fingerprint && (!current.connection || current.connection.alive)) return current;
    if (current) this.retire(target.sourceId, current);

    const abort = new AbortController();
    const entry: PooledEntry = {
      fingerprint,
      abort,
      users: 0,
      retired: false,
      connecting: this.connectShared(target, new Deadline(deadline.timeoutMs, abort.signal), () => entry),
    };
    this.pool.set(target.sourceId, entry);
    return entry;
  }

  /**
   * The connect is shared by every concurrent user, so it runs on a deadline of its own rather
   * than on the initiating caller's signal: one caller giving up must not fail the others.
   */
  private connectShared(target: UpstreamTarget, deadline: Deadline, entryOf: () => PooledEntry): Promise<McpConnection> {
    const connecting = connectUpstream(target, deadline, this.settings).then(
      (connection) => {
        const entry = entryOf();
        entry.connection = connection;
        if (entry.retired) void connection.close();
        return connection;
      },
      (error: unknown) => {
        if (this.pool.get(target.sourceId) === entryOf()) this.pool.delete(target.sourceId);
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
    if (entry.users === 0) void closeEntry(entry);
  }

  private async run<T>(connection: McpConnection, fn: (session: ClientSession) => Promise<T>, deadline: Deadline): Promise<T> {
    let phase = 'waiting for the server';
    const session: ClientSession = {
      client: connection.client,
      connection,
      deadline,
      requestOptions: () => deadline.requestOptions(),
      setPhase: (next) => {
        phase = next;
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

const BROKEN_CONNECTION = new Set<UpstreamFailureKind>(['process', 'unreachable', 'http']);

function isPooled(target: UpstreamTarget): boolean {
  return target.transport !== 'stdio' || target.lifecycle === 'singleton';
}

async function closeEntry(entry: PooledEntry): Promise<void> {
  entry.retired = true;
  if (!entry.connection) entry.abort.abort(new Error('the connection was released'));
  const connection = entry.connection ?? (await entry.connecting.catch(() => undefined));
  await connection?.close().catch(() => undefined);
}
