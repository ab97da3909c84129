import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../shared/domain-error.js';
import { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import type { ExecutionRecord, ExecutionStatus } from '../domain/execution.js';
import fc from 'fast-check';
import { RECORD_COLUMNS, recordContent, recordDigest, storedContent, type RecordRow } from './execution-chain-rows.js';
import { GroupCommitExecutionRecorder } from './group-commit-execution-recorder.js';
import { InterruptedCallSweeper } from './interrupted-call-sweeper.js';
import { adminQuery as admin, migratedDataSource, withDatabase } from '../../../../test/helpers/test-database.js';

const SERVER_URL = process.env.TOOLPLANE_TEST_DATABASE_URL!;
const SOURCE_ID = randomUUID();


function execution(overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  return {
    id: randomUUID(),
    toolId: randomUUID(),
    qualifiedName: 'files__read',
    sourceId: SOURCE_ID,
    sourceName: 'files',
    definitionHash: 'sha256:0f1e',
    caller: { principalId: 'key_ci', principalName: 'ci', clientName: 'jest', correlationId: 'c-1' },
    channel: 'rest',
    arguments: { path: '/tmp/a.txt', token: '[redacted]' },
    status: 'succeeded',
    isError: false,
    result: { content: [{ type: 'text', text: 'hello' }], structuredContent: { size: 5 }, truncated: false, originalBytes: 42 },
    error: null,
    attempts: 1,
    startedAt: new Date('2026-01-02T03:04:05.678Z'),
    durationMs: 12.5,
    ...overrides,
  };
}

/** An interceptor's run as the chain records it (its texts may be anything an engine passed on). */
const INTERCEPTOR_RUN = fc.record(
  {
    name: fc.string({ minLength: 1 }),
    kind: fc.constantFrom('redact', 'webhook'),
    phase: fc.constantFrom('pre' as const, 'post' as const),
    decision: fc.constantFrom('allow' as const, 'modify' as const, 'deny' as const, 'error' as const),
    message: fc.string({ unit: 'binary' }),
    failure: fc.string({ unit: 'binary' }),
    changes: fc.record({ paths: fc.array(fc.string({ unit: 'binary' })), counts: fc.dictionary(fc.string({ unit: 'binary' }), fc.integer()) }, { requiredKeys: [] }),
    durationMs: fc.double({ noNaN: true, noDefaultInfinity: true, min: 0 }).map((ms) => Math.round(ms * 100) / 100),
  },
  { requiredKeys: ['name', 'kind', 'phase', 'decision', 'durationMs'] },
);

describe('GroupCommitExecutionRecorder (real PostgreSQL)', () => {
  const dbName = `tp_rec_${randomBytes(6).toString('hex')}`;
  let dataSource: DataSource;
  /** A connection of its own: what it sees is committed. */
  let reader: pg.Client;

  const count = async (ids?: string[]): Promise<number> => {
    const { rows } = ids
      ? await reader.query('SELECT count(*)::int AS n FROM executions WHERE id = ANY($1::uuid[])', [ids])
      : await reader.query('SELECT count(*)::int AS n FROM executions');
    return rows[0].n;
  };

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    const url = withDatabase(SERVER_URL, dbName);
    dataSource = await migratedDataSource(url, { extra: { max: 10 } });
    reader = new pg.Client({ connectionString: url });
    await reader.connect();
  });

  /** Every recorder of a test: each holds a session of the pool until it is closed. */
  const recorders: GroupCommitExecutionRecorder[] = [];
  const recorderOf = (...args: ConstructorParameters<typeof GroupCommitExecutionRecorder>) => {
    const recorder = new GroupCommitExecutionRecorder(...args);
    recorders.push(recorder);
    return recorder;
  };

  afterEach(async () => {
    for (const recorder of recorders.splice(0)) await recorder.close();
  });

  afterAll(async () => {
    await reader?.end();
    if (dataSource?.isInitialized) await dataSource.destroy();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  it('has the record committed when its promise resolves, every field stored', async () => {
    const recorder = recorderOf(dataSource);
    const record = execution({
      status: 'tool_error',
      isError: true,
      error: { code: 'TOOL_ERROR', message: 'no such file', retryable: false, details: [{ path: 'path', message: 'missing' }] },
      arguments: [1, 'two', { three: 3 }],
      durationMs: 3.25,
      attempts: 2,
      channel: 'mcp',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      interceptors: [
        { name: 'limits', kind: 'defaults', phase: 'pre', decision: 'modify', changes: { paths: ['arguments.limit'] }, durationMs: 0.12 },
        { name: 'scan', kind: 'webhook', phase: 'post', decision: 'error', onError: 'allow', failure: 'timed out after 50 ms', durationMs: 50.47 },
      ],
    });
    const started = performance.now();
    await recorder.record(record);
    const elapsed = performance.now() - started;
    const { rows } = await reader.query('SELECT * FROM executions WHERE id = $1', [record.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual({
      id: record.id,
      tool_id: record.toolId,
      qualified_name: 'files__read',
      source_id: SOURCE_ID,
      source_name: 'files',
      definition_hash: 'sha256:0f1e',
      caller: record.caller,
      caller_principal: 'key_ci',
      channel: 'mcp',
      arguments: [1, 'two', { three: 3 }],
      status: 'tool_error',
      is_error: true,
      result: record.result,
      error: record.error,
      attempts: 2,
      started_at: record.startedAt,
      duration_ms: 3.25,
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
      group_name: null,
      interceptors: record.interceptors,
    });
    // A lone call waits for its own short INSERT, not for a timer.
    expect(elapsed).toBeLessThan(1000);
    expect(recorder.metrics()).toMatchObject({ batches: 1, rows: 1, failedRows: 0, fallbacks: 0, queued: 0 });
  });

  it('keeps the group and the pre interceptors of a started call in the interrupted execution it becomes', async () => {
    const recorder = recorderOf(dataSource, { startedRows: true });
    const interceptors = [{ name: 'limits', kind: 'defaults', phase: 'pre' as const, decision: 'modify' as const, changes: { paths: ['arguments.limit'] }, durationMs: 0.2 }];
    const started = execution({ status: 'interrupted', result: null, group: 'support', interceptors, startedAt: new Date(Date.now() - 60_000) });
    await recorder.recordStarted(started);
    await recorder.flush();
    await new InterruptedCallSweeper(dataSource, { soleProcess: true, maxCallTimeoutMs: 1000, intervalMs: 60_000 }).sweep(0);
    const { rows } = await reader.query('SELECT status, group_name, interceptors FROM executions WHERE id = $1', [started.id]);
    expect(rows).toEqual([{ status: 'interrupted', group_name: 'support', interceptors }]);
  });

  it('stores no interceptors as NULL', async () => {
    const recorder = recorderOf(dataSource);
    const none = execution({ interceptors: [] });
    const absent = execution();
    await Promise.all([recorder.record(none), recorder.record(absent)]);
    const { rows } = await reader.query('SELECT interceptors FROM executions WHERE id = ANY($1)', [[none.id, absent.id]]);
    expect(rows).toEqual([{ interceptors: null }, { interceptors: null }]);
  });

  it('writes 1,000 concurrent records, all of them, in far fewer batches than records', async () => {
    const recorder = recorderOf(dataSource);
    const records = Array.from({ length: 1000 }, (_, i) => execution({ durationMs: i }));
    const started = performance.now();
    await Promise.all(records.map((r) => recorder.record(r)));
    const elapsedMs = performance.now() - started;
    const metrics = recorder.metrics();
    expect(await count(records.map((r) => r.id))).toBe(1000);
    expect(metrics.rows).toBe(1000);
    expect(metrics.failedRows).toBe(0);
    expect(metrics.batches).toBeLessThanOrEqual(10);
    expect(metrics.largestBatch).toBeLessThanOrEqual(500);
    if (process.env.TOOLPLANE_REPORT_BATCHING) console.log(`1000 concurrent records: ${metrics.batches} batches, ${elapsedMs.toFixed(0)} ms`);
  });

  it('shares commits among calls arriving while a write is under way', async () => {
    const recorder = recorderOf(dataSource);
    // 50 callers, each recording 20 times in a row: a steady stream rather than one burst.
    const ids: string[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        for (let i = 0; i < 20; i++) {
          const record = execution();
          ids.push(record.id);
          await recorder.record(record);
        }
      }),
    );
    const elapsedMs = performance.now() - started;
    expect(await count(ids)).toBe(1000);
    const metrics = recorder.metrics();
    expect(metrics.batches).toBeLessThan(200);
    if (process.env.TOOLPLANE_REPORT_BATCHING) console.log(`50 callers x 20 sequential records: ${metrics.batches} batches, ${elapsedMs.toFixed(0)} ms`);
  });

  it('rejects only the failing row of a batch; the others land', async () => {
    const recorder = recorderOf(dataSource);
    const records = Array.from({ length: 20 }, () => execution());
    records[7] = execution({ status: 'exploded' as ExecutionStatus });
    const outcomes = await Promise.allSettled(records.map((r) => recorder.record(r)));
    expect(outcomes.map((o) => o.status)).toEqual(records.map((_, i) => (i === 7 ? 'rejected' : 'fulfilled')));
    expect((outcomes[7] as PromiseRejectedResult).reason).toMatchObject({ code: '23514' }); // check_violation
    expect(await count(records.map((r) => r.id))).toBe(19);
    expect(recorder.metrics()).toMatchObject({ batches: 1, rows: 19, failedRows: 1, fallbacks: 1 });
  });

  it('rejects a record that cannot be serialized without holding up the others', async () => {
    const recorder = recorderOf(dataSource);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const good = execution();
    const outcomes = await Promise.allSettled([recorder.record(execution({ arguments: circular })), recorder.record(good)]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled']);
    expect(await count([good.id])).toBe(1);
  });

  it('stores NUL characters and lone surrogates (truncated emoji) as U+FFFD instead of failing', async () => {
    const recorder = recorderOf(dataSource);
    const record = execution({
      qualifiedName: 'bad name\u0000',
      arguments: { text: 'a\u0000b' },
      result: { content: [{ type: 'text', text: 'cut \ud83d' }], truncated: true, originalBytes: 9000 },
    });
    await recorder.record(record);
    const { rows } = await reader.query('SELECT qualified_name, arguments, result FROM executions WHERE id = $1', [record.id]);
    expect(rows[0].qualified_name).toBe('bad name\ufffd');
    expect(rows[0].arguments).toEqual({ text: 'a\ufffdb' });
    expect(rows[0].result.content[0].text).toBe('cut \ufffd');
  });

  it('is idempotent: recording the same execution twice keeps one row', async () => {
    const recorder = recorderOf(dataSource);
    const record = execution();
    await Promise.all([recorder.record(record), recorder.record({ ...record, status: 'timeout' })]);
    await recorder.record(record);
    const { rows } = await reader.query('SELECT status FROM executions WHERE id = $1', [record.id]);
    expect(rows).toEqual([{ status: 'succeeded' }]);
  });

  it('commits on its own, outside the ambient request transaction', async () => {
    const recorder = recorderOf(dataSource);
    const uow = new TypeormUnitOfWork(dataSource);
    const record = execution();
    await expect(
      uow.run(async () => {
        await uow.manager().query('SELECT 1');
        await recorder.record(record);
        throw new Error('the command fails after recording');
      }),
    ).rejects.toThrow('the command fails after recording');
    expect(await count([record.id])).toBe(1);
  });

  it('applies backpressure: a full queue makes callers wait, nothing is dropped, order is kept', async () => {
    const recorder = recorderOf(dataSource, { maxQueuedRecords: 10, maxBatchRows: 3 });
    const records = Array.from({ length: 100 }, () => execution());
    const committed: number[] = [];
    let maxQueued = 0;
    const sample = setInterval(() => (maxQueued = Math.max(maxQueued, recorder.metrics().queued)), 1);
    const all = Promise.all(records.map((r, i) => recorder.record(r).then(() => committed.push(i))));
    maxQueued = Math.max(maxQueued, recorder.metrics().queued);
    expect(recorder.metrics().waiting).toBe(90);
    await all;
    clearInterval(sample);
    expect(maxQueued).toBeLessThanOrEqual(10);
    expect(committed).toEqual(records.map((_, i) => i));
    expect(await count(records.map((r) => r.id))).toBe(100);
    expect(recorder.metrics()).toMatchObject({ rows: 100, largestBatch: 3, queued: 0, waiting: 0 });
  });

  it('flush waits until everything queued is committed; close then refuses new records', async () => {
    const recorder = recorderOf(dataSource, { maxQueuedRecords: 50, maxBatchRows: 20 });
    const records = Array.from({ length: 300 }, () => execution());
    const pending = records.map((r) => recorder.record(r));
    await recorder.close();
    // Counted before awaiting any record's own promise.
    expect(await count(records.map((r) => r.id))).toBe(300);
    expect(recorder.metrics()).toMatchObject({ rows: 300, queued: 0, waiting: 0 });
    await Promise.all(pending);
    const late = recorder.record(execution());
    await expect(late).rejects.toBeInstanceOf(DomainError);
    await expect(late).rejects.toMatchObject({ kind: 'unavailable', code: 'SHUTTING_DOWN' });
    await recorder.flush(); // nothing left: returns at once
  });

  it('flushes through the Nest shutdown hooks', async () => {
    const recorder = recorderOf(dataSource);
    const records = Array.from({ length: 30 }, () => execution());
    const pending = records.map((r) => recorder.record(r));
    await recorder.beforeApplicationShutdown();
    expect(await count(records.map((r) => r.id))).toBe(30);
    await recorder.onApplicationShutdown();
    await Promise.all(pending);
    await expect(recorder.record(execution())).rejects.toMatchObject({ code: 'SHUTTING_DOWN' });
  });

  it('writes every batch on a session of its own that never returns to the pool, committing without waiting for the flush only when asked', async () => {
    const pool = (dataSource.driver as unknown as { master: pg.Pool }).master;
    // Every statement each pooled session runs (PostgreSQL still runs them all).
    const statements = new Map<pg.PoolClient, string[]>();
    const watch = (client: pg.PoolClient) => {
      if (statements.has(client)) return;
      const texts: string[] = [];
      statements.set(client, texts);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const first = args[0] as string | { text: string };
        texts.push(typeof first === 'string' ? first : first.text);
        return query(...args);
      };
    };
    pool.on('acquire', watch);
    const sessionsWith = (pattern: RegExp) => [...statements].filter(([, texts]) => texts.some((text) => pattern.test(text)));
    try {
      const durable = recorderOf(dataSource);
      const durableRecords = Array.from({ length: 5 }, () => execution());
      for (const record of durableRecords) await durable.record(record);
      await durable.close();
      expect(await count(durableRecords.map((r) => r.id))).toBe(5);
      // One session it holds for every batch, committing durably.
      expect(sessionsWith(/INSERT INTO executions/)).toHaveLength(1);
      expect(sessionsWith(/synchronous_commit/)).toEqual([]);

      statements.clear();
      const fast = recorderOf(dataSource, { asyncCommit: true });
      const fastRecords = Array.from({ length: 5 }, () => execution());
      for (const record of fastRecords) await fast.record(record);
      await Promise.all(Array.from({ length: 50 }, () => fast.record(execution())));
      // Committed (visible to another session) when each promise resolved.
      expect(await count(fastRecords.map((r) => r.id))).toBe(5);
      const writers = sessionsWith(/INSERT INTO executions/);
      expect(writers).toHaveLength(1);
      const [writer, texts] = writers[0]!;
      expect(texts[0]).toBe('SET synchronous_commit TO off');
      await fast.close();
      // Its session ended with it: the pool does not hand it out again.
      const pid = (writer as unknown as { processID: number }).processID;
      const backends = async () => (await reader.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1', [pid])).rows[0]!.n;
      for (let i = 0; i < 40 && (await backends()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await backends()).toBe(0);
    } finally {
      pool.off('acquire', watch);
    }
  });

  it('survives losing the session it holds: the error is caught, and the next batch opens another', async () => {
    const recorder = recorderOf(dataSource, { asyncCommit: true });
    const held = () => (recorder as unknown as { client?: pg.PoolClient }).client;
    await recorder.record(execution());
    const session = held()!;
    expect(session).toBeDefined();
    // What a server restart or an administrator does to an idle session; its error event used to go uncaught.
    await reader.query('SELECT pg_terminate_backend($1)', [(session as unknown as { processID: number }).processID]);
    for (let i = 0; i < 40 && held() === session; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(held()).toBeUndefined();
    const next = execution();
    await recorder.record(next);
    expect(await count([next.id])).toBe(1);
    expect(held()).toBeDefined();
    expect(held()).not.toBe(session);
    await recorder.close();
  });

  it("queues each record's digest with it, which the stored row gives back whatever it holds (property)", async () => {
    const recorder = recorderOf(dataSource);
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.jsonValue(), fc.string({ unit: 'binary' }), fc.double({ noNaN: true, noDefaultInfinity: true, min: 0 }), fc.option(fc.string({ unit: 'binary', minLength: 1 }), { nil: undefined }), fc.option(fc.array(INTERCEPTOR_RUN, { maxLength: 4 }), { nil: undefined }), async (args, structured, text, durationMs, group, interceptors) => {
        const record = execution({
          ...(group !== undefined ? { group } : {}),
          ...(interceptors !== undefined ? { interceptors } : {}),
          arguments: args,
          result: { content: [{ type: 'text', text }], structuredContent: structured, truncated: false, originalBytes: 1 },
          caller: { principalId: text || 'p', principalName: text },
          durationMs,
        });
        await recorder.record(record);
        const { rows } = await reader.query<RecordRow & { digest: string }>(
          `SELECT p.digest, ${RECORD_COLUMNS} FROM execution_chain_pending p JOIN executions e ON e.id = p.execution_id WHERE p.execution_id = $1`,
          [record.id],
        );
        expect(rows).toHaveLength(1);
        expect(recordDigest(recordContent(rows[0]!)!)).toBe(rows[0]!.digest);
        expect(rows[0]!.digest).toBe(recordDigest(storedContent(record)));
      }),
      { numRuns: 150 },
    );
    await recorder.close();
  });
});
