import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Approvals: tool calls an approval interceptor holds until a person decides them. What the
 * approver is shown is plain (arguments redacted); what runs the call again — its exact input,
 * caller and channel — is `sealed_input`, sealed with a key derived from the encryption key.
 */
export class Approvals1797730000000 implements MigrationInterface {
  name = 'Approvals1797730000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE approvals (
      id uuid PRIMARY KEY,
      execution_id uuid NOT NULL UNIQUE,
      interceptor text NOT NULL,
      qualified_name text NOT NULL,
      source_name text NOT NULL,
      group_name text,
      caller jsonb NOT NULL,
      caller_principal text NOT NULL,
      channel text NOT NULL CHECK (channel IN ('rest', 'mcp')),
      arguments jsonb,
      arguments_hash text NOT NULL,
      sealed_input jsonb NOT NULL,
      tool_description text,
      tool_annotations jsonb,
      message text,
      approvers jsonb NOT NULL,
      status text NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'expired', 'withdrawn')),
      decided_by jsonb,
      comment text,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      decided_at timestamptz
    )`);
    // The listing (newest first, by status) and the sweep of overdue pending ones.
    await q.query(`CREATE INDEX approvals_listing ON approvals (created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX approvals_pending_expiry ON approvals (expires_at) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE approvals`);
  }
}
