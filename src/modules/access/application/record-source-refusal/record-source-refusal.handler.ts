import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { RecordSourceRefusalCommand } from './record-source-refusal.command.js';

/** Refusals of one principal, source and method within this long make one audit event; the next event counts the rest. */
export const REFUSAL_EVENT_INTERVAL_MS = 60_000;
/** Principal, source and method triples remembered at most (the oldest are forgotten first). */
const MAX_REMEMBERED = 10_000;

/**
 * Writes a refused request to the audit trail: who (the principal), which source, which endpoint
 * and method, and the rule that refused. The trail is signed and never purged, and a caller decides
 * how often it asks: so one principal's refusals of one method on one source make at most one event
 * a minute (per process), the next one saying how many were left out since (`omittedSincePrevious`).
 * Every refusal is logged.
 */
@CommandHandler(RecordSourceRefusalCommand)
export class RecordSourceRefusalHandler implements ICommandHandler<RecordSourceRefusalCommand, void> {
  private readonly logger = new Logger('access');
  private readonly recent = new Map<string, { at: number; omitted: number }>();

  constructor(
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute({ refusal }: RecordSourceRefusalCommand): Promise<void> {
    const { principalId, sourceId, sourceName, endpoint, method, rule, requestId, clientAddress } = refusal;
    this.logger.log({ ...(requestId !== undefined ? { requestId } : {}), msg: 'access refused', principal: principalId, source: sourceName, method, rule });
    const now = this.clock.now().getTime();
    const key = `${principalId}\u0000${sourceName}\u0000${method}`;
    const previous = this.recent.get(key);
    if (previous && now - previous.at < REFUSAL_EVENT_INTERVAL_MS) {
      previous.omitted += 1;
      return;
    }
    // Most recently recorded last: the map's order is the order of forgetting.
    this.recent.delete(key);
    this.recent.set(key, { at: now, omitted: 0 });
    if (this.recent.size > MAX_REMEMBERED) this.recent.delete(this.recent.keys().next().value!);
    await this.audit.record({
      actor: principalId,
      action: 'source.access-refused',
      targetType: 'source',
      targetId: sourceId,
      targetName: sourceName,
      details: { endpoint, method, rule, ...(previous?.omitted ? { omittedSincePrevious: previous.omitted } : {}) },
      ...(requestId !== undefined ? { requestId } : {}),
      ...(clientAddress !== undefined ? { clientAddress } : {}),
    });
  }
}
