import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the history's listing filters a waiting call by (its source and group, known once the call
 * is accepted to run or held), and the caller's token sealed with a held call of a token-exchange
 * source until the call runs.
 */
export class WaitingCallDetails1797762000000 implements MigrationInterface {
  name = 'WaitingCallDetails1797762000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE execution_tasks ADD COLUMN source_id uuid, ADD COLUMN source_name text, ADD COLUMN group_name text`);
    await q.query(`CREATE INDEX execution_tasks_listing ON execution_tasks (created_at DESC, id DESC)`);
    await q.query(`ALTER TABLE approvals ADD COLUMN sealed_caller_token jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE approvals DROP COLUMN sealed_caller_token`);
    await q.query(`DROP INDEX execution_tasks_listing`);
    await q.query(`ALTER TABLE execution_tasks DROP COLUMN source_id, DROP COLUMN source_name, DROP COLUMN group_name`);
  }
}
