import { Inject, Injectable, Optional } from '@nestjs/common';
import { Clock } from '../../../../../shared/unit-of-work.js';
import { ExecutionTasks, type ExecutionTask } from '../../../../executions/domain/execution-task.js';
import type { ExecutionRecord } from '../../../../executions/domain/execution.js';
import type { Call } from '../call.js';
import { callRecord } from '../call-record.js';
import type { WaitingCall } from '../execute-tool.command.js';
import { refuse, type Hold, type Refusal } from '../outcome.js';
import { RouteCache } from '../../route-cache.js';
import { HeldCalls } from './call-stage.js';

/** How often a caller is told to poll a call that waits for a person. */
const APPROVAL_POLL_MS = 5_000;

/**
 * Parks a call an approval interceptor held: its task (`pending_approval`) and its approval are
 * stored, and the call ends here without an outcome — nothing was sent, nothing is recorded in the
 * history until it runs again after the decision. The caller's own token is kept with it, sealed,
 * only for a token-exchange source (see HeldCall). Refuses APPROVAL_UNAVAILABLE (retryable) when
 * the approval cannot be stored, or when no module keeps approvals.
 */
@Injectable()
export class ParkStage {
  constructor(
    @Inject(ExecutionTasks) private readonly tasks: ExecutionTasks,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(RouteCache) private readonly routes: RouteCache,
    @Optional() @Inject(HeldCalls) private readonly held?: HeldCalls,
  ) {}

  async run(call: Call, { hold }: Hold): Promise<WaitingCall | Refusal> {
    const unavailable = () => refuse('rejected', 'APPROVAL_UNAVAILABLE', 'The call needs approval, and its approval could not be stored; it was not sent.', true, undefined, { retryAfterMs: 1000 });
    if (!this.held) return unavailable();
    const { tool, source } = call.route!;
    const { caller, channel } = call.command;
    const now = this.clock.now();
    const task: ExecutionTask = {
      id: call.id,
      principalId: caller.principalId,
      principalName: caller.principalName,
      qualifiedName: tool.qualifiedName,
      channel,
      status: 'pending_approval',
      statusMessage: `Waiting for approval (interceptor "${hold.interceptor}").`,
      createdAt: now,
      updatedAt: now,
      ttlMs: null,
      pollIntervalMs: APPROVAL_POLL_MS,
      cancelRequested: false,
      upstreamTaskId: null,
      approvalId: null,
      inputRequests: null,
      sourceId: source.id,
      sourceName: source.name,
      group: call.input.group?.slice(0, 200) ?? null,
    };
    try {
      await this.tasks.create(task);
      const { approvalId, expiresAt } = await this.held.hold({
        executionId: call.id,
        interceptor: hold.interceptor,
        request: hold.request,
        argumentsHash: hold.argumentsHash,
        recordedArguments: call.recordedArguments,
        input: call.input,
        caller,
        channel,
        qualifiedName: tool.qualifiedName,
        sourceName: source.name,
        group: call.input.group ?? null,
        tool: { description: tool.description, annotations: tool.annotations },
        requestedAt: now,
        ...(await this.tokenToKeep(call)),
      });
      // A call that became a task before it was held has its row already: it waits now.
      await this.tasks.update(call.id, { approvalId, status: 'pending_approval', statusMessage: task.statusMessage, qualifiedName: task.qualifiedName, sourceId: source.id, sourceName: source.name, group: task.group });
      return { task: { ...task, approvalId }, approvalId, expiresAt };
    } catch {
      return unavailable();
    }
  }

  /** The caller's token goes with a held call to a source that exchanges it when the call runs (token-exchange), and with no other. */
  private async tokenToKeep(call: Call): Promise<{ callerToken?: string }> {
    const token = call.input.callerToken;
    if (token === undefined) return {};
    const target = await this.routes.target(call.route!.source.id);
    return target?.auth?.mode === 'token-exchange' ? { callerToken: token } : {};
  }
}

/** What a parked call's ExecutedCall carries as its record: it names the call, and refuses if a channel took it for an outcome. */
export function waitingRecord(call: Call, waiting: WaitingCall): ExecutionRecord {
  const error = { code: 'APPROVAL_PENDING', message: waiting.task.statusMessage ?? 'The call waits for approval.', retryable: false };
  return callRecord(call, { status: 'rejected', isError: false, result: null, error }, 0);
}
