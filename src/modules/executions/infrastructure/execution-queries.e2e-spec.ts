import { ExecutionsModule } from '../executions.module.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../shared/domain-error.js';
import { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { encodeCursor } from '../../../shared/http/cursor.js';
import type { ExecutionRecord, ExecutionStatus } from '../domain/execution.js';
import type { ExecutionTask } from '../domain/execution-task.js';
import { GroupCommitExecutionRecorder } from './group-commit-execution-recorder.js';
import { TypeormExecutionReads } from './typeorm-execution-reads.js';
import { TypeormExecutionTasks } from './typeorm-execution-tasks.js';
import { ExecutionStatsHandler } from '../application/execution-stats/execution-stats.handler.js';
import { ExecutionStatsQuery } from '../application/execution-stats/execution-stats.query.js';
import type { ShownExecution } from '../application/execution-view.js';
import { GetExecutionHandler } from '../application/get-execution/get-execution.handler.js';
import { GetExecutionQuery } from '../application/get-execution/get-execution.query.js';
import { ListExecutionsHandler } from '../application/list-executions/list-executions.handler.js';
import { ExecutionFilter, ListExecutionsQuery } from '../application/list-executions/list-executions.query.js';
import { adminQuery as admin, migratedDataSource, withDatabase } from '../../../../test/helpers/test-database.js';
import { aTask } from '../testing/builders.js';

const SERVER_URL = process.env.TOOLPLANE_TEST_DATABASE_URL!;
const FILES = { id: randomUUID(), name: 'files' };
const WEB = { id: randomUUID(), name: 'web' };
const BASE = new Date('2026-03-01T12:00:00.000Z');
const NOW = new Date(BASE.getTime() + 60 * 60 * 1000);
const minutesBefore = (m: number) => new Date(BASE.getTime() - m * 60 * 1000);


let seq = 0;
function execution(
  tool: string,
  source: { id: string; name: string } | null,
  status: ExecutionStatus,
  durationMs: number,
  principalId: string,
  startedAt = minutesBefore(Math.floor(seq / 2)), // two by two on the same instant: ties are paged by id
): ExecutionRecord {
  seq += 1;
  return {
    id: randomUUID(),
    toolId: source ? randomUUID() : null,
    qualifiedName: tool,
    sourceId: source?.id ?? null,
    sourceName: source?.name ?? null,
    definitionHash: source ? 'sha256:1234' : null,
    caller: { principalId, principalName: principalId.toUpperCase(), clientName: 'jest', protocolVersion: '2026-07-28' },
    channel: seq % 2 ? 'rest' : 'mcp',
    arguments: { n: seq },
    status,
    isError: status === 'tool_error',
    result:
      status === 'succeeded' || status === 'tool_error'
        ? { content: [{ type: 'text', text: `answer ${seq}` }], structuredContent: { n: seq }, truncated: false, originalBytes: 30 }
        : null,
    error: status === 'succeeded' || status === 'tool_error' ? null : { code: status.toUpperCase(), message: `failed: ${status}`, retryable: status === 'timeout' },
    attempts: status === 'rejected' ? 0 : 1,
    startedAt,
    durationMs,
  };
}

const DATA: ExecutionRecord[] = [
  execution('files__read', FILES, 'succeeded', 10, 'alice'),
  execution('files__read', FILES, 'succeeded', 20, 'alice'),
  execution('files__read', FILES, 'tool_error', 30, 'bob'),
  execution('files__read', FILES, 'timeout', 40, 'alice'),
  execution('files__read', FILES, 'succeeded', 50, 'bob'),
  execution('files__write', FILES, 'succeeded', 100, 'bob'),
  {
    ...execution('files__write', FILES, 'rejected', 200, 'bob'),
    error: { code: 'INTERCEPTOR_DENIED', message: 'Interceptor "no-etc" refused the call: /etc is off limits', retryable: false },
    interceptors: [{ name: 'no-etc', kind: 'deny', phase: 'pre', decision: 'deny', message: '/etc is off limits', durationMs: 0.04 }],
  },
  execution('files__write', FILES, 'succeeded', 300, 'bob'),
  execution('web__fetch', WEB, 'upstream_error', 1, 'carol'),
  execution('web__fetch', WEB, 'succeeded', 2, 'carol'),
  execution('web__fetch', WEB, 'succeeded', 3, 'carol'),
  execution('web__fetch', WEB, 'invalid_arguments', 4, 'carol'),
  execution('ghost__gone', null, 'rejected', 5, 'alice'),
  // Two days old: outside the default stats window.
  execution('files__read', FILES, 'succeeded', 9999, 'alice', new Date(BASE.getTime() - 2 * 24 * 60 * 60 * 1000)),
];

/** What a listing must answer: newest first, ties broken by id (descending). */
function expected(predicate: (e: ExecutionRecord) => boolean = () => true): string[] {
  return DATA.filter(predicate)
    .sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime() || (a.id < b.id ? 1 : -1))
    .map((e) => e.id);
}

describe('execution queries (real PostgreSQL)', () => {
  const dbName = `tp_exq_${randomBytes(6).toString('hex')}`;
  let dataSource: DataSource;
  let list: ListExecutionsHandler;
  let get: GetExecutionHandler;
  let stats: ExecutionStatsHandler;

  const ids = async (filter: ExecutionFilter, limit = 500) => (await list.execute(new ListExecutionsQuery(filter, undefined, limit))).items.map((e) => e.id);

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    dataSource = await migratedDataSource(withDatabase(SERVER_URL, dbName), { entities: ExecutionsModule.entities, extra: { max: 5 } });
    const recorder = new GroupCommitExecutionRecorder(dataSource);
    await Promise.all(DATA.map((e) => recorder.record(e)));
    await recorder.close();
    const reads = new TypeormExecutionReads(new TypeormUnitOfWork(dataSource));
    list = new ListExecutionsHandler(reads, new TypeormExecutionTasks(dataSource), { now: () => NOW });
    get = new GetExecutionHandler(reads, new TypeormExecutionTasks(dataSource), { now: () => NOW });
    stats = new ExecutionStatsHandler(reads, { now: () => NOW });
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  describe('ListExecutions', () => {
    it('lists newest first and pages with an opaque cursor across 3 pages', async () => {
      const pages: ShownExecution[][] = [];
      let cursor: string | undefined;
      do {
        const page = await list.execute(new ListExecutionsQuery({}, cursor, 5));
        pages.push(page.items);
        cursor = page.nextCursor ?? undefined;
        if (cursor) expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      } while (cursor);
      expect(pages.map((p) => p.length)).toEqual([5, 5, 4]);
      expect(pages.flat().map((e) => e.id)).toEqual(expected());
    });

    it('answers no cursor when the last page is exactly full', async () => {
      const page = await list.execute(new ListExecutionsQuery({}, undefined, DATA.length));
      expect(page.items).toHaveLength(DATA.length);
      expect(page.nextCursor).toBeNull();
    });

    it('pages a filtered listing with the filter kept', async () => {
      const first = await list.execute(new ListExecutionsQuery({ source: 'files' }, undefined, 4));
      const second = await list.execute(new ListExecutionsQuery({ source: 'files' }, first.nextCursor!, 4));
      const third = await list.execute(new ListExecutionsQuery({ source: 'files' }, second.nextCursor!, 4));
      expect(third.nextCursor).toBeNull();
      expect([...first.items, ...second.items, ...third.items].map((e) => e.id)).toEqual(expected((e) => e.sourceName === 'files'));
    });

    it('filters by tool, source (name or id), status, caller and time window', async () => {
      expect(await ids({ tool: 'files__read' })).toEqual(expected((e) => e.qualifiedName === 'files__read'));
      expect(await ids({ tool: 'nope__nothing' })).toEqual([]);
      expect(await ids({ source: 'web' })).toEqual(expected((e) => e.sourceId === WEB.id));
      expect(await ids({ source: FILES.id })).toEqual(expected((e) => e.sourceId === FILES.id));
      expect(await ids({ source: randomUUID() })).toEqual([]);
      expect(await ids({ statuses: ['rejected'] })).toEqual(expected((e) => e.status === 'rejected'));
      expect(await ids({ statuses: ['tool_error', 'timeout', 'upstream_error'] })).toEqual(
        expected((e) => ['tool_error', 'timeout', 'upstream_error'].includes(e.status)),
      );
      expect(await ids({ caller: 'bob' })).toEqual(expected((e) => e.caller.principalId === 'bob'));
      const since = minutesBefore(3);
      const until = minutesBefore(1);
      expect(await ids({ since })).toEqual(expected((e) => e.startedAt >= since));
      expect(await ids({ until })).toEqual(expected((e) => e.startedAt < until));
      expect(await ids({ since, until })).toEqual(expected((e) => e.startedAt >= since && e.startedAt < until));
      expect(await ids({ tool: 'files__read', caller: 'alice', statuses: ['succeeded'], source: 'files' })).toEqual(
        expected((e) => e.qualifiedName === 'files__read' && e.caller.principalId === 'alice' && e.status === 'succeeded'),
      );
    });

    it('refuses a cursor it did not issue with INVALID_CURSOR', async () => {
      const forged = [
        'not a cursor!',
        encodeCursor({ at: 'yesterday', id: randomUUID() }),
        encodeCursor({ at: BASE.toISOString(), id: 'not-a-uuid' }),
        encodeCursor({ at: BASE.toISOString() }),
        Buffer.from('[1,2]').toString('base64url'),
      ];
      for (const cursor of forged) {
        await expect(list.execute(new ListExecutionsQuery({}, cursor, 10))).rejects.toMatchObject({ kind: 'invalid', code: 'INVALID_CURSOR' });
      }
    });
  });

  describe('GetExecution', () => {
    it('answers the whole execution', async () => {
      const original = DATA.find((e) => e.status === 'timeout')!;
      expect(await get.execute(new GetExecutionQuery(original.id))).toEqual({ ...original, startedAt: original.startedAt.toISOString(), traceId: null, group: null, interceptors: [] });
      const denied = DATA.find((e) => e.error?.code === 'INTERCEPTOR_DENIED')!;
      expect(await get.execute(new GetExecutionQuery(denied.id))).toEqual({ ...denied, startedAt: denied.startedAt.toISOString(), traceId: null, group: null });
      const ghost = DATA.find((e) => e.qualifiedName === 'ghost__gone')!;
      expect(await get.execute(new GetExecutionQuery(ghost.id))).toMatchObject({ toolId: null, sourceId: null, sourceName: null, result: null, attempts: 0 });
    });

    it('answers EXECUTION_NOT_FOUND for an unknown id and for an id that is not a uuid', async () => {
      for (const id of [randomUUID(), 'not-a-uuid', "1' OR '1'='1"]) {
        const error = await get.execute(new GetExecutionQuery(id)).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DomainError);
        expect(error).toMatchObject({ kind: 'not_found', code: 'EXECUTION_NOT_FOUND' });
      }
    });
  });

  describe('ExecutionStats', () => {
    const statuses = (counts: Partial<Record<ExecutionStatus, number>>) => ({
      succeeded: 0,
      tool_error: 0,
      invalid_arguments: 0,
      rejected: 0,
      circuit_open: 0,
      timeout: 0,
      upstream_error: 0,
      cancelled: 0,
      input_required: 0,
      interrupted: 0,
      ...counts,
    });

    it('groups the last 24 hours by tool, busiest first, with exact percentiles', async () => {
      const view = await stats.execute(new ExecutionStatsQuery('tool', undefined, undefined));
      expect(view.groupBy).toBe('tool');
      expect(view.since).toBe(new Date(NOW.getTime() - 24 * 60 * 60 * 1000).toISOString());
      expect(view.until).toBeNull();
      expect(view.groups).toEqual([
        // durations 10..50: p50 = 30; p95 at rank 3.8 = 40 + 0.8 * 10
        { qualifiedName: 'files__read', count: 5, errorCount: 2, errorRate: 0.4, countsByStatus: statuses({ succeeded: 3, tool_error: 1, timeout: 1 }), p50DurationMs: 30, p95DurationMs: 48 },
        { qualifiedName: 'web__fetch', count: 4, errorCount: 2, errorRate: 0.5, countsByStatus: statuses({ succeeded: 2, upstream_error: 1, invalid_arguments: 1 }), p50DurationMs: 2.5, p95DurationMs: 3.85 },
        { qualifiedName: 'files__write', count: 3, errorCount: 1, errorRate: 1 / 3, countsByStatus: statuses({ succeeded: 2, rejected: 1 }), p50DurationMs: 200, p95DurationMs: 290 },
        { qualifiedName: 'ghost__gone', count: 1, errorCount: 1, errorRate: 1, countsByStatus: statuses({ rejected: 1 }), p50DurationMs: 5, p95DurationMs: 5 },
      ]);
    });

    it('groups by source, calls that resolved to no source in a group of their own', async () => {
      const view = await stats.execute(new ExecutionStatsQuery('source', undefined, undefined));
      expect(view.groups).toEqual([
        // durations 10, 20, 30, 40, 50, 100, 200, 300: p50 = 45; p95 at rank 6.65 = 200 + 0.65 * 100
        expect.objectContaining({ sourceId: FILES.id, sourceName: 'files', count: 8, errorCount: 3, errorRate: 0.375, p50DurationMs: 45, p95DurationMs: 265 }),
        expect.objectContaining({ sourceId: WEB.id, sourceName: 'web', count: 4, errorRate: 0.5 }),
        expect.objectContaining({ sourceId: null, sourceName: null, count: 1, errorRate: 1 }),
      ]);
      expect(view.groups[0]).not.toHaveProperty('qualifiedName');
    });

    it('honours since and until', async () => {
      const since = new Date(BASE.getTime() - 3 * 24 * 60 * 60 * 1000);
      const wide = await stats.execute(new ExecutionStatsQuery('tool', since, undefined));
      expect(wide.groups[0]).toMatchObject({ qualifiedName: 'files__read', count: 6 });
      const until = new Date(BASE.getTime() - 24 * 60 * 60 * 1000);
      const old = await stats.execute(new ExecutionStatsQuery('tool', since, until));
      expect(old).toMatchObject({ since: since.toISOString(), until: until.toISOString() });
      expect(old.groups).toEqual([expect.objectContaining({ qualifiedName: 'files__read', count: 1, p50DurationMs: 9999, p95DurationMs: 9999, errorRate: 0 })]);
      expect((await stats.execute(new ExecutionStatsQuery('source', new Date(NOW.getTime() + 1000), undefined))).groups).toEqual([]);
    });
  });

  describe('ListExecutions with calls that wait', () => {
    let tasks: TypeormExecutionTasks;
    const task = (overrides: Partial<ExecutionTask>): ExecutionTask =>
      aTask({ id: randomUUID(), principalId: 'alice', principalName: 'ALICE', createdAt: BASE, sourceId: FILES.id, sourceName: FILES.name, ...overrides });
    // Newer than every record, one older than most, one with a final record already, one expired.
    const working = task({ createdAt: new Date(BASE.getTime() + 60_000) });
    const held = task({ status: 'pending_approval', principalId: 'bob', principalName: 'BOB', createdAt: new Date(BASE.getTime() + 30_000), sourceId: WEB.id, sourceName: WEB.name, qualifiedName: 'web__fetch', group: 'team' });
    const older = task({ createdAt: minutesBefore(3.5) });
    const ended = task({ id: DATA[0]!.id, createdAt: DATA[0]!.startedAt });
    const expired = task({ createdAt: minutesBefore(1), ttlMs: 1000 });

    beforeAll(async () => {
      tasks = new TypeormExecutionTasks(dataSource);
      for (const t of [working, held, older, ended, expired]) await tasks.create(t);
    });

    afterAll(async () => {
      await dataSource.query('DELETE FROM execution_tasks');
    });

    it('shows the calls that wait among the records, newest first, across pages, each once', async () => {
      const pages: ShownExecution[][] = [];
      let cursor: string | undefined;
      do {
        const page = await list.execute(new ListExecutionsQuery({}, cursor, 4));
        pages.push(page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      const all = pages.flat();
      expect(all.map((e) => e.id)).toEqual(
        [...DATA.map((e) => ({ id: e.id, at: e.startedAt })), ...[working, held, older].map((t) => ({ id: t.id, at: t.createdAt }))]
          .sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1))
          .map((e) => e.id),
      );
      expect(all.slice(0, 2)).toEqual([
        expect.objectContaining({ id: working.id, status: 'working', qualifiedName: 'files__write', sourceName: 'files', result: null, error: null }),
        expect.objectContaining({ id: held.id, status: 'pending_approval', caller: { principalId: 'bob', principalName: 'BOB' } }),
      ]);
      expect(all.filter((e) => e.id === ended.id)).toEqual([expect.objectContaining({ status: DATA[0]!.status })]);
    });

    it('filters the calls that wait as the records: by status, source, group, caller and window', async () => {
      expect(await ids({ statuses: ['working'] })).toEqual([working.id, older.id]);
      expect(await ids({ statuses: ['pending_approval', 'upstream_error'] })).toEqual([held.id, ...expected((e) => e.status === 'upstream_error')]);
      expect(await ids({ source: WEB.id, statuses: ['pending_approval', 'working'] })).toEqual([held.id]);
      expect(await ids({ source: 'files', statuses: ['working'] })).toEqual([working.id, older.id]);
      expect(await ids({ group: 'team' })).toEqual([held.id]);
      expect(await ids({ caller: 'bob', statuses: ['working', 'pending_approval'] })).toEqual([held.id]);
      expect(await ids({ tool: 'files__write', since: BASE, statuses: ['working'] })).toEqual([working.id]);
      expect(await ids({ until: BASE, statuses: ['working'] })).toEqual([older.id]);
      expect(await ids({ statuses: ['succeeded'] })).toEqual(expected((e) => e.status === 'succeeded'));
    });
  });
});
