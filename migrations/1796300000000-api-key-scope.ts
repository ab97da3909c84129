import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An API key may be restricted to some sources and tools (name patterns); NULL does not restrict. */
export class ApiKeyScope1796300000000 implements MigrationInterface {
  name = 'ApiKeyScope1796300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys ADD COLUMN allowed_sources text[], ADD COLUMN allowed_tools text[]`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys DROP COLUMN allowed_sources, DROP COLUMN allowed_tools`);
  }
}
