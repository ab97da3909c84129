import type { ExecutionCaller, ExecutionChannel } from '../../../../executions/domain/execution.js';
import type { HoldRequest } from '../../../../interceptors/domain/intercepted-call.js';
import type { Call } from '../call.js';
import type { ExecuteToolInput } from '../execute-tool.command.js';
import type { Refusal } from '../outcome.js';

/** What a stage answers: a refusal ends the call there (and is recorded as its outcome); nothing lets it go on. */
export type StageVerdict = Refusal | undefined;

/**
 * One stage of ExecuteTool. It reads what the stages before it found out on the call, adds what it
 * finds out itself, and refuses for one reason only.
 */
export interface CallStage {
  run(call: Call): StageVerdict | Promise<StageVerdict>;
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
  abstract readonly pre: readonly CallStage[];
  abstract readonly post: readonly CallStage[];
}

/** A call an approval interceptor holds: what the approval shows, and what is needed to run it again. */
export interface HeldCall {
  executionId: string;
  interceptor: string;
  request: HoldRequest;
  argumentsHash: string;
  /** What the record shows (redacted). */
  recordedArguments: unknown;
  /** Exact, as the call ran (arguments as given by the caller), to seal. */
  input: ExecuteToolInput;
  caller: ExecutionCaller;
  channel: ExecutionChannel;
  qualifiedName: string;
  sourceName: string;
  group: string | null;
  tool: { description: string | null; annotations: Record<string, unknown> | null };
  requestedAt: Date;
}

/** Port: where held calls wait for their decision (the approvals module provides it). */
export abstract class HeldCalls {
  /** Stores the waiting call (its exact input sealed) and its approval; answers the approval id. */
  abstract hold(call: HeldCall): Promise<{ approvalId: string; expiresAt: Date }>;
}
