import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Calls that outlive their request (MCP tasks, asynchronous REST calls, calls waiting for
 * approval): one row per execution id while it waits or runs; its final record is in `executions`.
 */
export class ExecutionTasks1797720000000 implements MigrationInterface {
  name = 'ExecutionTasks1797720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE execution_tasks (
        id uuid PRIMARY KEY,
        caller_principal text NOT NULL,
        caller_name text NOT NULL,
        qualified_name text NOT NULL,
        channel text NOT NULL,
        status text NOT NULL CHECK (status IN ('working', 'pending_approval')),
        status_message text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        ttl_ms bigint,
        poll_interval_ms integer NOT NULL,
        cancel_requested boolean NOT NULL DEFAULT false,
        upstream_task_id text,
        approval_id uuid
      )`);
    await q.query(`CREATE INDEX execution_tasks_principal ON execution_tasks (caller_principal, id DESC)`);
    await q.query(`CREATE INDEX execution_tasks_created ON execution_tasks (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE execution_tasks`);
  }
}
