import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Rate limits: calls per minute per principal (an API key's own) and per tool of a source; NULL: none. */
export class RateLimits1796500000000 implements MigrationInterface {
  name = 'RateLimits1796500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sources ADD COLUMN rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0)`);
    await q.query(`ALTER TABLE api_keys ADD COLUMN rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sources DROP COLUMN rate_limit_per_minute`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN rate_limit_per_minute`);
  }
}
