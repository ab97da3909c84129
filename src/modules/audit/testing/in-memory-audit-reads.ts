import { AuditReads, type AuditEventKey } from '../application/audit-reads.js';
import type { AuditEventFilter, AuditEventView } from '../application/list-audit-events/list-audit-events.query.js';
import { chainHash, GENESIS_HASH, type AuditSigner, type ChainedAuditEvent } from '../domain/audit-chain.js';
import type { AuditEvent } from '../domain/audit-event.js';

/**
 * The audit trail in memory: `append` links and signs events as the audit log does; a spec may
 * change, drop or add `events` behind its back, as someone writing the database would. Keeps what
 * was asked of it.
 */
export class InMemoryAuditReads extends AuditReads {
  events: ChainedAuditEvent[] = [];
  /** The port's methods called, in order. */
  readonly calls: string[] = [];
  readonly chainReads: { afterSeq: number; limit: number }[] = [];

  constructor(private readonly signer: AuditSigner) {
    super();
  }

  /** Each event linked after the last one and signed. */
  append(...events: AuditEvent[]): ChainedAuditEvent[] {
    for (const event of events) {
      const last = this.events.at(-1);
      const seq = (last?.seq ?? 0) + 1;
      const prevHash = last?.hash ?? GENESIS_HASH;
      const hash = chainHash(prevHash, seq, event);
      this.events.push({ requestId: null, clientAddress: null, ...structuredClone(event), seq, prevHash, hash, signature: this.signer.sign(hash), keyId: this.signer.keyId });
    }
    return this.events.slice(-events.length);
  }

  async list(filter: AuditEventFilter, after: AuditEventKey | undefined, limit: number): Promise<AuditEventView[]> {
    this.calls.push('list');
    return this.events
      .filter((event) => matches(event, filter) && (!after || comesAfter(event, after)))
      .sort((a, b) => b.occurredAt.getTime() - a.occurredAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .slice(0, limit)
      .map(toView);
  }

  async chain(afterSeq: number, limit: number): Promise<ChainedAuditEvent[]> {
    this.calls.push('chain');
    this.chainReads.push({ afterSeq, limit });
    return this.events
      .filter((event) => event.seq > afterSeq)
      .sort((a, b) => a.seq - b.seq)
      .slice(0, limit)
      .map((event) => structuredClone(event));
  }
}

function matches(event: ChainedAuditEvent, filter: AuditEventFilter): boolean {
  return (
    (!filter.action || event.action === filter.action) &&
    (!filter.targetType || event.targetType === filter.targetType) &&
    (!filter.target || event.targetId === filter.target || event.targetName === filter.target) &&
    (!filter.actor || event.actor === filter.actor) &&
    (!filter.since || event.occurredAt.getTime() >= filter.since.getTime()) &&
    (!filter.until || event.occurredAt.getTime() < filter.until.getTime())
  );
}

/** (occurredAt, id) < (at, id), as the listing's keyset compares. */
function comesAfter(event: ChainedAuditEvent, key: AuditEventKey): boolean {
  const at = Date.parse(key.at);
  return event.occurredAt.getTime() < at || (event.occurredAt.getTime() === at && event.id < key.id);
}

function toView(event: ChainedAuditEvent): AuditEventView {
  return {
    id: event.id,
    occurredAt: event.occurredAt.toISOString(),
    actor: event.actor,
    action: event.action,
    targetType: event.targetType,
    targetId: event.targetId,
    targetName: event.targetName,
    details: structuredClone(event.details),
    seq: event.seq,
    hash: event.hash,
    requestId: event.requestId ?? null,
    clientAddress: event.clientAddress ?? null,
  };
}
