import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../../../config/app-config.js';
import type { CallerSignal } from '../../../../../shared/caller-signal.js';
import { Clock } from '../../../../../shared/unit-of-work.js';
import { backoffMs, isRetryable, MAX_ATTEMPTS } from '../../../domain/retry-policy.js';
import { offeredAsUpstreamTask, runsAsUpstreamTask } from '../../../domain/upstream-task.js';
import { ExecutionTasks } from '../../../../executions/domain/execution-task.js';
import { InvocationFailure, ToolInvoker, type InvocationOutcome, type InvocationRequest, type UpstreamTaskRequest } from '../../../domain/tool-invoker.port.js';
import type { Call } from '../call.js';
import { refuse, type Outcome, type Refusal } from '../outcome.js';
import type { StageVerdict } from './call-stage.js';
import { scrubbedListeners } from './scrub.js';
import { holdingWhileAsked } from './hold-while-asked.js';
import { UpstreamCredentials } from '../../../../sources/application/upstream-credentials.js';
import { isPerPrincipal } from '../../../../sources/domain/upstream-auth.js';
import { callerPrincipal, credentialRefusal, withCredential } from './attach-credential.js';

/** Upstream JSON-RPC error data larger than this is not kept with the execution. */
const MAX_RPC_DATA_CHARS = 8 * 1024;

/**
 * Sends the call (ToolInvoker) within its deadline, the caller's listeners hearing what the upstream
 * says on the way (scrubbed), and retries what is safe to repeat — tools annotated readOnlyHint or
 * idempotentHint, on transport failures only, at most 3 attempts with jittered backoff, within the
 * deadline. Sets `call.outcome` (succeeded, tool_error or input_required) and tells the circuit how
 * the upstream did (transport failures and timeouts count against it). Refuses when no result
 * came: TIMEOUT, CANCELLED, UPSTREAM_PROTOCOL_ERROR (the upstream's JSON-RPC error, its code and
 * small data kept), UPSTREAM_UNAVAILABLE.
 */
@Injectable()
export class InvokeStage {
  constructor(
    @Inject(ToolInvoker) private readonly invoker: ToolInvoker,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(ExecutionTasks) private readonly tasks: ExecutionTasks,
    @Inject(UpstreamCredentials) private readonly credentials: UpstreamCredentials,
  ) {}

  async run(call: Call): Promise<StageVerdict> {
    const { tool } = call.route!;
    const pass = call.pass!;
    const { input } = call;
    const asked = input.asTask === true;
    // A task's wait for its caller's input does not count against the call's time.
    const listen = () => {
      const scrubbed = scrubbedListeners(call.command.listeners, call.scrubber);
      return asked ? holdingWhileAsked(scrubbed, pass, this.config.taskInputWaitMs) : scrubbed;
    };
    let listeners = listen();
    let renewed = false;
    const retryable = isRetryable(tool.annotations);
    const task: UpstreamTaskRequest | undefined = offeredAsUpstreamTask(tool.taskSupport, asked)
      ? {
          required: tool.taskSupport === 'required',
          declared: runsAsUpstreamTask(tool.taskSupport, asked),
          onCreated: (upstreamTaskId) => {
            this.keepUpstreamTaskId(call.id, upstreamTaskId);
            call.command.listeners.onUpstreamTask?.(upstreamTaskId);
          },
        }
      : undefined;
    for (let attempt = 1; ; attempt++) {
      call.attempts = attempt;
      const sentAt = performance.now();
      let answer: InvocationOutcome;
      try {
        const request: InvocationRequest = {
          target: call.target!,
          toolName: tool.name,
          arguments: call.arguments!,
          timeoutMs: Math.max(1, pass.deadline - this.now()),
          signal: pass.signal,
          signalTimesOut: true,
          maxResultBytes: this.config.maxResultBytes,
          definition: { inputSchema: tool.inputSchema, outputSchema: tool.outputSchema ?? undefined },
          inputResponses: input.inputResponses,
          requestState: input.requestState,
          clientCapabilities: input.clientCapabilities,
          ...listeners,
        };
        if (task) request.task = task;
        answer = await this.invoker.invoke(request);
      } catch (error) {
        call.upstreamMs = (call.upstreamMs ?? 0) + (performance.now() - sentAt);
        const failure = asFailure(error, call.command.signal, pass.timeoutMs);
        const backoff = backoffMs(attempt);
        if (failure.kind === 'transport' && retryable && attempt < MAX_ATTEMPTS && this.now() + backoff < pass.deadline && !pass.signal.aborted) {
          await sleep(backoff);
          continue;
        }
        if (failure.kind === 'unauthorized' && isPerPrincipal(call.target!.auth)) {
          // The caller's credential was refused: renewed once (an oauth refresh, a new exchange), else the caller must act.
          const refused = renewed ? againUnauthorized(call) : withCredential(call, await this.credentials.afterUnauthorized({ target: call.sourceTarget ?? call.target!, principal: callerPrincipal(call), callerToken: call.input.callerToken }));
          renewed = true;
          if (refused || pass.signal.aborted) {
            pass.neutral();
            return refused ?? failureRefusal(failure, pass.timeoutMs);
          }
          listeners = listen();
          continue;
        }
        if (failure.kind === 'timeout' && pass.expiredWhileHeld) {
          // The caller never answered: nothing to hold against the upstream.
          pass.neutral();
          return refuse('timeout', 'TIMEOUT', `The task waited more than ${this.config.taskInputWaitMs} ms for its caller's input; the call was cancelled upstream.`, false);
        }
        if (failure.kind === 'transport' || failure.kind === 'timeout') pass.failed(this.now());
        else pass.neutral();
        return failureRefusal(failure, pass.timeoutMs);
      }
      call.upstreamMs = (call.upstreamMs ?? 0) + (performance.now() - sentAt);
      pass.succeeded();
      call.outcome = outcomeOf(answer);
      if (answer.kind === 'result') call.measuredResult = call.outcome.result!;
      return undefined;
    }
  }

  /**
   * The upstream's task id goes on the call's task row (a call that is no task here has none: nothing
   * is written), never on the record or in a message; losing it costs nothing but the bookkeeping.
   */
  private keepUpstreamTaskId(executionId: string, upstreamTaskId: string): void {
    this.tasks.update(executionId, { upstreamTaskId }).catch(() => undefined);
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}

function outcomeOf(answer: InvocationOutcome): Outcome {
  if (answer.kind === 'input_required') {
    return {
      status: 'input_required',
      isError: false,
      error: null,
      result: { content: [], truncated: false, originalBytes: 0, inputRequests: answer.inputRequests, requestState: answer.requestState },
    };
  }
  return {
    status: answer.isError ? 'tool_error' : 'succeeded',
    isError: answer.isError,
    error: null,
    result: {
      content: answer.content,
      structuredContent: answer.structuredContent,
      ...(answer.meta ? { meta: answer.meta } : {}),
      truncated: answer.truncated,
      originalBytes: answer.originalBytes,
    },
  };
}

function asFailure(error: unknown, callerSignal: CallerSignal | undefined, timeoutMs: number): InvocationFailure {
  if (error instanceof InvocationFailure) {
    // An abort is the caller leaving unless the deadline passed.
    if (error.kind === 'cancelled' && !callerSignal?.aborted) return new InvocationFailure('timeout', `timed out after ${timeoutMs} ms`);
    return error;
  }
  return new InvocationFailure('transport', error instanceof Error ? error.message : String(error));
}

function failureRefusal(failure: InvocationFailure, timeoutMs: number): Refusal {
  switch (failure.kind) {
    case 'timeout':
      return refuse('timeout', 'TIMEOUT', `The tool did not answer within ${timeoutMs} ms; the call was cancelled upstream.`, true);
    case 'cancelled':
      return refuse('cancelled', 'CANCELLED', 'The caller cancelled the call; it was cancelled upstream.');
    case 'unauthorized':
      // A shared credential the upstream refused: the source's settings are wrong, not the call.
      return refuse('upstream_error', 'UPSTREAM_PROTOCOL_ERROR', `The upstream refused the call: ${failure.message}`);
    case 'protocol': {
      const { rpcCode, rpcData } = failure;
      const details = rpcCode !== undefined ? [{ path: 'rpcCode', message: String(rpcCode) }] : undefined;
      const upstream = rpcCode !== undefined ? { upstream: { code: rpcCode, ...(keptRpcData(rpcData) !== undefined ? { data: rpcData } : {}) } } : undefined;
      return refuse('upstream_error', 'UPSTREAM_PROTOCOL_ERROR', `The upstream refused the call: ${failure.message}`, false, details, upstream);
    }
    default:
      return refuse('upstream_error', 'UPSTREAM_UNAVAILABLE', `The upstream failed: ${failure.message}`, true);
  }
}

/** Error data worth keeping with the record: present and small (the full answer is the upstream's business). */
function keptRpcData(data: unknown): unknown {
  if (data === undefined) return undefined;
  const text = JSON.stringify(data);
  return text !== undefined && text.length <= MAX_RPC_DATA_CHARS ? data : undefined;
}

/** The credential was refused again right after it was renewed: only its owner can put it right. */
function againUnauthorized(call: Call): Refusal {
  const target = call.sourceTarget ?? call.target!;
  const mode = target.auth?.mode;
  return credentialRefusal({
    kind: 'required',
    code: mode === 'oauth' ? 'UPSTREAM_CONSENT_REQUIRED' : 'UPSTREAM_CREDENTIAL_REQUIRED',
    message: `The upstream of source "${target.sourceName}" refused your credential again after it was renewed${mode === 'oauth' ? ': connect to it again' : ''}.`,
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
