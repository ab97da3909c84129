import type { MigrationInterface, QueryRunner } from 'typeorm';

/** API keys: one principal each, with a role; only the key's SHA-256 and its first characters are kept. */
export class ApiKeys1796200000000 implements MigrationInterface {
  name = 'ApiKeys1796200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        owner text,
        role text NOT NULL CHECK (role IN ('admin', 'operator', 'agent', 'auditor')),
        prefix text NOT NULL,
        hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        created_by text NOT NULL,
        expires_at timestamptz,
        revoked_at timestamptz,
        last_used_at timestamptz
      )`);
    await q.query(`CREATE INDEX api_keys_recent ON api_keys (created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE api_keys`);
  }
}
