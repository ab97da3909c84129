import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Executions1763900000000 implements MigrationInterface {
  name = 'Executions1763900000000';

  async up(q: QueryRunner): Promise<void> {
    // History outlives tools and sources: no foreign keys, and the names are kept beside the ids.
    await q.query(`
      CREATE TABLE executions (
        id uuid PRIMARY KEY,
        tool_id uuid,
        qualified_name text NOT NULL,
        source_id uuid,
        source_name text,
        definition_hash text,
        caller jsonb NOT NULL,
        caller_principal text NOT NULL,
        channel text NOT NULL CHECK (channel IN ('rest', 'mcp')),
        arguments jsonb NOT NULL,
        status text NOT NULL CHECK (status IN (
          'succeeded', 'tool_error', 'invalid_arguments', 'rejected', 'circuit_open',
          'timeout', 'upstream_error', 'cancelled', 'input_required'
        )),
        is_error boolean NOT NULL,
        result jsonb,
        error jsonb,
        attempts integer NOT NULL CHECK (attempts >= 0),
        started_at timestamptz NOT NULL,
        duration_ms double precision NOT NULL CHECK (duration_ms >= 0)
      )`);
    // Newest first, overall and within each filter; every listing pages on (started_at, id).
    await q.query(`CREATE INDEX executions_recent ON executions (started_at DESC, id DESC)`);
    await q.query(`CREATE INDEX executions_by_tool ON executions (qualified_name, started_at DESC, id DESC)`);
    await q.query(`CREATE INDEX executions_by_source_id ON executions (source_id, started_at DESC, id DESC)`);
    await q.query(`CREATE INDEX executions_by_source_name ON executions (source_name, started_at DESC, id DESC)`);
    await q.query(`CREATE INDEX executions_by_status ON executions (status, started_at DESC, id DESC)`);
    await q.query(`CREATE INDEX executions_by_caller ON executions (caller_principal, started_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE executions`);
  }
}
