import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sources (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        description text,
        transport text NOT NULL CHECK (transport IN ('stdio', 'streamable-http', 'sse')),
        lifecycle text NOT NULL CHECK (lifecycle IN ('transient', 'singleton')),
        plugin_dir text,
        manifest jsonb,
        command text,
        command_from_manifest boolean NOT NULL DEFAULT false,
        args jsonb NOT NULL DEFAULT '[]',
        cwd text,
        url text,
        env_sealed jsonb,
        headers_sealed jsonb,
        read_only boolean NOT NULL DEFAULT false,
        timeout_ms integer NOT NULL,
        max_concurrency integer NOT NULL,
        refresh_interval_seconds integer NOT NULL,
        circuit_breaker jsonb NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        health text NOT NULL DEFAULT 'unknown' CHECK (health IN ('unknown', 'healthy', 'degraded', 'unhealthy')),
        last_refresh_at timestamptz,
        last_success_at timestamptz,
        last_error text,
        consecutive_failures integer NOT NULL DEFAULT 0,
        inventory_hash text,
        upstream jsonb,
        refresh_lease_until timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        deleted_at timestamptz,
        version integer NOT NULL DEFAULT 1
      )`);
    // Names are unique among live sources; a removed source keeps its row (and name) for history.
    await q.query(`CREATE UNIQUE INDEX sources_live_name ON sources (name) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX sources_created ON sources (created_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE source_tools (
        id uuid PRIMARY KEY,
        source_id uuid NOT NULL REFERENCES sources (id),
        name text NOT NULL,
        qualified_name text NOT NULL,
        title text,
        description text,
        input_schema jsonb NOT NULL,
        output_schema jsonb,
        annotations jsonb,
        definition_hash text NOT NULL,
        status text NOT NULL CHECK (status IN ('active', 'deprecated')),
        enabled boolean NOT NULL DEFAULT true,
        first_seen_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        retired_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX source_tools_live_qualified_name ON source_tools (qualified_name) WHERE retired_at IS NULL`);
    await q.query(`CREATE UNIQUE INDEX source_tools_live_source_name ON source_tools (source_id, name) WHERE retired_at IS NULL`);

    await q.query(`
      CREATE TABLE secrets (
        name text PRIMARY KEY,
        sealed jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);

    await q.query(`
      CREATE TABLE audit_events (
        id uuid PRIMARY KEY,
        occurred_at timestamptz NOT NULL,
        actor text NOT NULL,
        action text NOT NULL,
        target_type text NOT NULL,
        target_id text,
        target_name text,
        details jsonb NOT NULL DEFAULT '{}'
      )`);
    await q.query(`CREATE INDEX audit_events_recent ON audit_events (occurred_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_events`);
    await q.query(`DROP TABLE secrets`);
    await q.query(`DROP TABLE source_tools`);
    await q.query(`DROP TABLE sources`);
  }
}
