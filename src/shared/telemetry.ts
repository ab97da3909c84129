type Headers = Record<string, string | string[] | undefined>;

/** The remote end of an upstream request, as spans name it. */
export interface UpstreamEndpoint {
  transport: 'stdio' | 'streamable-http' | 'sse';
  /** Remote sources only. */
  url?: string;
}

/** The span and duration of one MCP request Toolplane serves. */
export interface ServerOperation {
  /** Runs the work with this span as the active one (upstream spans, logs and records see it). */
  run<T>(work: () => T): T;
  /** The JSON-RPC answer as sent: its error code, or `tool_error` for a result with `isError`. */
  answered(message: unknown): void;
  /** A JSON answer body, read for its outcome when that is cheap. */
  answeredBody(body: Buffer): void;
  /** Ends the span and records the duration; later calls do nothing. */
  end(): void;
}

/** The span and duration of one request Toolplane sends to an upstream. */
export interface ClientOperation {
  readonly recording: boolean;
  run<T>(work: () => T): T;
  /** What the connection negotiated; the session id only for 2025-era sessions. */
  connected(protocolVersion: string | undefined, sessionId: string | undefined): void;
  /** The trace context to send upstream (HTTP headers and `params._meta`); undefined with traces off. */
  carrier(): Record<string, string> | undefined;
  requestId(id: string): void;
  /** Opt-in payload attributes: values already redacted and scrubbed by the caller. */
  payload(name: 'gen_ai.tool.call.arguments' | 'gen_ai.tool.call.result', value: unknown): void;
  succeeded(isError: boolean): void;
  /** The call failed: a JSON-RPC error (its code), or a failure class (`timeout`, `cancelled`, `transport`, …). */
  failed(errorType: string, rpcCode: number | undefined, message: string): void;
  end(): void;
}

/** One interceptor's run on a tool call, as its span names it. */
export interface InterceptorRunInfo {
  name: string;
  kind: string;
  phase: 'pre' | 'post';
}

/** The span of one interceptor's run, a child of the call's span. */
export interface InterceptorOperation {
  /** Runs the engine with this span as the active one (what it sends out goes under it). */
  run<T>(work: () => T): T;
  /** Ends the span with the run's decision; `failure` names why it failed (decision `error`): timeout, engine_error, … */
  end(decision: 'allow' | 'modify' | 'deny' | 'error' | 'hold', failure?: string): void;
}

/** The span of one REST request. */
export interface HttpOperation {
  run<T>(work: () => T): T;
  end(statusCode: number | undefined): void;
}

/**
 * Spans and duration metrics of MCP and REST work (the port; src/ops/tracing adapts it to
 * OpenTelemetry). Every operation must be ended.
 */
export abstract class Telemetry {
  /** Whether client spans may carry the tool's arguments and result (TOOLPLANE_TRACE_PAYLOADS). */
  abstract readonly payloads: boolean;
  abstract serverOperation(message: Record<string, unknown>, headers: Headers, client: { address?: string; port?: number }): ServerOperation;
  abstract upstreamCall(endpoint: UpstreamEndpoint, toolName: string): ClientOperation;
  abstract upstreamListing(endpoint: UpstreamEndpoint): ClientOperation;
  abstract httpServer(method: string, route: string | undefined, path: string, headers: Headers, client: { address?: string; port?: number }): HttpOperation;
  abstract interceptorRun(interceptor: InterceptorRunInfo): InterceptorOperation;
}

const run = <T>(work: () => T): T => work();
const nothing = (): void => undefined;
const NO_OPERATION: ServerOperation & ClientOperation & HttpOperation & InterceptorOperation = {
  recording: false,
  run,
  answered: nothing,
  answeredBody: nothing,
  connected: nothing,
  carrier: () => undefined,
  requestId: nothing,
  payload: nothing,
  succeeded: nothing,
  failed: nothing,
  end: nothing,
};

/** No spans and no metrics: for code that runs outside the application (tools, benchmarks, specs). */
export const NO_TELEMETRY: Telemetry = {
  payloads: false,
  serverOperation: () => NO_OPERATION,
  upstreamCall: () => NO_OPERATION,
  upstreamListing: () => NO_OPERATION,
  httpServer: () => NO_OPERATION,
  interceptorRun: () => NO_OPERATION,
};
