import type { ApprovalDecision, ApprovalRun, ExecutionResult, InterceptorChanges } from '../../executions/domain/execution.js';
import type { InterceptorKind, InterceptorPhase, InterceptorSpec } from './interceptor.js';

/** What an interceptor sees of a call: the tool, who calls it and how, and its arguments or result. */
export interface InterceptedCall {
  executionId: string;
  tool: {
    qualifiedName: string;
    /** The upstream's name of the tool. */
    name: string;
    sourceName: string;
    inputSchema: Record<string, unknown>;
    outputSchema: Record<string, unknown> | null;
    annotations: Record<string, unknown> | null;
    description: string | null;
  };
  /** The group the call came through, or null. */
  group: string | null;
  principal: { id: string; name: string };
  channel: 'rest' | 'mcp';
  /** The arguments as they will be sent (checked against the input schema). */
  arguments: Record<string, unknown>;
  /** post only: the result as the upstream answered it, after the post interceptors before this one. */
  result?: ExecutionResult;
  /** post only: the upstream answered the call as a tool error (`isError`). */
  isError?: boolean;
  /** W3C trace context of the call, when traces are on. */
  traceparent?: string;
  /** pre, on a held call run again after a person's decision: that decision. */
  approval?: ApprovalGrant;
}

/** A person's decision on a held call, carried by the call when it runs again. */
export interface ApprovalGrant {
  id: string;
  /** The approval interceptor that held the call. */
  interceptor: string;
  decision: ApprovalDecision;
  /** SHA-256 (hex) of the canonical JSON of the arguments the approver saw. */
  argumentsHash: string;
  decidedBy?: { id: string; name: string };
  comment?: string;
  /** ISO timestamps. */
  requestedAt: string;
  decidedAt: string;
}

/** What a held call waits for: a decision by one of the approvers, within the timeout. */
export interface HoldRequest {
  approvers: { roles?: string[]; principals?: string[] };
  /** How long the call waits; past it, the approval expires (a denial). */
  timeoutMs: number;
  /** Why the call is held, for the approvers. */
  message?: string;
  /** Where approvers are told that a call waits (Slack-compatible JSON, signed). */
  notify?: { url: string; signingSecret: string };
}

/** What changed, for the record: declared with the run the execution keeps. */
export type { InterceptorChanges };

/** An interceptor's answer for one call. */
export type InterceptorVerdict =
  | { decision: 'allow'; warning?: string; approval?: ApprovalRun }
  | {
      decision: 'modify';
      /** pre: the arguments to send instead (checked against the input schema again by the pipeline). */
      arguments?: Record<string, unknown>;
      /** post: the result to answer instead. */
      result?: ExecutionResult;
      /** post: whether that result is a tool error (`isError`); absent: as the result it replaces was. */
      isError?: boolean;
      changes: InterceptorChanges;
      warning?: string;
    }
  | {
      decision: 'deny';
      /** What the caller and the model are told. */
      message: string;
      /** Default INTERCEPTOR_DENIED; `lock` answers ARGUMENT_LOCKED. */
      code?: string;
      details?: { path: string; message: string }[];
      approval?: ApprovalRun;
    }
  /** pre, `approval` interceptors only: the call waits for a person's decision. */
  | { decision: 'hold'; hold: HoldRequest };

/**
 * Runs one kind of interceptor. An engine throws (or the signal aborts) when it fails; the chain
 * then applies the interceptor's `onError`.
 */
export interface InterceptorEngine {
  readonly kind: InterceptorKind;
  run(interceptor: InterceptorSpec, phase: InterceptorPhase, call: InterceptedCall, signal: AbortSignal): InterceptorVerdict | Promise<InterceptorVerdict>;
}
