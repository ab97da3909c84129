import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The interceptors that ran on a call (name, kind, phase, decision, what changed, time), in order; null when none did. */
export class ExecutionInterceptors1797710000000 implements MigrationInterface {
  name = 'ExecutionInterceptors1797710000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE executions ADD COLUMN interceptors jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE executions DROP COLUMN interceptors`);
  }
}
