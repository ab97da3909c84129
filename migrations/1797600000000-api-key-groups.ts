import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An API key may be bound to tool groups (name patterns): it then sees and calls tools only through them; NULL does not bind. */
export class ApiKeyGroups1797600000000 implements MigrationInterface {
  name = 'ApiKeyGroups1797600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys ADD COLUMN allowed_groups text[]`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys DROP COLUMN allowed_groups`);
  }
}
