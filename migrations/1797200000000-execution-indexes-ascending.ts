import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The history's listing indexes, by name: what each is keyed on before `(started_at, id)`. */
const LISTING_INDEXES: readonly (readonly [name: string, leading: string | null])[] = [
  ['executions_recent', null],
  ['executions_by_tool', 'qualified_name'],
  ['executions_by_source_id', 'source_id'],
  ['executions_by_source_name', 'source_name'],
  ['executions_by_status', 'status'],
  ['executions_by_caller', 'caller_principal'],
];

/**
 * The history's listing indexes become ascending. Listings still read them newest first (a
 * backward scan serves `ORDER BY started_at DESC, id DESC` as a descending index did), but a new
 * execution, the newest, now lands on the right edge of `executions_recent` instead of its left
 * edge: PostgreSQL keeps its place there between inserts, and splits a full right-edge page so
 * that the old page stays full, where left-edge inserts descended from the root each time and
 * left every split page a third empty. The per-filter indexes take a new execution at the end of
 * its group either way; they turn for consistency. Measured on batches of 8 records: 12% less
 * of PostgreSQL's CPU and 11% less WAL per record (docs/performance.md).
 *
 * Each index is built anew beside the old one (`CREATE INDEX CONCURRENTLY`, outside a
 * transaction), then takes its name: calls go on being recorded and listed while a large history
 * is indexed. A run cut short leaves at most a spare index, which the next run drops and builds
 * again.
 */
export class ExecutionIndexesAscending1797200000000 implements MigrationInterface {
  name = 'ExecutionIndexesAscending1797200000000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await rebuild(q, '');
  }

  async down(q: QueryRunner): Promise<void> {
    await rebuild(q, ' DESC');
  }
}

async function rebuild(q: QueryRunner, direction: string): Promise<void> {
  for (const [name, leading] of LISTING_INDEXES) {
    const keys = [...(leading ? [leading] : []), `started_at${direction}`, `id${direction}`].join(', ');
    const spare = `${name}_rebuilt`;
    // An interrupted build leaves an invalid index behind; a finished one is built again all the same.
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${spare}`);
    await q.query(`CREATE INDEX CONCURRENTLY ${spare} ON executions (${keys})`);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
    await q.query(`ALTER INDEX ${spare} RENAME TO ${name}`);
  }
}
