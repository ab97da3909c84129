import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where the source's upstream lists each tool in its tools/list (0 first), so that
 * `/mcp/sources/{name}` can list the tools in the upstream's order. Tools discovered before this
 * have none until their source's next refresh; meanwhile they follow the others, by name.
 */
export class ToolListPosition1797300000000 implements MigrationInterface {
  name = 'ToolListPosition1797300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE source_tools ADD COLUMN list_position integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE source_tools DROP COLUMN list_position`);
  }
}
