import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Audit events form a hash chain: `seq` numbers them without gaps, `hash` covers the event and the
 * previous hash, `signature` (Ed25519, with a key the database does not hold) signs the hash.
 * Events written before get their numbers here, in the order they happened; Toolplane seals them
 * (hash and signature) when it starts, since this migration does not hold the key.
 */
export class AuditChain1796400000000 implements MigrationInterface {
  name = 'AuditChain1796400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE audit_events
      ADD COLUMN seq bigint, ADD COLUMN prev_hash text, ADD COLUMN hash text, ADD COLUMN signature text, ADD COLUMN key_id text`);
    await q.query(`UPDATE audit_events e SET seq = n.seq
      FROM (SELECT id, row_number() OVER (ORDER BY occurred_at, id) AS seq FROM audit_events) n WHERE n.id = e.id`);
    await q.query(`ALTER TABLE audit_events ALTER COLUMN seq SET NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX audit_events_seq ON audit_events (seq)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX audit_events_seq`);
    await q.query(`ALTER TABLE audit_events DROP COLUMN seq, DROP COLUMN prev_hash, DROP COLUMN hash, DROP COLUMN signature, DROP COLUMN key_id`);
  }
}
