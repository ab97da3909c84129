import { Inject, Injectable, Logger } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { CallTasks } from '../../execution/application/call-tasks.js';
import { ExecuteToolCommand, type ExecuteToolInput } from '../../execution/application/execute-tool/execute-tool.command.js';
import type { ApprovalGrant } from '../../interceptors/domain/intercepted-call.js';
import { ApprovalRepository, type Approval } from '../domain/approval.js';

/**
 * Runs a decided call again through ExecuteTool, with its exact input unsealed and the decision
 * on it: approved, the approval interceptor lets it go on (its arguments' hash unchanged); denied
 * or expired, it refuses it, so the one pipeline writes the final record and nothing reaches the
 * upstream. The caller's token kept with a held call (token-exchange sources) goes with it when
 * approved, and is erased however it was decided.
 */
@Injectable()
export class ResumeHeldCall {
  private readonly logger = new Logger('approvals');

  constructor(
    @Inject(ApprovalRepository) private readonly approvals: ApprovalRepository,
    // CallTasks is looked up when first needed: it asks for HeldCalls, which this module provides with this class.
    @Inject(ModuleRef) private readonly modules: ModuleRef,
  ) {}

  private get tasks(): CallTasks {
    return this.modules.get(CallTasks, { strict: false });
  }

  /** Resumes in the background: the decision is made and answered whatever the call then does. */
  inBackground(approval: Approval): void {
    this.resume(approval).catch((error: unknown) => this.logger.error(`resuming the call of approval ${approval.id} failed: ${error instanceof Error ? error.message : String(error)}`));
  }

  async resume(approval: Approval): Promise<void> {
    if (approval.status === 'pending') throw new Error(`approval ${approval.id} is not decided`);
    const held = await this.approvals.heldInput(approval.id);
    if (!held) throw new Error(`approval ${approval.id} has no held input`);
    const grant: ApprovalGrant = {
      id: approval.id,
      interceptor: approval.interceptor,
      decision: approval.status,
      argumentsHash: approval.argumentsHash,
      ...(approval.decidedBy ? { decidedBy: approval.decidedBy } : {}),
      ...(approval.comment !== null ? { comment: approval.comment } : {}),
      requestedAt: approval.createdAt.toISOString(),
      decidedAt: (approval.decidedAt ?? new Date()).toISOString(),
    };
    // A token-exchange source's call goes with its caller's token, kept sealed for it while it waited.
    const callerToken = approval.status === 'approved' ? await this.approvals.callerToken(approval.id) : undefined;
    const input = { ...(held.input as unknown as ExecuteToolInput), executionId: approval.executionId, approval: grant, ...(callerToken !== undefined ? { callerToken } : {}) };
    await this.tasks.resume(new ExecuteToolCommand(input, held.caller, held.channel));
    // Whichever process took the call runs it with the token in memory: it is needed no longer (kept when resuming failed, for the recovery sweep).
    await this.approvals.eraseCallerToken(approval.id);
  }
}
