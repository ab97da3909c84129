import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A tool's definition as its upstream declared it: the whole tool object (every field, `execution`,
 * `icons`, `_meta` and fields of later revisions included) as `json`, which keeps the text and so
 * the key order (`jsonb` reorders keys). It replaces the `jsonb` input and output schema columns;
 * title, description and annotations keep their columns for queries. `declared_hash` hashes that
 * text as it is (key order included), where `definition_hash` hashes a canonical form: a listing
 * that only reorders keys is not a change, yet catalog versions and ETags still move with it.
 * Rows written before are rebuilt from the old columns (their original key order is lost, and
 * their declared hash is empty); the next refresh of each source stores what its upstream lists.
 */
export class ToolDefinitionAsDeclared1796700000000 implements MigrationInterface {
  name = 'ToolDefinitionAsDeclared1796700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE source_tools ADD COLUMN definition json`);
    await q.query(`
      UPDATE source_tools SET definition = (
        jsonb_build_object('name', name)
        || CASE WHEN title IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('title', title) END
        || CASE WHEN description IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('description', description) END
        || jsonb_build_object('inputSchema', input_schema)
        || CASE WHEN output_schema IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('outputSchema', output_schema) END
        || CASE WHEN annotations IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('annotations', annotations) END
      )::json`);
    await q.query(`ALTER TABLE source_tools ALTER COLUMN definition SET NOT NULL`);
    await q.query(`ALTER TABLE source_tools ADD COLUMN declared_hash text NOT NULL DEFAULT ''`);
    await q.query(`ALTER TABLE source_tools DROP COLUMN input_schema, DROP COLUMN output_schema`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE source_tools ADD COLUMN input_schema jsonb, ADD COLUMN output_schema jsonb`);
    await q.query(`UPDATE source_tools SET input_schema = (definition->'inputSchema')::jsonb, output_schema = (definition->'outputSchema')::jsonb`);
    await q.query(`ALTER TABLE source_tools ALTER COLUMN input_schema SET NOT NULL`);
    await q.query(`ALTER TABLE source_tools DROP COLUMN definition, DROP COLUMN declared_hash`);
  }
}
