import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each execution names the trace it ran in (W3C trace id, 32 hex characters), when traces are on. */
export class ExecutionTraceId1797100000000 implements MigrationInterface {
  name = 'ExecutionTraceId1797100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE executions ADD COLUMN trace_id text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE executions DROP COLUMN trace_id`);
  }
}
