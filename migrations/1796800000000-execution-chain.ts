import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Execution records get a hash chain of their own (see docs/security.md): `execution_chain` holds
 * one link per record — its number, the previous hash, its hash (over the record's digest), and
 * on the last link of each sealing pass an Ed25519 signature. Recording a call adds its id and
 * digest to `execution_chain_pending` (in the same statement); a sealer links pending records in
 * the background without reading them back. Records written before this migration are pending
 * here, oldest first and without a digest (the sealer reads those), and are sealed when Toolplane starts.
 */
export class ExecutionChain1796800000000 implements MigrationInterface {
  name = 'ExecutionChain1796800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE execution_chain (
        seq bigint PRIMARY KEY,
        execution_id uuid NOT NULL UNIQUE,
        prev_hash text NOT NULL,
        hash text NOT NULL,
        signature text,
        key_id text,
        sealed_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE execution_chain_pending (
        execution_id uuid PRIMARY KEY,
        digest text,
        queued bigint GENERATED ALWAYS AS IDENTITY
      )`);
    await q.query(`CREATE INDEX execution_chain_pending_queued ON execution_chain_pending (queued)`);
    await q.query(`INSERT INTO execution_chain_pending (execution_id) SELECT id FROM executions ORDER BY started_at, id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE execution_chain_pending`);
    await q.query(`DROP TABLE execution_chain`);
  }
}
