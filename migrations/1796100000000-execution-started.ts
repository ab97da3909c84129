import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A call to a tool that is not read-only is recorded as `started` before it is sent upstream and
 * completed when it ends; one still `started` when Toolplane stopped becomes `interrupted`. The
 * partial index keeps finding those cheap however long the history grows.
 */
export class ExecutionStarted1796100000000 implements MigrationInterface {
  name = 'ExecutionStarted1796100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE executions DROP CONSTRAINT executions_status_check`);
    await q.query(`ALTER TABLE executions ADD CONSTRAINT executions_status_check CHECK (status IN (
      'succeeded', 'tool_error', 'invalid_arguments', 'rejected', 'circuit_open',
      'timeout', 'upstream_error', 'cancelled', 'input_required', 'started', 'interrupted'
    ))`);
    await q.query(`CREATE INDEX executions_started ON executions (started_at) WHERE status = 'started'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX executions_started`);
    await q.query(`UPDATE executions SET status = 'upstream_error' WHERE status IN ('started', 'interrupted')`);
    await q.query(`ALTER TABLE executions DROP CONSTRAINT executions_status_check`);
    await q.query(`ALTER TABLE executions ADD CONSTRAINT executions_status_check CHECK (status IN (
      'succeeded', 'tool_error', 'invalid_arguments', 'rejected', 'circuit_open',
      'timeout', 'upstream_error', 'cancelled', 'input_required'
    ))`);
  }
}
