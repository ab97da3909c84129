import type { ChainedAuditEvent } from '../domain/audit-chain.js';
import type { AuditEventFilter, AuditEventView } from './list-audit-events/list-audit-events.query.js';

/** Where a page of the trail ends: its last event's time and id (the listing's order). */
export interface AuditEventKey {
  at: string;
  id: string;
}

/** Port: the audit trail as its queries read it. */
export abstract class AuditReads {
  /** The events the filter matches that come after `after`, newest first (time, then id); at most `limit`. */
  abstract list(filter: AuditEventFilter, after: AuditEventKey | undefined, limit: number): Promise<AuditEventView[]>;
  /** Up to `limit` events of the chain after `afterSeq`, in seq order. */
  abstract chain(afterSeq: number, limit: number): Promise<ChainedAuditEvent[]>;
}
