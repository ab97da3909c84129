import type { ProblemDetail } from '../../../shared/domain-error.js';

export type ExecutionStatus =
  | 'succeeded'
  | 'tool_error'
  | 'invalid_arguments'
  | 'rejected'
  | 'circuit_open'
  | 'timeout'
  | 'upstream_error'
  | 'cancelled'
  | 'input_required'
  /** Sent upstream when Toolplane stopped: whether the tool ran to completion is unknown. */
  | 'interrupted';

export const EXECUTION_STATUSES: readonly ExecutionStatus[] = [
  'succeeded',
  'tool_error',
  'invalid_arguments',
  'rejected',
  'circuit_open',
  'timeout',
  'upstream_error',
  'cancelled',
  'input_required',
  'interrupted',
];

export type ExecutionChannel = 'rest' | 'mcp';

/** Who called: the authenticated principal, and what the client said about itself. */
export interface ExecutionCaller {
  principalId: string;
  principalName: string;
  clientName?: string;
  clientVersion?: string;
  correlationId?: string;
  protocolVersion?: string;
}

/** What the tool answered, capped; `originalBytes` is the size before any truncation. */
export interface ExecutionResult {
  content: unknown[];
  structuredContent?: unknown;
  /** The result's own `_meta`, as the upstream sent it (protocol keys aside); passed on to MCP callers. */
  meta?: Record<string, unknown>;
  truncated: boolean;
  originalBytes: number;
  /** 2026-07-28 multi round-trip: what the upstream asks the caller for, and the state to echo back. */
  inputRequests?: Record<string, unknown>;
  requestState?: string;
}

export interface ExecutionError {
  code: string;
  message: string;
  retryable: boolean;
  /** When trying again makes sense (circuit open, concurrency limit). */
  retryAfterMs?: number;
  details?: ProblemDetail[];
  /** The JSON-RPC error the upstream answered the call with, when it did (its code and data, as sent). */
  upstream?: UpstreamRpcError;
  /** RATE_LIMITED: the budget that refused the call (for RateLimit-* headers). */
  rateLimit?: { scope: 'principal' | 'tool'; limitPerMinute: number };
}

export interface UpstreamRpcError {
  code: number;
  data?: unknown;
}

/** What an interceptor changed, as the record keeps it: paths and counts, never the values. */
export interface InterceptorChanges {
  /** JSON paths of the arguments or of the result that were set, replaced or removed (`arguments.path`, `content[0].text`). */
  paths?: string[];
  /** Counts by what was found (redact: masks by kind, e.g. `{ email: 2, card: 1 }`). */
  counts?: Record<string, number>;
  /** cap: the result was truncated. */
  truncated?: boolean;
}

/** One interceptor that ran on a call: its decision, what it changed (paths and counts, never values) and how long it took. */
export interface InterceptorRun {
  name: string;
  kind: string;
  phase: 'pre' | 'post';
  /** `error`: it failed or timed out, and its onError decided (`onError`, `failure`). `hold`: the call waits for a person's decision. */
  decision: 'allow' | 'modify' | 'deny' | 'error' | 'hold';
  onError?: 'deny' | 'allow';
  failure?: string;
  message?: string;
  warning?: string;
  changes?: InterceptorChanges;
  /** An approval interceptor on a call resumed after the decision: who decided what, and when. */
  approval?: ApprovalRun;
  durationMs: number;
}

/** A person's decision on a held call, as the record (and so the chain) keeps it. */
export interface ApprovalRun {
  id: string;
  decision: ApprovalDecision;
  decidedBy?: { id: string; name: string };
  comment?: string;
  /** ISO timestamps. */
  requestedAt: string;
  decidedAt: string;
}

/** `expired`: nobody decided before the approval's timeout, which counts as a denial; `withdrawn`: the caller cancelled the call. */
export type ApprovalDecision = 'approved' | 'denied' | 'expired' | 'withdrawn';

/** One call of one tool, whatever its outcome; written before the answer is sent. */
export interface ExecutionRecord {
  id: string;
  toolId: string | null;
  qualifiedName: string;
  sourceId: string | null;
  sourceName: string | null;
  definitionHash: string | null;
  /** The tool group the call came through (its name as the caller gave it), or null. */
  group?: string | null;
  caller: ExecutionCaller;
  channel: ExecutionChannel;
  /** Redacted where the schema or the name marks a value secret. */
  arguments: unknown;
  status: ExecutionStatus;
  isError: boolean;
  result: ExecutionResult | null;
  error: ExecutionError | null;
  attempts: number;
  startedAt: Date;
  durationMs: number;
  /** The trace the call ran in (W3C trace id), when traces are on. */
  traceId?: string | null;
  /** The interceptors that ran on the call, in order; absent (or empty) when none did. */
  interceptors?: InterceptorRun[];
}

/**
 * Port: durable execution history. `record` resolves once the record is committed (the first
 * record of an id is kept) and ends the call's started record if it has one.
 */
export abstract class ExecutionRecorder {
  abstract record(execution: ExecutionRecord): Promise<void>;
  /** Records a call as started before it is sent; resolves once committed. Until its outcome is recorded, a restart turns it into an `interrupted` execution. */
  abstract recordStarted(execution: ExecutionRecord): Promise<void>;
}
