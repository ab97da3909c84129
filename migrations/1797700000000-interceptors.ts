import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Interceptors: the configured pre- and post-call stages of tool calls, one row each, found by
 * their name (unique). The kind's own fields are `settings`; where one applies is `scope`.
 */
export class Interceptors1797700000000 implements MigrationInterface {
  name = 'Interceptors1797700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE interceptors (
      id uuid PRIMARY KEY,
      name text NOT NULL UNIQUE,
      kind text NOT NULL,
      phase text NOT NULL CHECK (phase IN ('pre', 'post')),
      "order" integer NOT NULL,
      scope jsonb NOT NULL,
      settings jsonb NOT NULL,
      on_error text NOT NULL CHECK (on_error IN ('deny', 'allow')),
      timeout_ms integer NOT NULL CHECK (timeout_ms > 0),
      enabled boolean NOT NULL,
      description text NOT NULL,
      version integer NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      created_by text NOT NULL,
      updated_by text NOT NULL
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE interceptors`);
  }
}
