import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Audit events name the HTTP request that made the change: its id and the client's address. */
export class AuditRequest1796600000000 implements MigrationInterface {
  name = 'AuditRequest1796600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE audit_events ADD COLUMN request_id text, ADD COLUMN client_address text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE audit_events DROP COLUMN request_id, DROP COLUMN client_address`);
  }
}
