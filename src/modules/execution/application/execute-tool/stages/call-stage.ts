import type { ExecutionCaller, ExecutionChannel } from '../../../../executions/domain/execution.js';
import type { HoldRequest } from '../../../../interceptors/domain/intercepted-call.js';
import type { ExecuteToolInput } from '../execute-tool.command.js';
import type { Call } from '../call.js';
import type { Hold, Refusal } from '../outcome.js';

/** What a stage answers: a refusal ends the call there (and is recorded as its outcome); nothing lets it go on. */
export type StageVerdict = Refusal | undefined;

/** What a pre interceptor stage answers: as any stage, or a hold, which parks the call until a person decides. */
export type PreStageVerdict = StageVerdict | Hold;

/**
 * One stage of ExecuteTool. It reads what the stages before it found out on the call, adds what it
 * finds out itself, and refuses for one reason only.
 */
export interface CallStage<Verdict = StageVerdict> {
  run(call: Call): Verdict | Promise<Verdict>;
}

/**
 * The seam for stages configured outside the pipeline (interceptors, approvals), provided by the
 * module that configures them; without a provider there are none.
 *
 * - `pre` stages run once the arguments are prepared (`call.arguments`, already checked against the
 *   schema), before the guard and the started record: one may replace `call.arguments` or refuse.
 *   A refusal is recorded like any other; nothing has been sent, started or admitted yet.
 * - `post` stages run once the upstream answered (`call.outcome` set), before the outcome is
 *   scrubbed of the source's secrets and recorded: one may replace `call.outcome`, or refuse, which
 *   replaces the outcome with the refusal. They run only for calls that reached the upstream.
 */
export abstract class CallInterceptors {
  abstract readonly pre: readonly CallStage<PreStageVerdict>[];
  abstract readonly post: readonly CallStage[];
}

/** A call an approval interceptor held: what its approval shows, and what is needed to run it again. */
export interface HeldCall {
  executionId: string;
  interceptor: string;
  request: HoldRequest;
  /** The arguments it is bound to (see ChainHold). */
  argumentsHash: string;
  /** The arguments as the record shows them (redacted). */
  recordedArguments: unknown;
  /** The call's input exactly as it was given, to run it again after the decision (to be kept sealed; without the caller's token). */
  input: ExecuteToolInput;
  /**
   * The caller's own token, for a call to a token-exchange source only: it is exchanged when the
   * call runs after its decision (to be kept sealed, and erased once the call ran again).
   */
  callerToken?: string;
  caller: ExecutionCaller;
  channel: ExecutionChannel;
  qualifiedName: string;
  sourceName: string;
  group: string | null;
  tool: { description: string | null; annotations: Record<string, unknown> | null };
  requestedAt: Date;
}

/**
 * Port: where held calls wait for a decision, provided by the module that keeps approvals (the
 * same kind of seam as CallInterceptors). Without a provider no call can be held: a hold refuses it.
 */
export abstract class HeldCalls {
  /** Stores the approval and the call's sealed input; answers the approval's id and when it expires. */
  abstract hold(call: HeldCall): Promise<{ approvalId: string; expiresAt: Date }>;
  /**
   * The caller cancelled a call that waits for approval: its approval is withdrawn and the call
   * runs again with that decision (ApprovalGrant `withdrawn`), which ends it `cancelled`. Answers
   * false when it was decided meanwhile.
   */
  abstract withdraw(executionId: string): Promise<boolean>;
}
