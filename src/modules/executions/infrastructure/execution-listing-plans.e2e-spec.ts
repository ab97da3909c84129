import { ExecutionsModule } from '../executions.module.js';
import { randomBytes } from 'node:crypto';
import { DataSource, type Logger } from 'typeorm';
import { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { encodeCursor } from '../../../shared/http/cursor.js';
import { ExecutionIndexesAscending1797200000000 } from '../../../../migrations/1797200000000-execution-indexes-ascending.js';
import { TypeormExecutionReads } from './typeorm-execution-reads.js';
import { TypeormExecutionTasks } from './typeorm-execution-tasks.js';
import { ListExecutionsHandler } from '../application/list-executions/list-executions.handler.js';
import { ExecutionFilter, ListExecutionsQuery } from '../application/list-executions/list-executions.query.js';
import { adminQuery as admin, migratedDataSource, withDatabase } from '../../../../test/helpers/test-database.js';

const SERVER_URL = process.env.TOOLPLANE_TEST_DATABASE_URL!;
const ROWS = 40_000;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** Keeps the SELECTs the listing sends, with their parameters, to explain them afterwards. */
class SelectCapture implements Logger {
  readonly selects: { query: string; parameters: unknown[] }[] = [];
  logQuery(query: string, parameters?: unknown[]): void {
    if (/^\s*SELECT/i.test(query) && /"executions"/.test(query)) this.selects.push({ query, parameters: parameters ?? [] });
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

/**
 * The history's listings on a history large enough for the planner to care: each is read in
 * index order (newest first, by a backward scan of an ascending index) and stops at the page's
 * end, never sorting the matching rows; and the index of the newest executions stays dense as
 * they arrive, because each lands on its right edge.
 */
describe('execution listings on a large history (real PostgreSQL)', () => {
  const dbName = `tp_explan_${randomBytes(6).toString('hex')}`;
  const capture = new SelectCapture();
  let dataSource: DataSource;
  let list: ListExecutionsHandler;

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${dbName}`);
    dataSource = await migratedDataSource(withDatabase(SERVER_URL, dbName), { entities: ExecutionsModule.entities, logging: ['query'], logger: capture, extra: { max: 3 } });
    // Executions in time order, one a second, as calls write them: 40 tools of 8 sources, 20 callers, mostly successes.
    await dataSource.query(
      `INSERT INTO executions (id, qualified_name, source_id, source_name, caller, caller_principal, channel, arguments, status, is_error, attempts, started_at, duration_ms)
       SELECT md5(i::text)::uuid, 'tool' || (i % 40), md5('source' || (i % 8))::uuid, 'source' || (i % 8),
              jsonb_build_object('principalId', 'caller' || (i % 20)), 'caller' || (i % 20), 'rest', '{}'::jsonb,
              CASE WHEN i % 50 = 0 THEN 'timeout' ELSE 'succeeded' END, false, 1,
              timestamptz '2026-01-01' + i * interval '1 second', 1
         FROM generate_series(1, $1::int) AS i`,
      [ROWS],
    );
    await dataSource.query('ANALYZE executions');
    list = new ListExecutionsHandler(new TypeormExecutionReads(new TypeormUnitOfWork(dataSource)), new TypeormExecutionTasks(dataSource), { now: () => new Date() });
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  });

  const cursor = encodeCursor({ at: new Date(Date.parse('2026-01-01') + 20_000_000).toISOString(), id: 'ffffffff-ffff-4fff-bfff-ffffffffffff' });
  const cases: [label: string, filter: ExecutionFilter, cursor: string | undefined, index: string[]][] = [
    ['no filter', {}, undefined, ['executions_recent']],
    ['no filter, a later page', {}, cursor, ['executions_recent']],
    ['a tool', { tool: 'tool7' }, undefined, ['executions_by_tool']],
    ['a tool, a later page', { tool: 'tool7' }, cursor, ['executions_by_tool']],
    // An eighth and a twentieth of the history: reading the newest overall and skipping the others costs about the same.
    ['a source by name', { source: 'source3' }, undefined, ['executions_by_source_name', 'executions_recent']],
    ['a caller', { caller: 'caller11' }, undefined, ['executions_by_caller', 'executions_recent']],
    ['a rare status', { statuses: ['timeout'] }, undefined, ['executions_by_status']],
    // Most calls succeed: the planner may as well read the newest overall and skip the rest.
    ['the common status', { statuses: ['succeeded'] }, undefined, ['executions_by_status', 'executions_recent']],
    ['a time window', { since: new Date('2026-01-01T02:00:00Z'), until: new Date('2026-01-01T05:00:00Z') }, undefined, ['executions_recent']],
  ];

  it.each(cases)('reads %s in index order, newest first, without a sort', async (_label, filter, after, indexes) => {
    capture.selects.length = 0;
    const page = await list.execute(new ListExecutionsQuery(filter, after, 50));
    expect(page.items).toHaveLength(50);
    const times = page.items.map((e) => Date.parse(e.startedAt as unknown as string));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    expect(capture.selects).toHaveLength(1);
    const [{ query, parameters }] = capture.selects;
    const [{ 'QUERY PLAN': [{ Plan }] }] = (await dataSource.query(`EXPLAIN (FORMAT JSON) ${query}`, parameters)) as { 'QUERY PLAN': { Plan: PlanNode }[] }[];
    const all = nodes(Plan);
    expect(all.map((n) => n['Node Type'])).not.toContain('Sort');
    const scans = all.filter((n) => n['Relation Name'] === 'executions');
    expect(scans).toHaveLength(1);
    expect(scans[0]['Node Type']).toBe('Index Scan');
    expect(indexes).toContain(scans[0]['Index Name']);
    expect(scans[0]['Scan Direction']).toBe('Backward');
  });

  it('keeps the index of the newest executions dense as new executions arrive', async () => {
    await dataSource.query('CREATE EXTENSION IF NOT EXISTS pgstattuple');
    await dataSource.query('REINDEX TABLE executions');
    // Another 40,000 executions, newest last, in statements of 8 as the recorder writes them.
    await dataSource.query(
      `DO $$ BEGIN
         FOR b IN 0..4999 LOOP
           INSERT INTO executions (id, qualified_name, source_id, source_name, caller, caller_principal, channel, arguments, status, is_error, attempts, started_at, duration_ms)
           SELECT md5('new' || i)::uuid, 'tool' || (i % 40), md5('source' || (i % 8))::uuid, 'source' || (i % 8),
                  jsonb_build_object('principalId', 'caller' || (i % 20)), 'caller' || (i % 20), 'rest', '{}'::jsonb,
                  'succeeded', false, 1, timestamptz '2026-02-01' + i * interval '1 second', 1
             FROM generate_series(b * 8, b * 8 + 7) AS i;
         END LOOP;
       END $$`,
    );
    const [{ density }] = (await dataSource.query(`SELECT (pgstatindex('executions_recent')).avg_leaf_density AS density`)) as { density: number }[];
    // Rebuilt at 90% full; with the newest on the left edge (a descending index) it fell to 64% here.
    expect(density).toBeGreaterThanOrEqual(85);
  });

  it('turns the indexes back to descending when the migration is undone, and ascending again', async () => {
    // The listing indexes that migration turns (a group's, a later migration's, is left out).
    const definitions = async () =>
      ((await dataSource.query(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'executions' AND indexname NOT IN ('executions_pkey', 'executions_by_group') ORDER BY indexname`)) as { indexname: string; indexdef: string }[]).map(
        (r) => `${r.indexname}: ${r.indexdef.slice(r.indexdef.indexOf('('))}`,
      );
    const ascending = await definitions();
    expect(ascending).toEqual([
      'executions_by_caller: (caller_principal, started_at, id)',
      'executions_by_source_id: (source_id, started_at, id)',
      'executions_by_source_name: (source_name, started_at, id)',
      'executions_by_status: (status, started_at, id)',
      'executions_by_tool: (qualified_name, started_at, id)',
      'executions_recent: (started_at, id)',
    ]);
    const newest = await dataSource.query(`SELECT id FROM executions ORDER BY started_at DESC, id DESC LIMIT 3`);
    const migration = new ExecutionIndexesAscending1797200000000();
    const runner = dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      expect(await definitions()).toEqual(ascending.map((d) => d.replace('started_at, id)', 'started_at DESC, id DESC)')));
      // What a run cut short leaves: a spare index of the next name.
      await runner.query('CREATE INDEX executions_recent_rebuilt ON executions (started_at)');
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect(await definitions()).toEqual(ascending);
    expect(await dataSource.query(`SELECT id FROM executions ORDER BY started_at DESC, id DESC LIMIT 3`)).toEqual(newest);
  });

  it('goes on recording executions while it rebuilds the indexes', async () => {
    const migration = new ExecutionIndexesAscending1797200000000();
    const runner = dataSource.createQueryRunner();
    const writer = dataSource.createQueryRunner();
    let rebuilding = true;
    let writtenMeanwhile = 0;
    try {
      // A write that waits for a lock longer than this fails: a rebuild holding the table for
      // its whole length (a plain DROP and CREATE, about half a second each way here) would.
      await writer.query(`SET lock_timeout = '150ms'`);
      const writes = (async () => {
        for (let i = 0; rebuilding; i++) {
          await writer.query(
            `INSERT INTO executions (id, qualified_name, caller, caller_principal, channel, arguments, status, is_error, attempts, started_at, duration_ms)
             VALUES (md5('during' || $1::text)::uuid, 'tool1', '{}', 'caller1', 'rest', '{}', 'succeeded', false, 1, now(), 1)`,
            [i],
          );
          if (rebuilding) writtenMeanwhile++;
        }
      })();
      await migration.down(runner);
      await migration.up(runner);
      rebuilding = false;
      await writes;
    } finally {
      rebuilding = false;
      await writer.release();
      await runner.release();
    }
    expect(writtenMeanwhile).toBeGreaterThan(20);
  });
});
