import { SecretScrubber } from '../../../../shared/secret-scrubber.js';
import { timeOrderedId } from '../../../../shared/time-ordered-id.js';
import type { UpstreamTarget } from '../../../sources/domain/upstream.js';
import { redactArguments } from '../../domain/argument-redaction.js';
import type { ToolRoute } from '../tool-route.js';
import type { ExecuteToolCommand } from './execute-tool.command.js';
import type { Outcome } from './outcome.js';
import type { ExecutionResult, InterceptorRun } from '../../../executions/domain/execution.js';
import type { SourcePass } from './source-pass.js';
import type { GroupView, ServedTool } from '../../../catalog/domain/group-view.js';

const NO_RUNS: readonly InterceptorRun[] = Object.freeze([]);

/**
 * One call on its way through the stages of ExecuteTool: what its command asked, and what each
 * stage found out for the stages after it and for the record. A class, so that every call has the
 * same shape.
 */
export class Call {
  readonly id: string;
  readonly startedAt: Date;
  /** performance.now() when the call began: its duration is measured from here. */
  readonly began = performance.now();
  /** resolve: the tool and its source, as the call found them (undefined: no such tool). */
  route: ToolRoute | undefined = undefined;
  /** resolve, for a call through a group: the group as the catalog serves it (undefined: no such group). */
  groupView: GroupView | undefined = undefined;
  /** resolve, for a call through a group: the tool as the group serves it, with its locked and default arguments. */
  served: ServedTool | undefined = undefined;
  /** The arguments as given: the caller's; group-arguments adds the group's defaults and locked values. */
  given: unknown;
  /** prepare-arguments: the arguments as they are sent (absent nulls left out, checked against the schema). */
  arguments: Record<string, unknown> | undefined = undefined;
  /** guard: the source's admission (circuit trial, bulkhead slot) and the call's own deadline and signal. */
  pass: SourcePass | undefined = undefined;
  /** locate-upstream: how to reach the source now, its secrets resolved. */
  target: UpstreamTarget | undefined = undefined;
  /** attach-credential, for a per-user source: the target as resolved for the source, before the caller's credential. */
  sourceTarget: UpstreamTarget | undefined = undefined;
  /** locate-upstream: replaces the source's own secrets in whatever comes back from it. */
  scrubber: SecretScrubber = SecretScrubber.none;
  /** invoke: attempts made, and the time spent waiting on the upstream over all of them (null: nothing was sent). */
  attempts = 0;
  upstreamMs: number | null = null;
  /** invoke, then the post stages: how the call ended. */
  outcome: Outcome | undefined = undefined;
  /** invoke: the result as the upstream answered it, whose originalBytes is its exact size unless truncated. */
  measuredResult: ExecutionResult | undefined = undefined;
  /** The interceptors that ran on the call (pre, then post), in order; the record keeps them. */
  interceptors: readonly InterceptorRun[] = NO_RUNS;
  /** A pre interceptor replaced the arguments: the record shows them as sent. */
  argumentsReplaced = false;
  private redacted?: { value: unknown };

  constructor(
    readonly command: ExecuteToolCommand,
    now: Date,
  ) {
    this.startedAt = now;
    this.id = command.input.executionId ?? timeOrderedId(now.getTime());
    this.given = command.input.arguments;
  }

  get input(): ExecuteToolCommand['input'] {
    return this.command.input;
  }

  /**
   * The arguments as the caller sent them — through a group or changed by an interceptor, as sent
   * upstream — with what the schema or the name marks secret replaced: what the record shows.
   */
  get recordedArguments(): unknown {
    const sent = this.served !== undefined || this.argumentsReplaced;
    this.redacted ??= { value: redactArguments(sent ? (this.arguments ?? this.given) : this.command.input.arguments, this.route?.tool.inputSchema) };
    return this.redacted.value;
  }
}
