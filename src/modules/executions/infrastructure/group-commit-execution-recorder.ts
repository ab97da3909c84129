import { AsyncResource } from 'node:async_hooks';
import { BeforeApplicationShutdown, Logger, OnApplicationShutdown } from '@nestjs/common';
import pg, { type Pool, type PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import { DomainError } from '../../../shared/domain-error.js';
import { ExecutionRecord, ExecutionRecorder } from '../domain/execution.js';
import type { StartedCallJournal } from './started-call-journal.js';
import { offThread } from '../../../shared/off-thread/off-thread-worker.js';
import { columnTexts, columnValues, storedRecordTexts, type ColumnTexts, type StoredRecordTexts } from './execution-chain-rows.js';
import { holdsMoreValues } from '../../../shared/value-count.js';
import { storedJson, storedNullableText, storedText } from '../../../shared/database/stored-text.js';
import { runPrepared } from '../../../shared/database/prepared-statement.js';

export interface GroupCommitOptions {
  /** Rows one INSERT carries at most (default 500). */
  maxBatchRows?: number;
  /** Records waiting to be written at most (default 10,000); beyond it `record` waits for room, nothing is dropped. */
  maxQueuedRecords?: number;
  /**
   * Write `started` rows (table `execution_starts`) instead of executions, committing without
   * waiting for the WAL flush (`synchronous_commit = off`, on a connection of its own): durable
   * against a crash of Toolplane, lost only if PostgreSQL itself crashes within about half a
   * second. The call's outcome removes its row moments later.
   */
  startedRows?: boolean;
  /**
   * Write started calls to this journal instead of `started` rows (see StartedCallJournal): only
   * where Toolplane is the database's only user and the journal shares its disk.
   */
  journal?: StartedCallJournal;
  /**
   * Commit execution records without waiting for PostgreSQL to flush them to disk (on a connection
   * of the recorder's own with `synchronous_commit = off`): a call is answered about one WAL flush
   * sooner; a record still survives a crash of Toolplane, and is lost only if PostgreSQL or the
   * machine goes down within about half a second of its commit. Off by default
   * (TOOLPLANE_EXECUTION_COMMIT=async turns it on).
   */
  asyncCommit?: boolean;
  /** Told of every committed batch of execution records: its rows and how long its commit took. */
  onCommitted?: (rows: number, seconds: number) => void;
}

/** Counters since start, so tests and operators can see how well calls share commits. */
export interface GroupCommitMetrics {
  /** Groups taken off the queue; each was written with one multi-row INSERT (retried row by row when that failed). */
  batches: number;
  /** Rows committed. */
  rows: number;
  /** Records whose promise was rejected. */
  failedRows: number;
  /** Batches whose INSERT failed and were retried one row at a time. */
  fallbacks: number;
  largestBatch: number;
}

interface Pending {
  id: string;
  values: unknown[];
  /** The execution's digest, which its link in the chain will cover (see recordDigest); none for started rows. */
  digest?: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Column order of every INSERT, with the cast each parameter needs (multi-row VALUES infer nothing from the target). */
const COLUMNS: readonly (readonly [name: string, cast: string])[] = [
  ['id', 'uuid'],
  ['tool_id', 'uuid'],
  ['qualified_name', 'text'],
  ['source_id', 'uuid'],
  ['source_name', 'text'],
  ['definition_hash', 'text'],
  ['caller', 'jsonb'],
  ['caller_principal', 'text'],
  ['channel', 'text'],
  ['arguments', 'jsonb'],
  ['status', 'text'],
  ['is_error', 'boolean'],
  ['result', 'jsonb'],
  ['error', 'jsonb'],
  ['attempts', 'integer'],
  ['started_at', 'timestamptz'],
  ['duration_ms', 'double precision'],
  ['trace_id', 'text'],
  ['group_name', 'text'],
  ['interceptors', 'jsonb'],
];
const COLUMN_LIST = COLUMNS.map(([name]) => name).join(', ');
/** A started call: its id, when it started, and what its `interrupted` execution will need. */
const START_COLUMNS: readonly (readonly [name: string, cast: string])[] = [
  ['id', 'uuid'],
  ['started_at', 'timestamptz'],
  ['record', 'jsonb'],
];
/** Batches of up to this many rows are prepared statements (one per size and connection); larger ones are not worth keeping. */
const PREPARED_BATCH_SIZES = 8;
/** A record whose arguments and result hold more values than this is serialized on the worker thread. */
const OFF_THREAD_VALUES = 5_000;
/** PostgreSQL accepts at most 65,535 parameters per statement. */
const MAX_BATCH_ROWS = Math.floor(65_535 / COLUMNS.length);

/**
 * Durable execution history with group commit. `record` queues the row and resolves once
 * that row is committed. One writer drains the queue: it takes everything waiting (up to
 * `maxBatchRows`), writes it with one parameterized multi-row INSERT — a single statement,
 * hence one transaction — settles those promises and goes again while more arrived. Under
 * load many calls share one commit; a lone call waits only for its own INSERT, never for a timer.
 *
 * It writes on a connection of the DataSource's pool that it holds between batches (borrowing one
 * per batch cost the pool's bookkeeping on every commit), outside any request transaction: the record
 * must land even when the caller's work rolls back. A failed batch is retried row by row so
 * one bad row fails only its own call. The queue is bounded: past it callers wait their turn.
 * Recording an id twice keeps the first row. Callers should not await `record` while they hold
 * a transaction of the same pool: with the pool exhausted, the writer could not get a connection.
 */
export class GroupCommitExecutionRecorder extends ExecutionRecorder implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('executions');
  private readonly maxBatchRows: number;
  private readonly maxQueuedRecords: number;
  private readonly queue: Pending[] = [];
  /** Callers waiting for room in a full queue, first come first served. */
  private readonly roomWaiters: (() => void)[] = [];
  /** Queue slots promised to woken room waiters that have not pushed yet. */
  private reserved = 0;
  /** Records accepted and being serialized, not queued yet. */
  private preparing = 0;
  private writer: Promise<void> | undefined;
  private closed = false;
  private readonly counters: GroupCommitMetrics = { batches: 0, rows: 0, failedRows: 0, fallbacks: 0, largestBatch: 0 };
  /**
   * The writer serves every caller: it runs in the context the recorder was built in, not in the
   * async context (request transaction, log fields) of whichever call happened to start it.
   */
  private readonly spawnWriter: () => Promise<void>;
  private readonly writesStarts: boolean;
  /** Commits asynchronously on its connection (started rows, or asyncCommit). */
  private readonly commitsAsync: boolean;
  /**
   * The connection the writer holds between batches (its only user): borrowing one from the pool
   * for every batch cost the pool's bookkeeping (its queue, events, idle timer) on every commit.
   */
  private client?: PoolClient;
  /** Where `started` rows go: a recorder of its own, committing asynchronously. */
  private startedRows?: GroupCommitExecutionRecorder;
  /** Calls recorded as started whose outcome is not recorded yet: only their outcomes remove a row. */
  private readonly startedIds = new Set<string>();
  /** Calls written to the journal whose outcome is not recorded yet. */
  private readonly journaled = new Set<string>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: GroupCommitOptions = {},
  ) {
    super();
    this.maxBatchRows = Math.max(1, Math.min(options.maxBatchRows ?? 500, MAX_BATCH_ROWS));
    this.maxQueuedRecords = Math.max(1, options.maxQueuedRecords ?? 10_000);
    this.writesStarts = options.startedRows ?? false;
    this.commitsAsync = this.writesStarts || (options.asyncCommit ?? false);
    this.spawnWriter = AsyncResource.bind(() => this.drain());
  }

  /**
   * Started calls are kept apart from the history (a small table of calls in flight), so the
   * history's rows and indexes are written once per call, as without them.
   */
  recordStarted(execution: ExecutionRecord): Promise<void> {
    if (this.writesStarts) return this.record(execution);
    const journal = this.options.journal;
    if (journal) {
      if (this.closed) return Promise.reject(recorderClosed());
      try {
        journal.append({ id: execution.id, startedAt: execution.startedAt.toISOString(), record: startRecordJson(execution) });
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      this.journaled.add(execution.id);
      return Promise.resolve();
    }
    this.startedRows ??= new GroupCommitExecutionRecorder(this.dataSource, { ...this.options, startedRows: true });
    this.startedIds.add(execution.id);
    return this.startedRows.record(execution);
  }

  async record(execution: ExecutionRecord): Promise<void> {
    if (this.closed) throw recorderClosed();
    let values: unknown[];
    let digest: string | undefined;
    if (this.writesStarts) values = toStartRow(execution);
    else {
      let columns = columnTextsInPlace(execution);
      if (!columns) {
        // Serialized on the worker thread; counted meanwhile, so that flush waits for it too.
        this.preparing += 1;
        try {
          columns = await columnTextsOffThread(execution);
        } finally {
          this.preparing -= 1;
        }
      }
      const texts = storedRecordTexts(execution, columns);
      values = toRow(execution, texts);
      digest = texts.digest;
    }
    if (this.roomWaiters.length > 0 || this.queue.length + this.reserved >= this.maxQueuedRecords) {
      await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
      this.reserved -= 1;
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ id: execution.id, values, ...(digest !== undefined ? { digest } : {}), resolve, reject });
      this.startWriter();
    });
  }

  /** Resolves once nothing is queued or being written (records arriving meanwhile included). */
  async flush(): Promise<void> {
    await this.startedRows?.flush();
    while (this.writer || this.queue.length > 0 || this.reserved > 0 || this.roomWaiters.length > 0 || this.preparing > 0) {
      if (this.writer) await this.writer;
      else await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Refuses new records, then waits until everything already accepted is written. */
  async close(): Promise<void> {
    this.closed = true;
    await this.startedRows?.close();
    await this.flush();
    // Ended, not returned to the pool: its session may commit asynchronously.
    if (this.client) this.forget(this.client);
    this.options.journal?.close();
  }

  /** Records in flight when shutdown starts are written while the database is still open. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /**
   * Runs after the HTTP server let its last requests finish and before the database closes
   * (the global CoreModule shuts down last), so records of those requests land too.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  /** `queued`: records in the queue (never above maxQueuedRecords); `waiting`: callers waiting for room. */
  metrics(): GroupCommitMetrics & { queued: number; waiting: number } {
    return { ...this.counters, queued: this.queue.length + this.reserved, waiting: this.roomWaiters.length };
  }

  private startWriter(): void {
    if (this.writer) return;
    this.writer = this.spawnWriter().finally(() => {
      this.writer = undefined;
      // A record queued between the writer's last look and now starts the next one.
      if (this.queue.length > 0) this.startWriter();
    });
  }

  private async drain(): Promise<void> {
    // Let calls made in the same tick join the first batch; no timer, no added latency.
    await Promise.resolve();
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatchRows);
      this.admitWaiters();
      await this.write(batch);
    }
  }

  private admitWaiters(): void {
    while (this.roomWaiters.length > 0 && this.queue.length + this.reserved < this.maxQueuedRecords) {
      this.reserved += 1;
      this.roomWaiters.shift()!();
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    this.counters.batches += 1;
    this.counters.largestBatch = Math.max(this.counters.largestBatch, batch.length);
    try {
      await this.timedInsert(batch);
      this.committed(batch);
      return;
    } catch (error) {
      if (batch.length === 1) {
        this.failed(batch[0]!, error);
        return;
      }
      this.counters.fallbacks += 1;
      this.logger.warn(`a batch of ${batch.length} execution records failed (${describe(error)}); writing them one by one`);
    }
    for (const pending of batch) {
      try {
        await this.timedInsert([pending]);
        this.committed([pending]);
      } catch (error) {
        this.failed(pending, error);
      }
    }
  }

  /** insert, its commit told to `onCommitted` (execution records only). */
  private async timedInsert(rows: Pending[]): Promise<void> {
    const started = performance.now();
    await this.insert(rows);
    if (!this.writesStarts) this.options.onCommitted?.(rows.length, (performance.now() - started) / 1000);
  }

  private async insert(rows: Pending[]): Promise<void> {
    const params: unknown[] = [];
    for (const row of rows) params.push(...row.values);
    let kind: StatementKind = 'starts';
    if (!this.writesStarts) {
      // An id twice in one batch is written once (ON CONFLICT), so it is queued once, with the first row's digest.
      const digests = new Map<string, string | undefined>();
      for (const row of rows) if (!digests.has(row.id)) digests.set(row.id, row.digest);
      params.push([...digests.keys()], [...digests.values()]);
      const started = rows.filter((row) => this.startedIds.has(row.id)).map((row) => row.id);
      if (started.length > 0) params.push(started);
      kind = started.length > 0 ? 'ending-starts' : 'executions';
    }
    const text = statementText(kind, rows.length);
    const name = `toolplane-record-${kind}-${rows.length}`;
    const pool = poolOf(this.dataSource);
    if (!pool) {
      await this.dataSource.query(text, params);
      return;
    }
    const client = await this.connection(pool);
    try {
      await (rows.length <= PREPARED_BATCH_SIZES ? runPrepared(client, name, text, params) : client.query(text, params));
    } catch (error) {
      // A broken connection is not reused (its error event may already have ended it); a refused row leaves it usable.
      if (!(error instanceof pg.DatabaseError) || isFatal(error)) this.forget(client);
      throw error;
    }
  }

  private async connection(pool: Pool): Promise<PoolClient> {
    if (this.client) return this.client;
    const client = await pool.connect();
    // Held between batches, out of the pool's care: a connection that breaks meanwhile (the server
    // restarted, an administrator ended it) emits an error that nothing else would catch.
    client.on('error', (error) => this.connectionLost(client, error));
    if (this.commitsAsync) {
      try {
        await client.query('SET synchronous_commit TO off');
      } catch (error) {
        this.forget(client);
        throw error;
      }
    }
    this.client = client;
    return client;
  }

  /** The held connection broke: it is ended, and the next batch opens another. */
  private connectionLost(client: PoolClient, error: Error): void {
    if (this.client !== client) return;
    this.logger.warn(`the execution recorder's database connection was lost (${describe(error)}); the next batch opens another`);
    this.forget(client);
  }

  private forget(client: PoolClient): void {
    if (this.client === client) this.client = undefined;
    try {
      client.release(true);
    } catch {
      // released already
    }
  }

  private committed(rows: Pending[]): void {
    this.counters.rows += rows.length;
    for (const row of rows) this.startedIds.delete(row.id);
    for (const row of rows) {
      if (this.journaled.delete(row.id)) this.options.journal?.settle(row.id);
    }
    for (const row of rows) row.resolve();
  }

  private failed(row: Pending, error: unknown): void {
    this.counters.failedRows += 1;
    // Its started row or journal line (if any) stays, and becomes an interrupted execution: the outcome was lost.
    this.startedIds.delete(row.id);
    this.journaled.delete(row.id);
    this.logger.error(`execution ${row.id} was not recorded: ${describe(error)}`);
    row.reject(error);
  }
}

/** A server error that ended the session (FATAL, PANIC), unlike one that only refused the statement. */
function isFatal(error: pg.DatabaseError): boolean {
  return error.severity === 'FATAL' || error.severity === 'PANIC';
}

/** The pg pool behind TypeORM's PostgreSQL driver, for named (prepared) statements TypeORM cannot send. */
function poolOf(dataSource: DataSource): Pool | undefined {
  const master = (dataSource.driver as unknown as { master?: unknown }).master;
  return master instanceof pg.Pool ? master : undefined;
}

type StatementKind = 'starts' | 'executions' | 'ending-starts';

/** The statements of the prepared batch sizes, built once: every batch of a size and kind has the same text. */
const statementTexts = new Map<string, string>();

function statementText(kind: StatementKind, rowCount: number): string {
  const key = `${kind}-${rowCount}`;
  let text = statementTexts.get(key);
  if (text === undefined) {
    text = buildStatementText(kind, rowCount);
    if (rowCount <= PREPARED_BATCH_SIZES) statementTexts.set(key, text);
  }
  return text;
}

/**
 * The INSERT of `rowCount` rows. Executions: idempotent (recording the same execution twice keeps
 * the first row); each row written joins the chain's pending list with its digest in the same
 * statement (see ExecutionChainSealer), and with `ending-starts` the outcome replaces the call's
 * started row too. Parameters: every row's columns, then the ids and digests, then the started ids.
 */
function buildStatementText(kind: StatementKind, rowCount: number): string {
  const columns = kind === 'starts' ? START_COLUMNS : COLUMNS;
  const tuples: string[] = [];
  for (let row = 0; row < rowCount; row++) {
    const first = row * columns.length + 1;
    tuples.push(`(${columns.map(([, cast], i) => `$${first + i}::${cast}`).join(', ')})`);
  }
  if (kind === 'starts') return `INSERT INTO execution_starts (id, started_at, record) VALUES ${tuples.join(', ')} ON CONFLICT (id) DO NOTHING`;
  const ids = rowCount * COLUMNS.length + 1;
  const inserted = `inserted AS (INSERT INTO executions (${COLUMN_LIST}) VALUES ${tuples.join(', ')} ON CONFLICT (id) DO NOTHING RETURNING id)`;
  const queued = `SELECT d.id, d.digest FROM inserted JOIN unnest($${ids}::uuid[], $${ids + 1}::text[]) AS d(id, digest) ON d.id = inserted.id`;
  const finished = kind === 'ending-starts' ? `finished AS (DELETE FROM execution_starts WHERE id = ANY($${ids + 2}::uuid[])), ` : '';
  return `WITH ${finished}${inserted} INSERT INTO execution_chain_pending (execution_id, digest) ${queued}`;
}

function recorderClosed(): DomainError {
  return new DomainError('unavailable', 'SHUTTING_DOWN', 'Toolplane is shutting down; the call was not recorded.');
}

function toStartRow(e: ExecutionRecord): unknown[] {
  return [e.id, e.startedAt, startRecordJson(e)];
}

/** What a started call's `interrupted` execution will need, as the JSON text of `execution_starts.record`. */
function startRecordJson(e: ExecutionRecord): string {
  const record = {
    tool_id: e.toolId,
    qualified_name: storedText(e.qualifiedName),
    source_id: e.sourceId,
    source_name: storedNullableText(e.sourceName),
    definition_hash: storedNullableText(e.definitionHash),
    caller: e.caller,
    caller_principal: storedText(e.caller.principalId),
    channel: e.channel,
    arguments: e.arguments ?? null,
    attempts: e.attempts,
    trace_id: e.traceId ?? null,
    group_name: e.group ? storedText(e.group) : null,
    // The pre interceptors that ran before it was sent.
    ...(e.interceptors?.length ? { interceptors: e.interceptors } : {}),
  };
  return storedJson(record);
}

function toRow(e: ExecutionRecord, texts: StoredRecordTexts): unknown[] {
  return [
    e.id,
    e.toolId,
    storedText(e.qualifiedName),
    e.sourceId,
    storedNullableText(e.sourceName),
    storedNullableText(e.definitionHash),
    texts.caller,
    storedText(e.caller.principalId),
    e.channel,
    texts.arguments,
    e.status,
    e.isError,
    texts.result,
    texts.error,
    e.attempts,
    e.startedAt,
    e.durationMs,
    e.traceId ?? null,
    e.group ? storedText(e.group) : null,
    texts.interceptors,
  ];
}

/**
 * The record's column texts, serialized in place; undefined for a record carrying a large payload
 * (a hostile caller or upstream chooses its size), which columnTextsOffThread serializes on the
 * worker thread so that it never holds the event loop.
 */
function columnTextsInPlace(execution: ExecutionRecord): ColumnTexts | undefined {
  if (offThread.available && holdsMoreValues([execution.arguments, execution.result], OFF_THREAD_VALUES)) return undefined;
  return columnTexts(columnValues(execution));
}

async function columnTextsOffThread(execution: ExecutionRecord): Promise<ColumnTexts> {
  const values = columnValues(execution);
  try {
    return columnTexts(values, await offThread.run({ kind: 'canonical', values }));
  } catch {
    // The worker thread failed (or could not take the values): the record is written all the same.
    return columnTexts(values);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
