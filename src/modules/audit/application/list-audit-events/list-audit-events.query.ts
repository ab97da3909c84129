import { Query } from '@nestjs/cqrs';

export interface AuditEventView {
  id: string;
  occurredAt: string;
  actor: string;
  action: string;
  targetType: string;
  targetId: string | null;
  targetName: string | null;
  details: Record<string, unknown>;
  /** Its place in the hash chain, and its hash (see GET /audit-events/verify). */
  seq: number;
  hash: string | null;
  /** The request that made the change, and the client's address. */
  requestId: string | null;
  clientAddress: string | null;
}

export interface AuditEventPage {
  items: AuditEventView[];
  nextCursor: string | null;
}

export interface AuditEventFilter {
  action?: string;
  targetType?: string;
  /** Target id or name. */
  target?: string;
  actor?: string;
  /** Occurred at or after. */
  since?: Date;
  /** Occurred before. */
  until?: Date;
}

export class ListAuditEventsQuery extends Query<AuditEventPage> {
  constructor(
    readonly filter: AuditEventFilter,
    readonly cursor: string | undefined,
    readonly limit: number,
  ) {
    super();
  }
}
