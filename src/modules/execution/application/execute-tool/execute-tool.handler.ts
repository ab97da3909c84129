import { heavySteps, isHeavy } from '../../../../shared/heavy-steps.js';
import { decideTool } from '../../../access/domain/tool-scope.js';
import { RateLimits } from '../rate-limits.js';
import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../../../../config/app-config.js';
import { SecretScrubber } from '../../../../shared/secret-scrubber.js';
import { CircuitBreakers } from '../../../sources/application/circuit-breakers.js';
import { ArgumentValidator } from '../../domain/argument-validator.port.js';
import { redactArguments } from '../../domain/argument-redaction.js';
import { BulkheadFull } from '../../domain/bulkhead.js';
import type { ExecutionError, ExecutionRecord, ExecutionResult, ExecutionStatus } from '../../../executions/domain/execution.js';
import { ExecutionRecorder } from '../../../executions/domain/execution.js';
import { storableCopy, unstorablePaths } from '../../domain/storable-json.js';
import { limitResult } from '../../domain/tool-result.js';
import { backoffMs, isRetryable, MAX_ATTEMPTS } from '../../domain/retry-policy.js';
import { InvocationFailure, InvocationOutcome, ToolInvoker, type CallListeners, type InputRequest, type InvocationRequest, type ProgressUpdate, type UpstreamLogMessage } from '../../domain/tool-invoker.port.js';
import { Bulkheads } from '../bulkheads.js';
import { CallSignal } from '../call-signal.js';
import { InFlightCalls } from '../in-flight-calls.js';
import { RouteCache } from '../route-cache.js';
import type { ToolRoute } from '../tool-route.js';
import { ExecuteToolCommand } from './execute-tool.command.js';
import { withoutAbsentNulls } from '../../domain/absent-nulls.js';
import { WorkMetrics } from '../../../../shared/work-metrics.js';
import { activeTrace } from '../../../../shared/active-trace.js';
import type { CallerSignal } from '../../../../shared/caller-signal.js';
import { logLevel } from '../../../../shared/logging/log-level.js';
import { timeOrderedId } from '../../../../shared/time-ordered-id.js';

const MAX_ARGUMENT_DEPTH = 64;
/** Upstream JSON-RPC error data larger than this is not kept with the execution. */
const MAX_RPC_DATA_CHARS = 8 * 1024;

/** Why a call ended without a tool result: status, stable code, and whether trying again may help. */
class Refusal {
  constructor(
    readonly status: ExecutionStatus,
    readonly error: ExecutionError,
  ) {}
}

const refuse = (status: ExecutionStatus, code: string, message: string, retryable = false, details?: ExecutionError['details']) =>
  new Refusal(status, { code, message, retryable, ...(details ? { details } : {}) });

/** What a run finds out on the way, for the record and the metrics. */
interface CallProgress {
  attempts: number;
  /** Time spent waiting on the upstream over every attempt; null while nothing was sent. */
  upstreamMs: number | null;
  /** What the upstream was given that the record must never show (its resolved secrets). */
  scrubber: SecretScrubber;
}

/**
 * The ExecuteTool pipeline: resolve → validate → policy → circuit breaker → bulkhead →
 * invoke (retrying safe tools on transport failures) → classify → record durably → answer.
 */
@CommandHandler(ExecuteToolCommand)
export class ExecuteToolHandler implements ICommandHandler<ExecuteToolCommand, ExecutionRecord> {
  private readonly logger = new Logger('calls');

  constructor(
    @Inject(RouteCache) private readonly routes: RouteCache,
    @Inject(ArgumentValidator) private readonly validator: ArgumentValidator,
    @Inject(CircuitBreakers) private readonly circuits: CircuitBreakers,
    @Inject(Bulkheads) private readonly bulkheads: Bulkheads,
    @Inject(ToolInvoker) private readonly invoker: ToolInvoker,
    @Inject(ExecutionRecorder) private readonly recorder: ExecutionRecorder,
    @Inject(InFlightCalls) private readonly inFlight: InFlightCalls,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RateLimits) private readonly rateLimits: RateLimits,
    @Inject(WorkMetrics) private readonly metrics: WorkMetrics,
  ) {}

  async execute(command: ExecuteToolCommand): Promise<ExecutionRecord> {
    const started = Date.now();
    const id = command.input.executionId ?? timeOrderedId(started);
    const clock = performance.now();
    const { input } = command;
    const done = this.inFlight.enter();
    let route: ToolRoute | undefined;
    // What the run finds out on the way: its attempts, the upstream's time, the source's scrubber.
    const progress: CallProgress = { attempts: 0, upstreamMs: null, scrubber: SecretScrubber.none };
    let outcome: { status: ExecutionStatus; isError: boolean; result: ExecutionResult | null; error: ExecutionError | null };
    try {
      route = await this.routes.route(input.qualifiedName);
      const beforeSend = (sent: ToolRoute) => this.recordStarted(id, command, sent, new Date(started));
      const run = await this.run(command, route, progress, beforeSend);
      outcome = run instanceof Refusal ? { status: run.status, isError: false, result: null, error: run.error } : run;
    } catch (error) {
      outcome = {
        status: 'upstream_error',
        isError: false,
        result: null,
        error: { code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error), retryable: false },
      };
    }
    // Redacting, scrubbing and recording pass over the arguments and the result: large ones take a turn of their own.
    if (isHeavy(input.arguments) || isHeavy(outcome.result)) await heavySteps.turn();
    const record: ExecutionRecord = {
      id,
      toolId: route?.tool.id ?? null,
      qualifiedName: input.qualifiedName.slice(0, 200),
      sourceId: route?.source.id ?? null,
      sourceName: route?.source.name ?? null,
      definitionHash: route?.tool.definitionHash ?? null,
      caller: command.caller,
      channel: command.channel,
      arguments: redactArguments(input.arguments, route?.tool.inputSchema),
      ...outcome,
      attempts: progress.attempts,
      startedAt: new Date(started),
      durationMs: Math.round((performance.now() - clock) * 1000) / 1000,
      traceId: activeTrace.current()?.traceId ?? null,
    };
    // The result as it came, except the source's own secrets, for the record and the caller alike: a
    // tool that echoes its credentials must not hand them to an agent that may call it but not read them.
    const { scrubber } = progress;
    const answer: ExecutionRecord = { ...record, result: record.result && scrubber.json(record.result), error: record.error && scrubber.json(record.error) };
    try {
      // Durable before the answer: the caller's reply waits for its own record.
      await this.recorder.record(this.forStorage(answer));
    } finally {
      done();
    }
    // Built only when written: every call passes here.
    if (logLevel.enabled('info')) this.logCall(answer, input.requestId);
    this.metrics.callEnded({
      source: route?.source.name ?? null,
      tool: route?.tool.qualifiedName ?? null,
      channel: command.channel,
      status: answer.status,
      seconds: answer.durationMs / 1000,
      upstreamSeconds: progress.upstreamMs === null ? null : progress.upstreamMs / 1000,
    });
    return answer;
  }

  /** One line per call: who called what, how it ended, how long it took (never its arguments or result). */
  private logCall(answer: ExecutionRecord, requestId: string | undefined): void {
    this.logger.log({
      // Calls do not run in the request context (see requestContext): the line names its request itself.
      ...(requestId !== undefined ? { requestId } : {}),
      msg: 'call ended',
      executionId: answer.id,
      tool: answer.qualifiedName,
      source: answer.sourceName,
      channel: answer.channel,
      status: answer.status,
      ...(answer.error ? { code: answer.error.code } : {}),
      durationMs: answer.durationMs,
      principal: answer.caller.principalId,
      ...(answer.caller.clientName !== undefined ? { client: answer.caller.clientName } : {}),
    });
  }

  private async run(
    command: ExecuteToolCommand,
    route: ToolRoute | undefined,
    progress: CallProgress,
    beforeSend: (route: ToolRoute) => Promise<void>,
  ) {
    const { input } = command;
    if (input.shapeProblems && input.shapeProblems.length > 0) {
      return refuse('invalid_arguments', 'VALIDATION_FAILED', 'The invocation request is invalid.', false, input.shapeProblems);
    }
    if (this.inFlight.draining) return refuse('rejected', 'SHUTTING_DOWN', 'Toolplane is shutting down.', true);
    if (!route) return refuse('rejected', 'TOOL_NOT_FOUND', `No tool named "${input.qualifiedName.slice(0, 100)}".`);
    const { tool, source } = route;
    const decision = input.sourceRefusal !== undefined ? { allowed: false, rule: input.sourceRefusal } : decideTool(input.scope, { qualifiedName: tool.qualifiedName, sourceName: source.name });
    if (!decision.allowed) {
      return refuse('rejected', 'TOOL_NOT_ALLOWED', `This key may not call ${tool.qualifiedName}.`, false, [{ path: 'qualifiedName', message: decision.rule }]);
    }
    const limited = await this.rateLimits.admit(command.caller.principalId, input.rateLimitPerMinute, tool.qualifiedName, source.rateLimitPerMinute);
    if (limited) {
      const whose = limited.scope === 'principal' ? 'This caller' : tool.qualifiedName;
      const refusal = refuse('rejected', 'RATE_LIMITED', `${whose} is over its rate limit of ${limited.limitPerMinute} calls a minute.`, true, [
        { path: limited.scope === 'principal' ? 'principal' : 'source.rateLimitPerMinute', message: `at most ${limited.limitPerMinute} calls a minute` },
      ]);
      refusal.error.retryAfterMs = limited.retryAfterMs;
      refusal.error.rateLimit = { scope: limited.scope, limitPerMinute: limited.limitPerMinute };
      return refusal;
    }
    if (tool.status === 'deprecated') return refuse('rejected', 'TOOL_DEPRECATED', `${tool.qualifiedName} is no longer offered by its source.`);
    if (!source.enabled) return refuse('rejected', 'SOURCE_DISABLED', `Source "${source.name}" is disabled.`);
    if (!tool.enabled) return refuse('rejected', 'TOOL_DISABLED', `${tool.qualifiedName} is disabled.`);
    if (tool.unusableReason !== null) return refuse('rejected', 'TOOL_UNUSABLE', `${tool.qualifiedName} cannot be called: ${tool.unusableReason}.`);
    if (source.readOnly && tool.annotations?.readOnlyHint !== true) {
      return refuse('rejected', 'READ_ONLY_SOURCE', `Source "${source.name}" is read-only and ${tool.qualifiedName} is not annotated readOnlyHint.`);
    }

    const given = input.arguments ?? {};
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      return refuse('invalid_arguments', 'INVALID_ARGUMENTS', 'arguments must be a JSON object.', false, [{ path: 'arguments', message: 'must be an object' }]);
    }
    // The checks below pass over every argument: large ones take a turn of the event loop of their own.
    if (isHeavy(given)) await heavySteps.turn();
    if (depthOf(given) > MAX_ARGUMENT_DEPTH) {
      return refuse('invalid_arguments', 'INVALID_ARGUMENTS', `arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels.`, false, [
        { path: 'arguments', message: `nests deeper than ${MAX_ARGUMENT_DEPTH} levels` },
      ]);
    }
    const unstorable = unstorablePaths(given);
    if (unstorable.length > 0) {
      return refuse('invalid_arguments', 'UNSTORABLE_ARGUMENTS', 'The arguments hold text that cannot be recorded (a NUL character or a lone UTF-16 surrogate); nothing was sent.', false, unstorable);
    }
    // A null a strict-mode client sent for an optional property means "absent" (see withoutAbsentNulls).
    const args = withoutAbsentNulls(tool.inputSchema, given as Record<string, unknown>);
    const checking = this.validator.validate(tool.definitionHash, tool.inputSchema, args);
    const check = checking instanceof Promise ? await checking : checking;
    if ('unusable' in check) return refuse('rejected', 'TOOL_UNUSABLE', `${tool.qualifiedName} cannot be called: ${check.unusable}.`);
    if (check.problems.length > 0) {
      return refuse('invalid_arguments', 'INVALID_ARGUMENTS', `The arguments do not match the input schema of ${tool.qualifiedName}.`, false, check.problems);
    }

    const timeoutMs = Math.min(input.timeoutMs ?? source.timeoutMs, this.config.maxCallTimeoutMs);
    const deadline = Date.now() + timeoutMs;
    const breaker = this.circuits.forSource(source.id, source.circuitBreaker);
    const admission = breaker.admit(Date.now());
    if (!admission.admitted) {
      const refusal = refuse('circuit_open', 'CIRCUIT_OPEN', `Source "${source.name}" is failing; calls are paused.`, true);
      refusal.error.retryAfterMs = admission.retryAfterMs;
      return refusal;
    }

    const callSignal = new CallSignal(timeoutMs, command.signal);
    const signal = callSignal.signal;
    let release: (() => void) | undefined;
    try {
      try {
        release = await this.bulkheads.forSource(source.id, source.maxConcurrency).acquire(signal);
      } catch (error) {
        breaker.onNeutral(admission.trial);
        if (error instanceof BulkheadFull) {
          const refusal = refuse('rejected', 'CONCURRENCY_LIMIT', `Source "${source.name}" is at its concurrency limit: ${error.message}.`, true);
          refusal.error.retryAfterMs = 1000;
          return refusal;
        }
        return command.signal?.aborted
          ? refuse('cancelled', 'CANCELLED', 'The caller went away while the call waited for a slot.')
          : refuse('timeout', 'TIMEOUT', `No slot freed within ${timeoutMs} ms.`, true);
      }
      const target = await this.routes.target(source.id);
      if (!target) {
        breaker.onNeutral(admission.trial);
        return refuse('rejected', 'TOOL_NOT_FOUND', `No tool named "${input.qualifiedName.slice(0, 100)}".`);
      }

      const scrubber = SecretScrubber.of(target.secrets);
      progress.scrubber = scrubber;
      try {
        await beforeSend(route);
      } catch {
        breaker.onNeutral(admission.trial);
        const refusal = refuse('rejected', 'RECORD_UNAVAILABLE', 'The call could not be recorded, so it was not sent.', true);
        refusal.error.retryAfterMs = 1000;
        return refusal;
      }
      const retryable = isRetryable(tool.annotations);
      for (let attempt = 1; ; attempt++) {
        progress.attempts = attempt;
        let result: InvocationOutcome;
        const sentAt = performance.now();
        try {
          const request: InvocationRequest = {
            target,
            toolName: tool.name,
            arguments: args as Record<string, unknown>,
            timeoutMs: Math.max(1, deadline - Date.now()),
            signal,
            signalTimesOut: true,
            maxResultBytes: this.config.maxResultBytes,
            definition: { inputSchema: tool.inputSchema, outputSchema: tool.outputSchema ?? undefined },
            inputResponses: input.inputResponses,
            requestState: input.requestState,
            clientCapabilities: input.clientCapabilities,
          };
          addScrubbedListeners(request, command.listeners, scrubber);
          result = await this.invoker.invoke(request);
        } catch (error) {
          progress.upstreamMs = (progress.upstreamMs ?? 0) + (performance.now() - sentAt);
          const failure = asFailure(error, command.signal, timeoutMs);
          const countsAgainstUpstream = failure.kind === 'transport' || failure.kind === 'timeout';
          const backoff = backoffMs(attempt);
          if (failure.kind === 'transport' && retryable && attempt < MAX_ATTEMPTS && Date.now() + backoff < deadline && !signal.aborted) {
            await sleep(backoff);
            continue;
          }
          if (countsAgainstUpstream) breaker.onFailure(admission.trial, Date.now());
          else breaker.onNeutral(admission.trial);
          return failureRefusal(failure, timeoutMs);
        }
        progress.upstreamMs = (progress.upstreamMs ?? 0) + (performance.now() - sentAt);
        breaker.onSuccess(admission.trial);
        if (result.kind === 'input_required') {
          return {
            status: 'input_required' as const,
            isError: false,
            error: null,
            result: { content: [], truncated: false, originalBytes: 0, inputRequests: result.inputRequests, requestState: result.requestState },
          };
        }
        return {
          status: result.isError ? ('tool_error' as const) : ('succeeded' as const),
          isError: result.isError,
          error: null,
          result: {
            content: result.content,
            structuredContent: result.structuredContent,
            ...(result.meta ? { meta: result.meta } : {}),
            truncated: result.truncated,
            originalBytes: result.originalBytes,
          },
        };
      }
    } finally {
      release?.();
      callSignal.dispose();
    }
  }

  /**
   * A call to a tool that is not read-only is on the record before it is sent: a crash then
   * leaves a started call that the next start records as `interrupted`. Group-committed with the
   * other calls' starts, so under load many share one commit.
   */
  private async recordStarted(id: string, command: ExecuteToolCommand, route: ToolRoute, startedAt: Date): Promise<void> {
    if (route.tool.annotations?.readOnlyHint === true) return;
    await this.recorder.recordStarted({
      id,
      toolId: route.tool.id,
      qualifiedName: route.tool.qualifiedName,
      sourceId: route.source.id,
      sourceName: route.source.name,
      definitionHash: route.tool.definitionHash,
      caller: command.caller,
      channel: command.channel,
      arguments: storableCopy(redactArguments(command.input.arguments, route.tool.inputSchema)),
      status: 'interrupted', // what it becomes should Toolplane stop before the outcome is recorded
      isError: false,
      result: null,
      error: null,
      attempts: 1,
      startedAt,
      durationMs: 0,
      traceId: activeTrace.current()?.traceId ?? null,
    });
  }

  /**
   * The copy the history keeps of the answer (the upstream's secrets already replaced by markers):
   * the result capped, and whatever PostgreSQL cannot hold (NUL, lone surrogates, absurd depth)
   * escaped, so that a call that ran is always on the record.
   */
  private forStorage(record: ExecutionRecord): ExecutionRecord {
    let stored = record;
    if (record.result && record.result.content.length > 0) {
      const capped = limitResult({ isError: record.isError, content: record.result.content, structuredContent: record.result.structuredContent }, this.config.storedResultBytes);
      if (capped.truncated) {
        stored = { ...record, result: { ...record.result, content: capped.content, structuredContent: capped.structuredContent, truncated: true, originalBytes: Math.max(capped.originalBytes, record.result.originalBytes) } };
      }
    }
    return {
      ...stored,
      arguments: storableCopy(stored.arguments),
      result: stored.result && storableCopy(stored.result),
      error: stored.error && storableCopy(stored.error),
    };
  }
}

/**
 * Puts on `request` what the upstream tells the caller while the call runs (progress, log messages,
 * requests for input), with the source's own secrets replaced, as in the answer and the record.
 */
function addScrubbedListeners(request: InvocationRequest, listeners: CallListeners, scrubber: SecretScrubber): void {
  const { onProgress, log, onInputRequest } = listeners;
  if (onProgress) request.onProgress = (update: ProgressUpdate) => onProgress(update.message === undefined ? update : { ...update, message: scrubber.text(update.message) });
  if (log) request.log = { level: log.level, onMessage: (message: UpstreamLogMessage) => log.onMessage(scrubber.json(message)) };
  if (onInputRequest) request.onInputRequest = (inputRequest: InputRequest) => onInputRequest(scrubber.json(inputRequest));
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
    case 'protocol': {
      const refusal = refuse('upstream_error', 'UPSTREAM_PROTOCOL_ERROR', `The upstream refused the call: ${failure.message}`, false, failure.rpcCode !== undefined ? [{ path: 'rpcCode', message: String(failure.rpcCode) }] : undefined);
      if (failure.rpcCode !== undefined) refusal.error.upstream = { code: failure.rpcCode, ...(keptRpcData(failure.rpcData) !== undefined ? { data: failure.rpcData } : {}) };
      return refusal;
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

function depthOf(value: unknown, depth = 0): number {
  if (depth > MAX_ARGUMENT_DEPTH) return depth;
  if (value === null || typeof value !== 'object') return depth;
  let max = depth + 1;
  for (const inner of Object.values(value)) max = Math.max(max, depthOf(inner, depth + 1));
  return max;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
