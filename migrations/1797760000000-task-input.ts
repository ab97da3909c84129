import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A task may wait for its caller's input (`awaiting_input`): what the upstream asks is kept with
 * the task, so any replica answers for it; answers given to another replica wait in
 * `input_responses` only until the process running the call takes them (within a second).
 */
export class TaskInput1797760000000 implements MigrationInterface {
  name = 'TaskInput1797760000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE execution_tasks DROP CONSTRAINT IF EXISTS execution_tasks_status_check`);
    await q.query(`ALTER TABLE execution_tasks ADD CONSTRAINT execution_tasks_status_check CHECK (status IN ('working', 'pending_approval', 'awaiting_input'))`);
    await q.query(`ALTER TABLE execution_tasks ADD COLUMN input_requests jsonb, ADD COLUMN input_responses jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE execution_tasks SET status = 'working' WHERE status = 'awaiting_input'`);
    await q.query(`ALTER TABLE execution_tasks DROP COLUMN input_requests, DROP COLUMN input_responses`);
    await q.query(`ALTER TABLE execution_tasks DROP CONSTRAINT IF EXISTS execution_tasks_status_check`);
    await q.query(`ALTER TABLE execution_tasks ADD CONSTRAINT execution_tasks_status_check CHECK (status IN ('working', 'pending_approval'))`);
  }
}
