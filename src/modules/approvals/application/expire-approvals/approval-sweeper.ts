import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { BackgroundPass } from '../../../../shared/background-pass.js';
import { UnitOfWork } from '../../../../shared/unit-of-work.js';
import { WorkMetrics } from '../../../../shared/work-metrics.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { ApprovalRepository, type Approval } from '../../domain/approval.js';
import { ResumeHeldCall } from '../resume-held-call.js';

/** The actor of the audit events of approvals nobody decided in time. */
export const EXPIRY_ACTOR = 'toolplane:approvals';
/** A decided call not running again after this long was left by a process that stopped (resuming one takes milliseconds). */
const RESUME_GRACE_MS = 60_000;
/** Approvals expired per statement. */
const BATCH = 100;

/** How often overdue approvals are looked for. */
export abstract class ApprovalSweepSettings {
  abstract readonly intervalMs: number;
}

/**
 * Expires the approvals nobody decided in time, in every process (each statement takes the
 * overdue pending ones it can lock, so two processes never expire one twice), with their
 * `approval.expired` audit events in the same transaction; then resumes each call, which its
 * approval interceptor refuses (APPROVAL_TIMED_OUT).
 */
@Injectable()
export class ApprovalSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('approvals');
  private readonly passes = new BackgroundPass(() => this.sweep());

  constructor(
    @Inject(ApprovalRepository) private readonly approvals: ApprovalRepository,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(ResumeHeldCall) private readonly resumer: ResumeHeldCall,
    @Inject(ApprovalSweepSettings) private readonly settings: ApprovalSweepSettings,
    @Optional() @Inject(WorkMetrics) private readonly metrics?: WorkMetrics,
  ) {}

  onApplicationBootstrap(): void {
    this.passes.start(this.settings.intervalMs, (error) => this.logger.warn(`expiring approvals failed: ${error instanceof Error ? error.message : String(error)}`), false);
  }

  onModuleDestroy(): Promise<void> {
    return this.passes.stop();
  }

  /**
   * Expires every overdue approval and resumes its call; then resumes the calls whose decision was
   * made more than a minute ago by a process that stopped before it ran them. Answers how many
   * approvals expired.
   */
  async sweep(): Promise<number> {
    const expired = await this.expireAll();
    for (const approval of await this.approvals.decidedButWaiting(RESUME_GRACE_MS, BATCH)) this.resumer.inBackground(approval);
    return expired;
  }

  private async expireAll(): Promise<number> {
    let total = 0;
    for (;;) {
      const expired = await this.uow.run(async () => {
        const batch = await this.approvals.expireDue(BATCH);
        for (const approval of batch) {
          await this.audit.record({
            actor: EXPIRY_ACTOR,
            action: 'approval.expired',
            targetType: 'approval',
            targetId: approval.id,
            targetName: approval.qualifiedName,
            details: { execution: approval.executionId, interceptor: approval.interceptor, caller: approval.caller.principalName, expiresAt: approval.expiresAt.toISOString() },
          });
        }
        return batch;
      });
      for (const approval of expired) this.expired(approval);
      total += expired.length;
      if (expired.length < BATCH) return total;
    }
  }

  private expired(approval: Approval): void {
    const seconds = ((approval.decidedAt ?? approval.expiresAt).getTime() - approval.createdAt.getTime()) / 1000;
    this.metrics?.approvalDecided({ decision: 'expired', seconds });
    this.resumer.inBackground(approval);
  }
}
