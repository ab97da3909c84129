import { getEventListeners } from 'node:events';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { CallerSignal } from '../../../shared/caller-signal.js';
import type { ProblemDetail } from '../../../shared/domain-error.js';
import { NO_TELEMETRY, Telemetry } from '../../../shared/telemetry.js';
import { WorkMetrics } from '../../../shared/work-metrics.js';
import type { ExecutionResult, InterceptorRun } from '../../executions/domain/execution.js';
import { argumentsHashOf } from '../domain/arguments-hash.js';
import type { HoldRequest, InterceptedCall, InterceptorEngine } from '../domain/intercepted-call.js';
import { InterceptorsInForce, type InterceptorPhase, type InterceptorSpec } from '../domain/interceptor.js';
import { outOfScope } from '../domain/interceptor-scope.js';
import { bounded, checkedVerdict, DENIED_CODE } from '../domain/verdict-check.js';

/** The engines that run interceptors, one per kind (`InterceptorEngine[]`). */
export const INTERCEPTOR_ENGINES = Symbol('INTERCEPTOR_ENGINES');

/** The code of a call refused because an interceptor with `onError: deny` failed. */
export const FAILED_CODE = 'INTERCEPTOR_FAILED';

/** (source, group, tool) selections kept per phase before the memo starts over. */
const MAX_MEMO_ENTRIES = 10_000;

const NONE: readonly InterceptorSpec[] = Object.freeze([]);

/** None in force: where the application provides no InterceptorsInForce (tools that build the pipeline alone). */
const NONE_IN_FORCE: InterceptorsInForce = { version: 0, all: () => NONE };

/** Why a run failed: its class (the span's error.type) and what the record and the caller are told. A class, so no engine's answer is taken for one. */
class Failure {
  constructor(
    readonly failed: 'timeout' | 'engine_error' | 'unknown_kind' | 'invalid_verdict' | 'invalid_arguments' | 'cancelled',
    readonly message: string,
    readonly details?: ProblemDetail[],
  ) {}
}

/** How a chain refused the call: by an interceptor's denial, or by its failure under `onError: deny`. */
export interface ChainDenial {
  interceptor: string;
  code: string;
  message: string;
  details?: ProblemDetail[];
  /** A failure (timeout, error) rather than a denial: trying again may help. */
  retryable: boolean;
}

/** How a chain held the call for a person's decision: the approval interceptor, what it waits for, and the arguments it is bound to. */
export interface ChainHold {
  interceptor: string;
  request: HoldRequest;
  /** SHA-256 (hex) of the canonical JSON of the arguments as the approver will see them: any change is another call. */
  argumentsHash: string;
}

export { argumentsHashOf };

/** What a chain left of the call: the arguments (pre) or the result (post) as the last interceptor left them, the runs, and the denial (or hold) if one ended it. */
export interface ChainOutcome {
  arguments: Record<string, unknown>;
  result: ExecutionResult | undefined;
  /** post: whether the result is a tool error, as the last interceptor that said so left it. */
  isError: boolean | undefined;
  runs: InterceptorRun[];
  denial?: ChainDenial;
  hold?: ChainHold;
}

export interface ChainOptions {
  /** The caller leaving ends a run under way (a failure, as a timeout is). */
  signal?: CallerSignal;
  /** pre: checks arguments an interceptor replaced (the tool's input schema); problems make that run a failure. */
  checkArguments?: (args: Record<string, unknown>) => ProblemDetail[] | Promise<ProblemDetail[]>;
}

/**
 * Runs the interceptors in force on a call. `applying` picks those of a phase that apply to a
 * call — enabled, and every field of their scope matching: the source's name, the group the call
 * came through (a scope with a group applies only through it), a tool pattern — ordered by
 * (order, name); it is computed once per version of the interceptors in force and (source,
 * group, tool), so a call that none applies to costs a few map reads and allocates nothing.
 *
 * `run` runs them in turn, each with an AbortSignal that aborts at its `timeoutMs` (or when the
 * caller leaves). A `modify` hands its arguments (pre) or result (post) to the next; a `deny`
 * ends the chain. A run that throws, times out, answers no usable verdict, has no engine for its
 * kind, or (pre) answers arguments the tool's schema refuses, fails: its `onError` then refuses
 * the call (`deny`) or lets it go on as if it allowed (`allow`); both are recorded as `error`.
 */
@Injectable()
export class InterceptorChain {
  private readonly engines: ReadonlyMap<string, InterceptorEngine>;
  private readonly inForce: InterceptorsInForce;
  private readonly telemetry: Telemetry;
  private version = Number.NaN;
  private phases: Record<InterceptorPhase, PhaseSelection> = { pre: new PhaseSelection([]), post: new PhaseSelection([]) };

  constructor(
    @Optional() @Inject(InterceptorsInForce) inForce?: InterceptorsInForce,
    @Optional() @Inject(INTERCEPTOR_ENGINES) engines?: readonly InterceptorEngine[],
    @Optional() @Inject(Telemetry) telemetry?: Telemetry,
    @Optional() @Inject(WorkMetrics) private readonly metrics?: WorkMetrics,
  ) {
    this.inForce = inForce ?? NONE_IN_FORCE;
    this.engines = new Map((engines ?? []).map((engine) => [engine.kind, engine]));
    this.telemetry = telemetry ?? NO_TELEMETRY;
  }

  /** The interceptors of `phase` that apply to a call of `tool` (qualified name) of `source`, through `group` (null: none), in the order they run. */
  applying(phase: InterceptorPhase, source: string, group: string | null, tool: string): readonly InterceptorSpec[] {
    if (this.inForce.version !== this.version) this.select();
    return this.phases[phase].applying(source, group ?? '', tool);
  }

  async run(phase: InterceptorPhase, interceptors: readonly InterceptorSpec[], call: InterceptedCall, options: ChainOptions = {}): Promise<ChainOutcome> {
    let seen = call;
    const runs: InterceptorRun[] = [];
    for (const spec of interceptors) {
      const started = performance.now();
      const operation = this.telemetry.interceptorRun({ name: spec.name, kind: spec.kind, phase });
      const answer = await operation.run(() => this.runOne(spec, phase, seen, options));
      let run: InterceptorRun;
      let denial: ChainDenial | undefined;
      let hold: ChainHold | undefined;
      if (answer instanceof Failure) {
        run = { name: spec.name, kind: spec.kind, phase, decision: 'error', onError: spec.onError, failure: answer.message, durationMs: 0 };
        if (spec.onError === 'deny') {
          denial = {
            interceptor: spec.name,
            code: FAILED_CODE,
            message: `Interceptor "${spec.name}" failed (${answer.message}), so the call was refused.`,
            ...(answer.details ? { details: answer.details } : {}),
            retryable: answer.failed === 'timeout' || answer.failed === 'engine_error',
          };
        }
        operation.end('error', answer.failed);
      } else if (answer.decision === 'deny') {
        run = { name: spec.name, kind: spec.kind, phase, decision: 'deny', message: answer.message, durationMs: 0 };
        denial = {
          interceptor: spec.name,
          code: answer.code ?? DENIED_CODE,
          message: `Interceptor "${spec.name}" refused the call: ${answer.message}`,
          ...(answer.details ? { details: answer.details } : {}),
          retryable: false,
        };
        if (answer.approval) run.approval = answer.approval;
        operation.end('deny');
      } else if (answer.decision === 'hold') {
        run = { name: spec.name, kind: spec.kind, phase, decision: 'hold', durationMs: 0 };
        hold = { interceptor: spec.name, request: answer.hold, argumentsHash: argumentsHashOf(seen.arguments) };
        operation.end('hold');
      } else {
        run = { name: spec.name, kind: spec.kind, phase, decision: answer.decision, durationMs: 0 };
        if (answer.decision === 'modify') {
          run.changes = answer.changes;
          if (phase === 'pre' && answer.arguments) seen = { ...seen, arguments: answer.arguments };
          if (phase === 'post' && answer.result) seen = { ...seen, result: answer.result, ...(answer.isError !== undefined ? { isError: answer.isError } : {}) };
        }
        if (answer.warning !== undefined) run.warning = answer.warning;
        if (answer.decision === 'allow' && answer.approval) run.approval = answer.approval;
        operation.end(answer.decision);
      }
      const seconds = (performance.now() - started) / 1000;
      run.durationMs = Math.round(seconds * 100_000) / 100;
      runs.push(run);
      this.metrics?.interceptorRan({ interceptor: spec.name, phase, decision: run.decision, seconds });
      if (denial) return { arguments: seen.arguments, result: seen.result, isError: seen.isError, runs, denial };
      if (hold) return { arguments: seen.arguments, result: seen.result, isError: seen.isError, runs, hold };
    }
    return { arguments: seen.arguments, result: seen.result, isError: seen.isError, runs };
  }

  /** One interceptor on the call as the ones before it left it: its checked verdict (a modify's arguments checked too, its result completed), or why it failed. */
  private async runOne(spec: InterceptorSpec, phase: InterceptorPhase, call: InterceptedCall, options: ChainOptions): Promise<Verdict | Failure> {
    const engine = this.engines.get(spec.kind);
    if (!engine) return new Failure('unknown_kind', `no engine runs interceptors of kind "${spec.kind}"`);
    const answer = await withinTimeout(engine, spec, phase, call, options.signal);
    if (answer instanceof Failure) return answer;
    const verdict = checkedVerdict(answer, phase);
    if ('invalid' in verdict) return new Failure('invalid_verdict', verdict.invalid);
    if (spec.kind !== APPROVAL_KIND) {
      if (verdict.decision === 'hold') return new Failure('invalid_verdict', 'only an approval interceptor may hold a call');
    } else if ((verdict.decision === 'allow' || verdict.decision === 'deny') && isApprovalAnswer(answer)) {
      // The approval engine is Toolplane's own: the decision it reports goes on the record as it is.
      verdict.approval = answer.approval;
    }
    if (verdict.decision !== 'modify') return verdict;
    if (phase === 'pre' && verdict.arguments && options.checkArguments) {
      const problems = await options.checkArguments(verdict.arguments);
      if (problems.length > 0) {
        const listed = problems.map((problem) => `${problem.path} ${problem.message}`).join('; ');
        return new Failure('invalid_arguments', bounded(`the arguments it answered do not match the tool's input schema: ${listed}`), problems);
      }
    }
    if (phase === 'post' && verdict.result && call.result) {
      // What an engine leaves out of a result is what the result it changed said.
      const { truncated, originalBytes } = verdict.result as Partial<ExecutionResult>;
      verdict.result = { ...verdict.result, truncated: typeof truncated === 'boolean' ? truncated : call.result.truncated, originalBytes: typeof originalBytes === 'number' ? originalBytes : call.result.originalBytes };
    }
    return verdict;
  }

  /** Reads the interceptors in force again: per phase, the enabled ones in the order they run. */
  private select(): void {
    this.version = this.inForce.version;
    const all = this.inForce.all();
    const ofPhase = (phase: InterceptorPhase) =>
      all.filter((spec) => spec.enabled && spec.phase === phase).sort((a, b) => a.order - b.order || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.phases = { pre: new PhaseSelection(ofPhase('pre')), post: new PhaseSelection(ofPhase('post')) };
  }
}

/** The one kind that may hold a call for a person's decision. */
const APPROVAL_KIND = 'approval' as InterceptorSpec['kind'];

type Verdict = Exclude<ReturnType<typeof checkedVerdict>, { invalid: string }>;

function isApprovalAnswer(answer: unknown): answer is { approval: NonNullable<InterceptorRun['approval']> } {
  return typeof answer === 'object' && answer !== null && typeof (answer as { approval?: unknown }).approval === 'object' && (answer as { approval?: unknown }).approval !== null;
}

/** The interceptors of one phase, and which of them apply to each (source, group, tool) seen so far. */
class PhaseSelection {
  private readonly memo = new Map<string, Map<string, Map<string, readonly InterceptorSpec[]>>>();
  private entries = 0;

  constructor(private readonly specs: readonly InterceptorSpec[]) {}

  applying(source: string, group: string, tool: string): readonly InterceptorSpec[] {
    if (this.specs.length === 0) return NONE;
    let byGroup = this.memo.get(source);
    let byTool = byGroup?.get(group);
    const known = byTool?.get(tool);
    if (known) return known;
    const picked = this.specs.filter((spec) => applies(spec, source, group, tool));
    const selection = picked.length === 0 ? NONE : picked;
    if (this.entries >= MAX_MEMO_ENTRIES) {
      this.memo.clear();
      this.entries = 0;
      byGroup = undefined;
      byTool = undefined;
    }
    if (!byGroup) this.memo.set(source, (byGroup = new Map()));
    if (!byTool) byGroup.set(group, (byTool = new Map()));
    byTool.set(tool, selection);
    this.entries += 1;
    return selection;
  }
}

/** Whether every field of the interceptor's scope matches the call (`group` '' : not through a group). */
function applies(spec: InterceptorSpec, source: string, group: string, tool: string): boolean {
  return outOfScope(spec.scope, { source, group: group === '' ? null : group, tool }) === undefined;
}

/**
 * Signals given to runs that answered at once, never aborted and with no listener left: making an
 * AbortSignal costs about 7 µs on Node.js 20, more than a built-in interceptor's whole run.
 */
const idleControllers: AbortController[] = [];
const MAX_IDLE_CONTROLLERS = 32;

function takeController(): AbortController {
  return idleControllers.pop() ?? new AbortController();
}

/** Keeps a controller whose run answered at once for the next run, unless anything could still hear it. */
function giveBack(controller: AbortController): void {
  if (idleControllers.length < MAX_IDLE_CONTROLLERS && !controller.signal.aborted && getEventListeners(controller.signal, 'abort').length === 0) idleControllers.push(controller);
}

/**
 * The engine's answer, or a failure: it threw, its promise rejected, or it did not settle within
 * the interceptor's timeoutMs (the signal it was given aborts then) or before the caller left.
 * An engine that answers at once gets no timer, and its signal serves a later run.
 */
function withinTimeout(engine: InterceptorEngine, spec: InterceptorSpec, phase: InterceptorPhase, call: InterceptedCall, callerSignal: CallerSignal | undefined): unknown {
  const began = performance.now();
  const controller = takeController();
  let answer: unknown;
  try {
    answer = engine.run(spec, phase, call, controller.signal);
  } catch (error) {
    giveBack(controller);
    return engineError(error);
  }
  if (!isThenable(answer)) {
    giveBack(controller);
    return answer;
  }
  const pending = answer;
  return new Promise<unknown>((resolve) => {
    let settled = false;
    const settle = (value: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onLeave);
      resolve(value);
    };
    const timer = setTimeout(
      () => {
        controller.abort(new DOMException(`timed out after ${spec.timeoutMs} ms`, 'TimeoutError'));
        settle(new Failure('timeout', `timed out after ${spec.timeoutMs} ms`));
      },
      Math.max(0, spec.timeoutMs - (performance.now() - began)),
    );
    const onLeave = () => {
      controller.abort(callerSignal?.reason);
      settle(new Failure('cancelled', 'the caller went away while it ran'));
    };
    if (callerSignal?.aborted) onLeave();
    else callerSignal?.addEventListener('abort', onLeave);
    pending.then(settle, (error: unknown) => settle(engineError(error)));
  });
}

function engineError(error: unknown): Failure {
  return new Failure('engine_error', bounded(error instanceof Error ? error.message : String(error), 500));
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
