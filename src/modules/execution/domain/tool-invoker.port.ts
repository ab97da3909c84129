import type { UpstreamTarget } from '../../sources/domain/upstream.js';

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

export interface InvocationRequest {
  target: UpstreamTarget;
  /** The tool's name upstream (not the qualified name). */
  toolName: string;
  arguments: Record<string, unknown>;
  /** Budget for this attempt: connecting (when needed) plus the call. */
  timeoutMs: number;
  /** Aborting cancels the call upstream (`notifications/cancelled`, or the request's stream closed). */
  signal?: AbortSignal;
  /** Results larger than this (serialized) are truncated with a marker; nothing larger is ever buffered whole. */
  maxResultBytes: number;
  /** The tool definition as discovered, so the client need not list tools first. */
  definition?: { inputSchema: Record<string, unknown>; outputSchema?: Record<string, unknown> };
  /** 2026-07-28 multi round-trip continuation: the caller's answers and the upstream's state, echoed. */
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  /**
   * What the caller can answer when the upstream asks for input (the `clientCapabilities` an MCP
   * caller declared); the upstream is told these instead of Toolplane's own. Unset: every kind
   * Toolplane relays (a REST caller answers any).
   */
  clientCapabilities?: Record<string, unknown>;
  onProgress?: (update: ProgressUpdate) => void;
}

export type InvocationOutcome =
  | {
      kind: 'result';
      isError: boolean;
      content: unknown[];
      structuredContent?: unknown;
      truncated: boolean;
      originalBytes: number;
    }
  | { kind: 'input_required'; inputRequests: Record<string, unknown>; requestState?: string };

export type InvocationFailureKind = 'timeout' | 'cancelled' | 'transport' | 'protocol';

/**
 * The call did not produce a tool result. `transport`: the connection or process failed
 * (safe to retry for idempotent tools); `protocol`: the upstream answered with a JSON-RPC
 * error (e.g. unknown tool, invalid params); `timeout` and `cancelled` as named.
 */
export class InvocationFailure extends Error {
  constructor(
    readonly kind: InvocationFailureKind,
    message: string,
    /** JSON-RPC error code for `protocol` failures. */
    readonly rpcCode?: number,
    /** JSON-RPC error data for `protocol` failures. */
    readonly rpcData?: unknown,
  ) {
    super(message);
    this.name = 'InvocationFailure';
  }
}

/** Port to the MCP infrastructure: one tools/call attempt through the pooled transports. */
export abstract class ToolInvoker {
  abstract invoke(request: InvocationRequest): Promise<InvocationOutcome>;
}
