import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rate-limit token buckets every process sharing the database takes from (one row per budget:
 * a principal, a tool). UNLOGGED: a crash of PostgreSQL only refills them.
 */
export class SharedRateLimits1796900000000 implements MigrationInterface {
  name = 'SharedRateLimits1796900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE UNLOGGED TABLE rate_limit_buckets (
        key text PRIMARY KEY,
        per_minute integer NOT NULL CHECK (per_minute > 0),
        tokens double precision NOT NULL,
        granted boolean NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX rate_limit_buckets_updated_at ON rate_limit_buckets (updated_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE rate_limit_buckets`);
  }
}
