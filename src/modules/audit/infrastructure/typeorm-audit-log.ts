import type { EntityManager } from 'typeorm';
import type { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { Clock, IdGenerator } from '../../../shared/unit-of-work.js';
import { AuditSigner, chainHash, GENESIS_HASH, type ChainedAuditEvent } from '../domain/audit-chain.js';
import { AuditEvent, AuditLog } from '../domain/audit-event.js';
import { requestContext } from '../../../shared/request-context.js';

/** Serialises writers of the chain (any number, any process): each appends after the last. */
const CHAIN_LOCK = 0x746f6f6c; // "tool"

/**
 * Appends each administrative change to the hash chain, in the change's own transaction: the
 * transaction takes the chain lock, reads the last link, and writes the event with the next
 * number, its hash and its signature. Administrative changes are rare; serialising them costs
 * nothing measurable (see docs/security.md).
 */
export class TypeormAuditLog extends AuditLog {
  constructor(
    private readonly uow: TypeormUnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly signer: AuditSigner,
  ) {
    super();
  }

  async record(event: Omit<AuditEvent, 'id' | 'occurredAt'>): Promise<void> {
    await this.uow.run(async () => {
      const manager = this.uow.manager();
      const last = await lockChain(manager);
      // As it will read back from jsonb, so the hash recomputes from the stored row.
      const details = JSON.parse(JSON.stringify(event.details)) as Record<string, unknown>;
      const request = requestContext.current();
      const full: AuditEvent = {
        ...event,
        details,
        id: this.ids.next(),
        occurredAt: this.clock.now(),
        requestId: event.requestId ?? request?.requestId ?? null,
        clientAddress: event.clientAddress ?? request?.clientAddress ?? null,
      };
      await insertLink(manager, link(full, last, this.signer));
    });
  }

  /** Hashes and signs events written before the chain existed (numbered by the migration); answers how many. */
  async sealPending(): Promise<number> {
    return this.uow.run(async () => {
      const manager = this.uow.manager();
      await manager.query('SELECT pg_advisory_xact_lock($1)', [CHAIN_LOCK]);
      const pending: Row[] = await manager.query(`SELECT * FROM audit_events WHERE hash IS NULL ORDER BY seq`);
      if (pending.length === 0) return 0;
      const before: Row[] = await manager.query(`SELECT seq, hash FROM audit_events WHERE hash IS NOT NULL AND seq < $1 ORDER BY seq DESC LIMIT 1`, [pending[0]!.seq]);
      let prevHash = before[0]?.hash ?? GENESIS_HASH;
      for (const row of pending) {
        const event = toEvent(row);
        const hash = chainHash(prevHash, event.seq, event);
        await manager.query(`UPDATE audit_events SET prev_hash = $2, hash = $3, signature = $4, key_id = $5 WHERE id = $1`, [row.id, prevHash, hash, this.signer.sign(hash), this.signer.keyId]);
        prevHash = hash;
      }
      return pending.length;
    });
  }
}

export interface Row {
  id: string;
  occurred_at: Date;
  actor: string;
  action: string;
  target_type: string;
  target_id: string | null;
  target_name: string | null;
  details: Record<string, unknown>;
  seq: string;
  prev_hash: string | null;
  hash: string | null;
  signature: string | null;
  key_id: string | null;
  request_id: string | null;
  client_address: string | null;
}

export function toEvent(row: Row): ChainedAuditEvent {
  return {
    id: row.id,
    occurredAt: row.occurred_at,
    actor: row.actor,
    action: row.action as AuditEvent['action'],
    targetType: row.target_type as AuditEvent['targetType'],
    targetId: row.target_id,
    targetName: row.target_name,
    details: row.details,
    requestId: row.request_id,
    clientAddress: row.client_address,
    seq: Number(row.seq),
    prevHash: row.prev_hash ?? '',
    hash: row.hash ?? '',
    signature: row.signature ?? '',
    keyId: row.key_id ?? '',
  };
}

async function lockChain(manager: EntityManager): Promise<{ seq: number; hash: string }> {
  await manager.query('SELECT pg_advisory_xact_lock($1)', [CHAIN_LOCK]);
  const rows: { seq: string; hash: string | null }[] = await manager.query(`SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1`);
  return rows[0] ? { seq: Number(rows[0].seq), hash: rows[0].hash ?? GENESIS_HASH } : { seq: 0, hash: GENESIS_HASH };
}

function link(event: AuditEvent, last: { seq: number; hash: string }, signer: AuditSigner): ChainedAuditEvent {
  const seq = last.seq + 1;
  const hash = chainHash(last.hash, seq, event);
  return { ...event, seq, prevHash: last.hash, hash, signature: signer.sign(hash), keyId: signer.keyId };
}

async function insertLink(manager: EntityManager, e: ChainedAuditEvent): Promise<void> {
  await manager.query(
    `INSERT INTO audit_events (id, occurred_at, actor, action, target_type, target_id, target_name, details, seq, prev_hash, hash, signature, key_id, request_id, client_address)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [e.id, e.occurredAt, e.actor, e.action, e.targetType, e.targetId, e.targetName, JSON.stringify(e.details), e.seq, e.prevHash, e.hash, e.signature, e.keyId, e.requestId ?? null, e.clientAddress ?? null],
  );
}
