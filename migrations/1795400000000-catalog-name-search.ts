import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Substring search over tool names for the catalog's one-word searches (`GET /api/v1/tools?q=`,
 * the gateway's `search_tools`): a trigram index on a live tool's name and qualified name, so that
 * `%word%` no longer reads every tool. `pg_trgm` ships with PostgreSQL and is a trusted extension
 * (since PostgreSQL 13): a database owner without superuser rights may create it.
 *
 * Both GIN indexes of the catalog are written through (`fastupdate = off`): with the default
 * pending list, the rows of a bulk registration wait unmerged until the next vacuum, and every
 * search in between scans them all (hundreds of milliseconds at 10,000 tools).
 */
export class CatalogNameSearch1795400000000 implements MigrationInterface {
  name = 'CatalogNameSearch1795400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(
      `CREATE INDEX source_tools_names_trgm ON source_tools USING gin (lower(name || ' ' || qualified_name) gin_trgm_ops) WITH (fastupdate = off) WHERE retired_at IS NULL`,
    );
    await q.query(`ALTER INDEX source_tools_search SET (fastupdate = off)`);
    // What already waits in the full-text index's pending list is merged now.
    await q.query(`SELECT gin_clean_pending_list('source_tools_search'::regclass)`);
  }

  async down(q: QueryRunner): Promise<void> {
    // The extension stays: other objects may use it.
    await q.query(`ALTER INDEX source_tools_search RESET (fastupdate)`);
    await q.query(`DROP INDEX source_tools_names_trgm`);
  }
}
