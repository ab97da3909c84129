import type { ToolScope } from '../../../../shared/principal/tool-scope.js';
import { Command } from '@nestjs/cqrs';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import type { ExecutionCaller, ExecutionChannel, ExecutionRecord } from '../../../executions/domain/execution.js';
import type { CallListeners } from '../../domain/tool-invoker.port.js';
import type { ApprovalGrant } from '../../../interceptors/domain/intercepted-call.js';
import type { ExecutionTask } from '../../../executions/domain/execution-task.js';
import type { CallerSignal } from '../../../../shared/caller-signal.js';

export interface ExecuteToolInput {
  /** The id to record the call under, when the channel chose it beforehand (to name it before the answer); a fresh one otherwise. */
  executionId?: string;
  /** The tool the call names: its qualified name, or with `group`, the name the group serves it under. */
  qualifiedName: string;
  /** A call through a tool group (`/mcp/groups/{name}`, `POST /api/v1/groups/{name}/tools/{tool}/invoke`): the group's name. */
  group?: string;
  arguments: unknown;
  timeoutMs?: number;
  /** 2026-07-28 multi round-trip continuation. */
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  /** The input kinds an MCP caller declared it can answer (its `clientCapabilities`); see InvocationRequest. */
  clientCapabilities?: Record<string, unknown>;
  /** Problems with the request itself (e.g. a bad timeoutMs), recorded as invalid_arguments. */
  shapeProblems?: ProblemDetail[];
  /** The tools the caller may call, when it is restricted (its principal's scope). */
  scope?: ToolScope;
  /**
   * The rule by which the channel already refused the caller the tool's source (decideSource): the
   * call is refused and recorded as a refusal by its scope, whatever the tool.
   */
  sourceRefusal?: string;
  /** The caller's calls per minute (its key's limit or the default); absent: no limit. */
  rateLimitPerMinute?: number;
  /** The HTTP request that carried the call (its X-Request-Id), named in the call's log line. */
  requestId?: string;
  /**
   * The caller's own bearer token (an OIDC sign-in), for a source whose upstream takes it in
   * exchange (token-exchange): never sent upstream, recorded or stored with a held call.
   */
  callerToken?: string;
  /**
   * The call runs as a task (the caller asked for one, or it outlived its request): its start is
   * always recorded, so that a restart leaves it `interrupted` rather than unknown; a tool whose
   * upstream offers tasks is called as one.
   */
  asTask?: boolean;
  /** A held call run again after a person's decision: that decision (the approval interceptor reads it). */
  approval?: ApprovalGrant;
}

/** A call that has no outcome yet: its task (the execution is the task) and, when it waits for one, its approval. */
export interface WaitingCall {
  task: ExecutionTask;
  approvalId?: string;
  expiresAt?: Date;
}

/**
 * What a call answers: its execution record, already durable, and the output schema of the tool
 * definition it called (null when it has none or the call named no tool), for the codecs that
 * shape a result by it.
 */
export interface ExecutedCall {
  record: ExecutionRecord;
  outputSchema: Record<string, unknown> | null;
  /**
   * Set when the call has no outcome yet (it waits for approval): every channel answers the
   * waiting call instead of the record, which then only names the call (an APPROVAL_PENDING
   * refusal, never written to the history).
   */
  waiting?: WaitingCall;
}

/** A call accepted to run: every check passed and it is about to be sent; the tool and source it resolved to. */
export interface AcceptedCall {
  qualifiedName: string;
  sourceId: string;
  sourceName: string;
  group: string | null;
}

/**
 * Told once a call is accepted to run (before it is sent upstream). A rejection refuses the call
 * RECORD_UNAVAILABLE, and nothing is sent.
 */
export type OnAccepted = (call: AcceptedCall) => Promise<void>;

/** One call of one tool, from REST or MCP: every entry point runs this one command (see ExecuteToolHandler). */
export class ExecuteToolCommand extends Command<ExecutedCall> {
  constructor(
    readonly input: ExecuteToolInput,
    readonly caller: ExecutionCaller,
    readonly channel: ExecutionChannel,
    /** Aborts when the caller goes away: the upstream call is cancelled. */
    readonly signal?: CallerSignal,
    /** Progress, log messages and requests for input from the upstream, where they can be attributed to this call. */
    readonly listeners: CallListeners = {},
    /** CallTasks: the call passed every check and is about to be sent (a refusal before that is answered at once). */
    readonly onAccepted?: OnAccepted,
  ) {
    super();
  }
}
