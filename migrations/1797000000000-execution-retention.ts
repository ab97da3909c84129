import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Retention of the execution history (TOOLPLANE_EXECUTION_RETENTION): a purge deletes the oldest
 * executions together with their links of `execution_chain`, and moves the chain's anchor — one
 * row, the last purged link's number and hash, signed — so verification starts after it. The row
 * also counts what was purged since the last `executions.purged` audit event, so a pass cut short
 * is reported by the next one. The purge walks the chain by `seq` and deletes by primary keys: it
 * needs no index of its own.
 */
export class ExecutionRetention1797000000000 implements MigrationInterface {
  name = 'ExecutionRetention1797000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE execution_chain_anchor (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        seq bigint NOT NULL,
        hash text NOT NULL,
        purged_before timestamptz,
        purged_count bigint NOT NULL,
        signature text,
        key_id text,
        updated_at timestamptz NOT NULL,
        unrecorded_from_seq bigint,
        unrecorded_count bigint NOT NULL DEFAULT 0,
        unrecorded_oldest timestamptz,
        unrecorded_newest timestamptz
      )`);
    await q.query(`INSERT INTO execution_chain_anchor (seq, hash, purged_count, updated_at) VALUES (0, repeat('0', 64), 0, now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE execution_chain_anchor`);
  }
}
