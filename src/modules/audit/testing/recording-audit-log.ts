import type { DirectUnitOfWork } from '../../../shared/testing/direct-unit-of-work.js';
import { AuditLog, type AuditEvent } from '../domain/audit-event.js';

export type RecordedAuditEvent = Omit<AuditEvent, 'id' | 'occurredAt'>;

/**
 * Keeps what was recorded. Given the unit of work the handler runs in, it refuses an event recorded
 * outside it, as the port asks that a change and its record land in one transaction.
 */
export class RecordingAuditLog extends AuditLog {
  readonly events: RecordedAuditEvent[] = [];

  constructor(private readonly unitOfWork?: DirectUnitOfWork) {
    super();
  }

  async record(event: RecordedAuditEvent): Promise<void> {
    if (this.unitOfWork && !this.unitOfWork.active) throw new Error(`audit event ${event.action} recorded outside the unit of work`);
    this.events.push(event);
  }
}
