/** One ended call, as the metrics count it. Labels are names Toolplane issued, never what a caller chose. */
export interface CallObservation {
  /** The source's name, null when the call named no known tool. */
  source: string | null;
  /** The qualified name, null when the call named no known tool. */
  tool: string | null;
  channel: string;
  status: string;
  /** The whole call as Toolplane handled it. */
  seconds: number;
  /** The time spent waiting on the upstream (all attempts); null when nothing was sent. */
  upstreamSeconds: number | null;
}

/** One MCP request served (`server`) or sent upstream (`client`), as the MCP semantic conventions measure it. */
export interface McpOperationObservation {
  side: 'server' | 'client';
  /** A method of the MCP specification, or `_OTHER`. */
  method: string;
  /** Absent when it succeeded: a JSON-RPC error code, `tool_error`, or a failure class Toolplane names. */
  errorType?: string;
  /** `tcp` or `pipe`. */
  transport: string;
  seconds: number;
}

/** One interceptor's run on a call. Its name is one Toolplane issued (an administrator created it), never a caller's. */
export interface InterceptorObservation {
  interceptor: string;
  phase: 'pre' | 'post';
  decision: 'allow' | 'modify' | 'deny' | 'error' | 'hold';
  seconds: number;
}

/** A held call decided: by a person (approved, denied) or by nobody in time (expired), and how long it waited. */
export interface ApprovalObservation {
  decision: 'approved' | 'denied' | 'expired';
  seconds: number;
}

/** A gauge's value for one set of labels, read when metrics are scraped. */
export interface GaugeSample {
  labels: Record<string, string>;
  value: number;
}

/**
 * What the application tells operators about its work. The modules report through this port;
 * `src/ops/metrics` implements it with Prometheus metrics.
 */
export abstract class WorkMetrics {
  abstract callEnded(call: CallObservation): void;
  abstract interceptorRan(run: InterceptorObservation): void;
  abstract approvalDecided(approval: ApprovalObservation): void;
  abstract mcpOperationEnded(operation: McpOperationObservation): void;
  /** An MCP session ended: one Toolplane served (`server`) or held to an upstream (`client`). */
  abstract mcpSessionEnded(side: 'server' | 'client', transport: string, seconds: number): void;
  abstract refreshEnded(ok: boolean, seconds: number): void;
  abstract recordsCommitted(rows: number, seconds: number): void;
  /** One transaction of a retention purge: the executions it deleted and how long it took. */
  abstract purgeBatchCommitted(rows: number, seconds: number): void;
  /** A retention purge pass ended: how long it took, rests between its batches included. */
  abstract purgePassEnded(seconds: number): void;
  /**
   * Per-source state read at scrape time, keyed by source id (the metrics label it with the
   * source's name): e.g. calls in flight from the bulkheads, circuit states from the breakers.
   */
  abstract perSource(name: 'in_flight' | 'queued' | 'circuit', read: () => Map<string, number>): void;
  /** Upstream connections open, read at scrape time. */
  abstract connections(read: () => { pooled: number; transient: number }): void;
}
