import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A stdio source's sandbox settings: network on/off and the host paths its processes may read
 * or write beyond the base view. Existing sources keep the defaults (network on, no extra paths).
 */
export class SourceSandbox1795900000000 implements MigrationInterface {
  name = 'SourceSandbox1795900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sources ADD COLUMN sandbox jsonb NOT NULL DEFAULT '{}'::jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sources DROP COLUMN sandbox`);
  }
}
