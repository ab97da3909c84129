import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Full-text search for the catalog (`GET /api/v1/tools?q=`): a generated tsvector over a tool's
 * names (weight A; `simple` configuration, with `-`, `_`, `.` and camelCase split into words as
 * well as kept whole), title (B) and description (C; both `english`, stemmed), and a GIN index on
 * the live rows. Long texts are cut before indexing: a tsvector holds at most 1 MB.
 */
export class CatalogSearch1795328440691 implements MigrationInterface {
  name = 'CatalogSearch1795328440691';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE source_tools ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('simple'::regconfig,
          left(name, 1000) || ' ' || qualified_name || ' ' ||
          regexp_replace(regexp_replace(left(name, 1000), '([[:lower:][:digit:]])([[:upper:]])', '\\1 \\2', 'g'), '[^[:alnum:]]+', ' ', 'g')
        ), 'A') ||
        setweight(to_tsvector('english'::regconfig, left(coalesce(title, ''), 10000)), 'B') ||
        setweight(to_tsvector('english'::regconfig, left(coalesce(description, ''), 100000)), 'C')
      ) STORED`);
    await q.query(`CREATE INDEX source_tools_search ON source_tools USING gin (search_vector) WHERE retired_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX source_tools_search`);
    await q.query(`ALTER TABLE source_tools DROP COLUMN search_vector`);
  }
}
