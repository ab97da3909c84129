import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tool groups (a curated selection of tools, with overrides, served as its own MCP server), and the
 * group an execution was called through. A group is found by its name, which is unique.
 */
export class ToolGroups1797500000000 implements MigrationInterface {
  name = 'ToolGroups1797500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE tool_groups (
      id uuid PRIMARY KEY,
      name text NOT NULL UNIQUE,
      description text NOT NULL,
      selectors jsonb NOT NULL,
      include text[] NOT NULL,
      exclude text[] NOT NULL,
      overrides jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      created_by text NOT NULL,
      updated_by text NOT NULL,
      version integer NOT NULL
    )`);
    await q.query(`ALTER TABLE executions ADD COLUMN group_name text`);
    // The history of one group, newest first (a backward scan), as the other listing indexes serve theirs.
    await q.query(`CREATE INDEX executions_by_group ON executions (group_name, started_at, id) WHERE group_name IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX executions_by_group`);
    await q.query(`ALTER TABLE executions DROP COLUMN group_name`);
    await q.query(`DROP TABLE tool_groups`);
  }
}
