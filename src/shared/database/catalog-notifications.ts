import pg from 'pg';
import type { DataSource } from 'typeorm';
import { CatalogChangeNotifier } from '../catalog-events.js';
import { SessionNotices } from '../session-notices.js';
import { TaskChanges } from '../task-changes.js';
import type { TypeormUnitOfWork } from './typeorm-unit-of-work.js';

/** The PostgreSQL channel catalog changes are announced on, to every process sharing the database. */
export const CATALOG_CHANNEL = 'toolplane_catalog';

export interface CatalogNotice {
  /** The process that made the change. */
  origin: string;
  sourceId?: string;
  /** A tool group changed (instead of a source). */
  groupName?: string;
  /** An interceptor changed (instead of a source). */
  interceptorName?: string;
  /** A task's state changed (instead of a source): see TaskChanges. */
  taskId?: string;
  /** Something a 2025-era session's client is to hear (instead of a source): see SessionNotices. */
  session?: { id: string; body: string };
}

/** Marks a group's or an interceptor's name in a notice: source ids are uuids, those names never hold a colon. */
const GROUP_PREFIX = 'group:';
const INTERCEPTOR_PREFIX = 'interceptor:';
const TASK_PREFIX = 'task:';
const SESSION_PREFIX = 'session:';
/** NOTIFY's payload limit is 8000 bytes. */
export const MAX_NOTICE_BYTES = 7_900;

/**
 * `<origin> <sourceId>`, `<origin> group:<name>`, `<origin> interceptor:<name>`, `<origin> task:<id>`
 * (all far below NOTIFY's 8000-byte payload limit) or `<origin> session:<id> <body>`.
 */
export function encodeCatalogNotice(notice: CatalogNotice): string {
  if (notice.session) return `${notice.origin} ${SESSION_PREFIX}${notice.session.id} ${notice.session.body}`;
  if (notice.groupName) return `${notice.origin} ${GROUP_PREFIX}${notice.groupName}`;
  if (notice.interceptorName) return `${notice.origin} ${INTERCEPTOR_PREFIX}${notice.interceptorName}`;
  if (notice.taskId) return `${notice.origin} ${TASK_PREFIX}${notice.taskId}`;
  return notice.sourceId ? `${notice.origin} ${notice.sourceId}` : notice.origin;
}

export function decodeCatalogNotice(payload: string): CatalogNotice {
  const [origin = '', subject] = payload.split(' ', 2);
  if (subject?.startsWith(SESSION_PREFIX)) return { origin, session: { id: subject.slice(SESSION_PREFIX.length), body: payload.slice(origin.length + subject.length + 2) } };
  if (subject?.startsWith(GROUP_PREFIX)) return { origin, groupName: subject.slice(GROUP_PREFIX.length) };
  if (subject?.startsWith(INTERCEPTOR_PREFIX)) return { origin, interceptorName: subject.slice(INTERCEPTOR_PREFIX.length) };
  if (subject?.startsWith(TASK_PREFIX)) return { origin, taskId: subject.slice(TASK_PREFIX.length) };
  return subject ? { origin, sourceId: subject } : { origin };
}

/**
 * NOTIFY on the connection of the current unit of work: PostgreSQL delivers it when that
 * transaction commits, and drops it when it rolls back.
 */
export class PgCatalogChangeNotifier extends CatalogChangeNotifier {
  constructor(
    private readonly uow: TypeormUnitOfWork,
    private readonly instanceId: string,
  ) {
    super();
  }

  async notifyOthers(sourceId: string): Promise<void> {
    await this.uow.manager().query('SELECT pg_notify($1, $2)', [CATALOG_CHANNEL, encodeCatalogNotice({ origin: this.instanceId, sourceId })]);
  }

  async notifyGroupChanged(groupName: string): Promise<void> {
    await this.uow.manager().query('SELECT pg_notify($1, $2)', [CATALOG_CHANNEL, encodeCatalogNotice({ origin: this.instanceId, groupName })]);
  }

  async notifyInterceptorChanged(interceptorName: string): Promise<void> {
    await this.uow.manager().query('SELECT pg_notify($1, $2)', [CATALOG_CHANNEL, encodeCatalogNotice({ origin: this.instanceId, interceptorName })]);
  }
}

/**
 * Task changes told to every process on the database, on the catalog's channel (one listening
 * connection per process serves both). Outside any transaction: a task's row is written outside
 * them too. A failed NOTIFY is only a later look (followers poll as well).
 */
export class PgTaskChanges extends TaskChanges {
  constructor(
    private readonly dataSource: DataSource,
    private readonly instanceId: string,
  ) {
    super();
  }

  override announce(taskId: string): void {
    super.announce(taskId);
    this.dataSource.query('SELECT pg_notify($1, $2)', [CATALOG_CHANNEL, encodeCatalogNotice({ origin: this.instanceId, taskId })]).catch(() => undefined);
  }
}

/** Session notices relayed to every process on the database, on the catalog's channel. */
export class PgSessionNotices extends SessionNotices {
  constructor(
    private readonly dataSource: DataSource,
    private readonly instanceId: string,
  ) {
    super();
  }

  override relay(sessionId: string, body: string): void {
    const payload = encodeCatalogNotice({ origin: this.instanceId, session: { id: sessionId, body } });
    if (Buffer.byteLength(payload) > MAX_NOTICE_BYTES || /\s/.test(sessionId)) return;
    this.dataSource.query('SELECT pg_notify($1, $2)', [CATALOG_CHANNEL, payload]).catch(() => undefined);
  }
}

export interface CatalogListenerOptions {
  url: string;
  /** This process: its own notices are skipped (its caches were dropped already). */
  instanceId: string;
  /** A change made by another process. */
  onChange(sourceId: string | undefined): void;
  /** A tool group changed by another process. */
  onGroupChange?(groupName: string): void;
  /** An interceptor changed by another process. */
  onInterceptorChange?(interceptorName: string): void;
  /** A task's state changed in another process. */
  onTaskChange?(taskId: string): void;
  /** Another process relays what a 2025-era session's client is to hear. */
  onSessionNotice?(sessionId: string, body: string): void;
  /** The connection came back after a drop: notices may have been missed, anything may have changed. */
  onResync(): void;
  log: { info(message: string): void; warn(message: string): void };
  /** How often the idle connection is checked; a dead one is replaced. */
  heartbeatMs?: number;
}

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 10_000;

/**
 * One dedicated connection that LISTENs on the catalog channel (pooled connections cannot: a
 * LISTEN belongs to its session). When it drops it is re-opened with exponential backoff and
 * jitter; a re-opened listener reports a resync since notices sent meanwhile are lost.
 */
export class CatalogNotificationListener {
  private client?: pg.Client;
  private retry?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;
  private failures = 0;
  private listenedBefore = false;
  private stopped = false;

  constructor(private readonly options: CatalogListenerOptions) {}

  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Resolves after the first attempt; a failed one is retried in the background. */
  start(): Promise<void> {
    return this.open();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async open(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.options.url, application_name: 'toolplane-listen', keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel === CATALOG_CHANNEL) this.receive(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CATALOG_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      void client.end().catch(() => undefined);
      this.options.log.warn(`cannot listen for catalog changes: ${describe(error)}`);
      this.scheduleRetry();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.failures = 0;
    this.heartbeat = setInterval(() => void client.query('SELECT 1').catch((error: unknown) => this.lost(client, error)), this.options.heartbeatMs ?? 15_000);
    this.heartbeat.unref();
    if (this.listenedBefore) {
      this.options.log.info('listening for catalog changes again');
      this.options.onResync();
    }
    this.listenedBefore = true;
  }

  private receive(payload: string): void {
    const notice = decodeCatalogNotice(payload);
    if (notice.origin === this.options.instanceId) return;
    if (notice.session !== undefined) this.options.onSessionNotice?.(notice.session.id, notice.session.body);
    else if (notice.taskId !== undefined) this.options.onTaskChange?.(notice.taskId);
    else if (notice.groupName !== undefined) this.options.onGroupChange?.(notice.groupName);
    else if (notice.interceptorName !== undefined) this.options.onInterceptorChange?.(notice.interceptorName);
    else this.options.onChange(notice.sourceId);
  }

  private lost(client: pg.Client, error?: unknown): void {
    if (this.client !== client) return; // not the live connection (still opening, or replaced)
    this.client = undefined;
    clearInterval(this.heartbeat);
    client.removeAllListeners('end');
    void client.end().catch(() => undefined);
    if (this.stopped) return;
    this.options.log.warn(`the catalog-change listener lost its connection${error ? `: ${describe(error)}` : ''}; reconnecting`);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    const ceiling = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** this.failures);
    this.failures++;
    this.retry = setTimeout(() => void this.open(), ceiling / 2 + Math.random() * (ceiling / 2));
    this.retry.unref();
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
