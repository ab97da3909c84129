import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-user upstream credentials: how a source authenticates upstream (`upstream_auth`, settings
 * with secret references only), whose credential discovers its tools (`discovery_principal`),
 * the health of a source waiting for that credential, and each principal's own secrets, sealed
 * with the principal and the name bound in.
 */
export class UserSecrets1797740000000 implements MigrationInterface {
  name = 'UserSecrets1797740000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sources ADD COLUMN upstream_auth jsonb NULL, ADD COLUMN discovery_principal jsonb NULL`);
    await q.query(`ALTER TABLE sources DROP CONSTRAINT IF EXISTS sources_health_check`);
    await q.query(`ALTER TABLE sources ADD CONSTRAINT sources_health_check CHECK (health IN ('unknown', 'healthy', 'degraded', 'unhealthy', 'awaiting_connection'))`);
    await q.query(`
      CREATE TABLE user_secrets (
        principal_id text NOT NULL,
        name text NOT NULL,
        sealed jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (principal_id, name)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE user_secrets`);
    await q.query(`UPDATE sources SET health = 'unknown' WHERE health = 'awaiting_connection'`);
    await q.query(`ALTER TABLE sources DROP CONSTRAINT IF EXISTS sources_health_check`);
    await q.query(`ALTER TABLE sources ADD CONSTRAINT sources_health_check CHECK (health IN ('unknown', 'healthy', 'degraded', 'unhealthy'))`);
    await q.query(`ALTER TABLE sources DROP COLUMN upstream_auth, DROP COLUMN discovery_principal`);
  }
}
