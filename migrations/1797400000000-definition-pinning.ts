import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Definition pinning: each source's `pinning` mode; each tool's review state, its last approved
 * definition and the definition scan's findings; the reviews of held definitions; and the
 * `reviewer` role. Tools known before are approved as they are.
 */
export class DefinitionPinning1797400000000 implements MigrationInterface {
  name = 'DefinitionPinning1797400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sources ADD COLUMN pinning text NOT NULL DEFAULT 'auto' CHECK (pinning IN ('auto', 'review', 'off'))`);
    await q.query(`ALTER TABLE source_tools
        ADD COLUMN review_state text NOT NULL DEFAULT 'approved' CHECK (review_state IN ('approved', 'pending_review', 'rejected')),
        ADD COLUMN approved_hash text,
        ADD COLUMN approved_definition json,
        ADD COLUMN scan_findings jsonb NOT NULL DEFAULT '[]'`);
    await q.query(`UPDATE source_tools SET approved_hash = definition_hash, approved_definition = definition`);
    await q.query(`CREATE TABLE definition_reviews (
        id uuid PRIMARY KEY,
        tool_id uuid NOT NULL REFERENCES source_tools (id),
        source_id uuid NOT NULL,
        source_name text NOT NULL,
        tool_name text NOT NULL,
        qualified_name text NOT NULL,
        definition_hash text NOT NULL,
        definition json NOT NULL,
        previous_hash text,
        previous_definition json,
        changes jsonb NOT NULL,
        findings jsonb NOT NULL,
        state text NOT NULL CHECK (state IN ('pending', 'approved', 'rejected', 'superseded')),
        created_at timestamptz NOT NULL,
        decided_at timestamptz,
        decided_by text,
        comment text
      )`);
    await q.query(`CREATE INDEX definition_reviews_recent ON definition_reviews (created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX definition_reviews_pending ON definition_reviews (tool_id) WHERE state = 'pending'`);
    await q.query(`ALTER TABLE api_keys DROP CONSTRAINT api_keys_role_check`);
    await q.query(`ALTER TABLE api_keys ADD CONSTRAINT api_keys_role_check CHECK (role IN ('admin', 'operator', 'agent', 'auditor', 'reviewer'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys DROP CONSTRAINT api_keys_role_check`);
    await q.query(`ALTER TABLE api_keys ADD CONSTRAINT api_keys_role_check CHECK (role IN ('admin', 'operator', 'agent', 'auditor'))`);
    await q.query(`DROP TABLE definition_reviews`);
    await q.query(`ALTER TABLE source_tools DROP COLUMN review_state, DROP COLUMN approved_hash, DROP COLUMN approved_definition, DROP COLUMN scan_findings`);
    await q.query(`ALTER TABLE sources DROP COLUMN pinning`);
  }
}
