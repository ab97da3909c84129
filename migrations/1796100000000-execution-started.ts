import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A call to a tool that is not read-only is recorded in `execution_starts` before it is sent
 * upstream; its outcome, written to `executions`, removes that row in the same statement. A row
 * left there when Toolplane stopped becomes an `interrupted` execution. The table holds only
 * calls in flight, so the history's rows and indexes are still written once per call.
 */
export class ExecutionStarted1796100000000 implements MigrationInterface {
  name = 'ExecutionStarted1796100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE execution_starts (
        id uuid PRIMARY KEY,
        started_at timestamptz NOT NULL,
        record jsonb NOT NULL
      )`);
    await q.query(`ALTER TABLE executions DROP CONSTRAINT executions_status_check`);
    await q.query(`ALTER TABLE executions ADD CONSTRAINT executions_status_check CHECK (status IN (
      'succeeded', 'tool_error', 'invalid_arguments', 'rejected', 'circuit_open',
      'timeout', 'upstream_error', 'cancelled', 'input_required', 'interrupted'
    ))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE executions SET status = 'upstream_error' WHERE status = 'interrupted'`);
    await q.query(`ALTER TABLE executions DROP CONSTRAINT executions_status_check`);
    await q.query(`ALTER TABLE executions ADD CONSTRAINT executions_status_check CHECK (status IN (
      'succeeded', 'tool_error', 'invalid_arguments', 'rejected', 'circuit_open',
      'timeout', 'upstream_error', 'cancelled', 'input_required'
    ))`);
    await q.query(`DROP TABLE execution_starts`);
  }
}
