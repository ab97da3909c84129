import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock, IdGenerator, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { HeldCalls, type HeldCall } from '../../../execution/application/execute-tool/stages/call-stage.js';
import { ApprovalRepository, type Approval, type HeldInput } from '../../domain/approval.js';
import { ApprovalNotifier } from '../../domain/approval-notifier.port.js';
import { ResumeHeldCall } from '../resume-held-call.js';

/**
 * Where ExecuteTool hands a call an approval interceptor holds: the approval is stored with the
 * call's exact input sealed, and its `approval.requested` audit event, in one transaction; then
 * the interceptor's `notify` webhook is told, in the background (a call never waits on it).
 */
@Injectable()
export class ApprovalHeldCalls extends HeldCalls {
  private readonly logger = new Logger('approvals');

  constructor(
    @Inject(ApprovalRepository) private readonly approvals: ApprovalRepository,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(IdGenerator) private readonly ids: IdGenerator,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(ApprovalNotifier) private readonly notifier: ApprovalNotifier,
    @Inject(ResumeHeldCall) private readonly resumer: ResumeHeldCall,
  ) {
    super();
  }

  async hold(call: HeldCall): Promise<{ approvalId: string; expiresAt: Date }> {
    const createdAt = this.clock.now();
    const approval: Approval = {
      id: this.ids.next(),
      executionId: call.executionId,
      interceptor: call.interceptor,
      qualifiedName: call.qualifiedName,
      sourceName: call.sourceName,
      group: call.group,
      caller: call.caller,
      channel: call.channel,
      arguments: call.recordedArguments,
      argumentsHash: call.argumentsHash,
      tool: call.tool,
      message: call.request.message ?? null,
      approvers: call.request.approvers,
      status: 'pending',
      decidedBy: null,
      comment: null,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + call.request.timeoutMs),
      decidedAt: null,
    };
    await this.uow.run(async () => {
      await this.approvals.insert(approval, heldInput(call), call.callerToken);
      await this.audit.record({
        actor: call.caller.principalId,
        action: 'approval.requested',
        targetType: 'approval',
        targetId: approval.id,
        targetName: approval.qualifiedName,
        details: { execution: approval.executionId, interceptor: approval.interceptor, caller: call.caller.principalName, expiresAt: approval.expiresAt.toISOString() },
      });
    });
    const notify = call.request.notify;
    if (notify) {
      this.notifier.notify(approval, notify).catch((error: unknown) => this.logger.warn(`notifying approval ${approval.id} failed: ${String(error)}`));
    }
    return { approvalId: approval.id, expiresAt: approval.expiresAt };
  }

  /** The caller cancelled the held call: its approval is withdrawn (one conditional statement) and the call resumed, which ends it `cancelled`. */
  async withdraw(executionId: string): Promise<boolean> {
    const withdrawn = await this.uow.run(async () => {
      const approval = await this.approvals.withdraw(executionId);
      if (!approval) return undefined;
      await this.audit.record({
        actor: approval.caller.principalId,
        action: 'approval.withdrawn',
        targetType: 'approval',
        targetId: approval.id,
        targetName: approval.qualifiedName,
        details: { execution: approval.executionId, interceptor: approval.interceptor, caller: approval.caller.principalName },
      });
      return approval;
    });
    if (!withdrawn) return false;
    await this.resumer.resume(withdrawn);
    return true;
  }
}

/** What runs the call again: its exact input under its execution id (no decision in it yet), its caller and channel. */
function heldInput(call: HeldCall): HeldInput {
  // The caller's token is never part of it: it is kept apart (HeldCall.callerToken), and erased once the call ran again.
  const { approval: _approval, callerToken: _token, ...input } = call.input;
  return { input: { ...input, executionId: call.executionId }, caller: call.caller, channel: call.channel };
}
