import { Inject, Optional } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../../shared/unit-of-work.js';
import { isUuid } from '../../../../shared/uuid.js';
import { WorkMetrics } from '../../../../shared/work-metrics.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { ApprovalRepository, type Approval } from '../../domain/approval.js';
import { approvalDecided, approvalNotFound, notAnApprover, selfApprovalForbidden } from '../../domain/approval-errors.js';
import { isApprover, isOwnCall } from '../../domain/eligibility.js';
import { toApprovalView, type ApprovalView } from '../approval-views.js';
import { ResumeHeldCall } from '../resume-held-call.js';
import { DecideApprovalCommand } from './decide-approval.command.js';

/**
 * A person's decision on a held call. Only one of its approvers may decide it, never its own
 * caller; the decision is one conditional statement (pending and not expired), so of two racing
 * deciders one wins and the other is told it is decided. The decision and its audit event commit
 * together; then the call runs again with it (approved: to the upstream; denied: refused).
 */
@CommandHandler(DecideApprovalCommand)
export class DecideApprovalHandler implements ICommandHandler<DecideApprovalCommand, ApprovalView> {
  constructor(
    @Inject(ApprovalRepository) private readonly approvals: ApprovalRepository,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(ResumeHeldCall) private readonly resumer: ResumeHeldCall,
    @Optional() @Inject(WorkMetrics) private readonly metrics?: WorkMetrics,
  ) {}

  async execute({ approvalId, decision, comment, principal }: DecideApprovalCommand): Promise<ApprovalView> {
    if (!isUuid(approvalId)) throw approvalNotFound(approvalId);
    const found = await this.approvals.find(approvalId);
    if (!found) throw approvalNotFound(approvalId);
    if (isOwnCall(found.caller.principalId, principal)) throw selfApprovalForbidden();
    if (!isApprover(found.approvers, principal)) throw notAnApprover();
    if (found.status !== 'pending') throw approvalDecided(found.status);
    const decider = { id: principal.id, name: principal.name };
    const decided = await this.uow.run(async () => {
      const approval = await this.approvals.decide(approvalId, decision, decider, comment);
      if (!approval) return undefined;
      await this.audit.record({
        actor: principal.id,
        action: decision === 'approved' ? 'approval.approved' : 'approval.denied',
        targetType: 'approval',
        targetId: approval.id,
        targetName: approval.qualifiedName,
        details: { execution: approval.executionId, interceptor: approval.interceptor, caller: approval.caller.principalName, approver: decider.name, comment },
      });
      return approval;
    });
    if (!decided) {
      // Another decision (or the expiry) came first.
      const now = await this.approvals.find(approvalId);
      throw approvalDecided(now && now.status !== 'pending' ? now.status : 'expired');
    }
    this.observe(decided);
    this.resumer.inBackground(decided);
    return toApprovalView(decided);
  }

  private observe(approval: Approval): void {
    const seconds = ((approval.decidedAt ?? approval.createdAt).getTime() - approval.createdAt.getTime()) / 1000;
    this.metrics?.approvalDecided({ decision: approval.status as 'approved' | 'denied', seconds });
  }
}
