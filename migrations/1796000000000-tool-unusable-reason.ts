import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Why a discovered tool cannot be called (its inputSchema is over a limit or cannot be compiled);
 * null for a usable tool. Such a tool stays in the inventory, with its reason, out of what agents list.
 */
export class ToolUnusableReason1796000000000 implements MigrationInterface {
  name = 'ToolUnusableReason1796000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE source_tools ADD COLUMN unusable_reason text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE source_tools DROP COLUMN unusable_reason`);
  }
}
