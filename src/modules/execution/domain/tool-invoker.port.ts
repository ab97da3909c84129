import type { CallerSignal } from '../../../shared/caller-signal.js';
import type { UpstreamTarget } from '../../sources/domain/upstream.js';

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** MCP's log severities (RFC 5424), least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A log message an upstream sent while serving one call (`notifications/message`). */
export interface UpstreamLogMessage {
  level: LogLevel;
  logger?: string;
  data: unknown;
}

/** A caller that hears the upstream's log messages of `level` and more severe while its call runs. */
export interface LogSubscription {
  level: LogLevel;
  onMessage: (message: UpstreamLogMessage) => void;
}

/** Whether `level` is at least as severe as `threshold`. */
export function isAtLeast(level: LogLevel, threshold: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

/** The requests an upstream may put to the caller through Toolplane while a call runs (the 2025 era's server-to-client requests). */
export const INPUT_REQUEST_METHODS = ['sampling/createMessage', 'elicitation/create', 'roots/list'] as const;
export type InputRequestMethod = (typeof INPUT_REQUEST_METHODS)[number];

/** The client capability each request for input needs. */
export const INPUT_REQUEST_CAPABILITY: Readonly<Record<InputRequestMethod, 'sampling' | 'elicitation' | 'roots'>> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

export interface InputRequest {
  method: InputRequestMethod;
  params: Record<string, unknown>;
}

/** Puts an upstream's request to the caller: resolves with the caller's answer, rejects when the caller cannot be asked. */
export type InputRequestHandler = (request: InputRequest) => Promise<Record<string, unknown>>;

/** What the caller hears, and can be asked, while its call runs. */
export interface CallListeners {
  onProgress?: (update: ProgressUpdate) => void;
  /**
   * The upstream's log messages for this call. Relayed only where they can be told apart from
   * other calls' (see McpToolExecutor); never required for the call to work.
   */
  log?: LogSubscription;
  /**
   * Answers the upstream's requests to the caller (sampling, elicitation, roots) during this call,
   * where they can be told apart from other calls'; without it they are refused.
   */
  onInputRequest?: InputRequestHandler;
  /** Told once the upstream runs the call as a task of its own, with its id (kept on Toolplane's task row, never shown to the caller). */
  onUpstreamTask?: (upstreamTaskId: string) => void;
}

export interface InvocationRequest extends CallListeners {
  target: UpstreamTarget;
  /** The tool's name upstream (not the qualified name). */
  toolName: string;
  arguments: Record<string, unknown>;
  /** Budget for this attempt: connecting (when needed) plus the call. */
  timeoutMs: number;
  /** Aborting cancels the call upstream (`notifications/cancelled`, or the request's stream closed). */
  signal?: CallerSignal;
  /** True when `signal` itself aborts with a `TimeoutError` once `timeoutMs` has passed: the invoker need not time the attempt again. */
  signalTimesOut?: boolean;
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
  /**
   * Call the tool as a task upstream where the upstream runs it as one (2025-11-25 `params.task`,
   * then `tasks/get` and `tasks/result`; 2026-07-28 the tasks extension): the whole task runs
   * within `timeoutMs`, and aborting `signal` sends `tasks/cancel`. Unset: a plain `tools/call`.
   */
  task?: UpstreamTaskRequest;
}

/** What the caller of a task call hears of the upstream's task. */
export interface UpstreamTaskRequest {
  /** The tool must run as a task (`required`); else the upstream may answer at once (`optional`, or a server without tasks). */
  required: boolean;
  /**
   * Whether the tool's definition lets it run as a task (2025-11-25 `execution.taskSupport`
   * `optional` or `required`): a 2025-era upstream is asked for a task only then. A 2026-07-28
   * tool declares nothing of the kind (its server declares the tasks extension, and decides).
   */
  declared: boolean;
  /** Told the upstream's own id of the task once it exists: Toolplane's to keep, never a caller's to see. */
  onCreated?: (upstreamTaskId: string) => void;
}

export type InvocationOutcome =
  | {
      kind: 'result';
      isError: boolean;
      content: unknown[];
      structuredContent?: unknown;
      /** The result's own `_meta`, as the upstream sent it (protocol keys aside). */
      meta?: Record<string, unknown>;
      truncated: boolean;
      originalBytes: number;
    }
  | { kind: 'input_required'; inputRequests: Record<string, unknown>; requestState?: string };

export type InvocationFailureKind = 'timeout' | 'cancelled' | 'transport' | 'protocol' | 'unauthorized';

/**
 * The call did not produce a tool result. `transport`: the connection or process failed
 * (safe to retry for idempotent tools); `protocol`: the upstream answered with a JSON-RPC
 * error (e.g. unknown tool, invalid params); `unauthorized`: an HTTP upstream answered 401 (the
 * credential sent was refused); `timeout` and `cancelled` as named.
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
