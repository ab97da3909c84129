import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import {
  INPUT_REQUEST_CAPABILITY,
  isAtLeast,
  LOG_LEVELS,
  type CallListeners,
  type InputRequest,
  type LogLevel,
  type LogSubscription,
  type UpstreamLogMessage,
} from '../modules/execution/domain/tool-invoker.port.js';

/**
 * Who may hear a message that arrived on a connection rather than on a request's own stream
 * (stdio, legacy SSE). Nothing on that wire says which call it belongs to, so it goes only where
 * exactly one call can have caused it:
 *
 * - `exclusive`: the connection serves a single use (a transient stdio process): it is that call's;
 * - `requested`: a 2026-07-28 upstream logs only for requests that carry a log level in `_meta`, so
 *   while exactly one call listening for log messages is in flight, a log message is its own;
 * - `shared`: a shared 2025-era connection. Its server logs whenever its session level allows, so
 *   log messages are never relayed; a request for input is the call's while it is the only one in
 *   flight (the server sends such requests only while serving a call).
 */
export type Attribution = 'exclusive' | 'requested' | 'shared';

/** Where a 2025-11-25 server says which of its tasks a request belongs to. */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** A call in flight; one running as a task upstream knows its task's id once created. */
export interface RelayedCall extends CallListeners {
  relatedTaskId?: string;
}

/** The calls in flight on one upstream connection, and what of the connection's own messages each hears. */
export class UpstreamCallRelay {
  private readonly calls = new Set<RelayedCall>();

  constructor(private readonly attribution: () => Attribution) {}

  /** Registers a call for as long as it runs; answers the function that ends it. */
  attach(call: RelayedCall): () => void {
    this.calls.add(call);
    return () => this.calls.delete(call);
  }

  /** A `notifications/message` that came on the connection itself. */
  receiveLog(params: unknown): void {
    const attribution = this.attribution();
    if (attribution === 'shared') return;
    const listening = attribution === 'exclusive' ? [...this.calls] : [...this.calls].filter((call) => call.log);
    if (listening.length === 1 && listening[0]!.log) deliverLog(listening[0]!.log, params);
  }

  /**
   * A request for input that came on the connection itself: put to the one call in flight when its
   * caller can be asked, refused otherwise (a JSON-RPC error the upstream sees as the answer).
   */
  answerInputRequest(request: InputRequest): Promise<Record<string, unknown>> {
    // A request that names its task (2025-11-25, during `tasks/result`) is that task's call's; the
    // upstream's task id is taken off before anyone downstream sees the request.
    const related = relatedTaskOf(request.params);
    const owner = related === undefined ? undefined : this.runningTask(related);
    if (owner) return ask(owner, { method: request.method, params: withoutRelatedTask(request.params) });
    if (this.calls.size !== 1) {
      return Promise.reject(refusal(request, this.calls.size === 0 ? 'no tool call is under way on this connection' : 'several tool calls are under way on this connection, and nothing says which one asks'));
    }
    const [call] = this.calls;
    return ask(call!, request);
  }

  /**
   * A request for input a 2026-07-28 upstream task lists while `input_required`: put to the call
   * that task belongs to, refused when no call here runs it or its caller cannot be asked.
   */
  askForTask(upstreamTaskId: string, request: InputRequest): Promise<Record<string, unknown>> {
    const owner = this.runningTask(upstreamTaskId);
    return owner ? ask(owner, request) : Promise.reject(refusal(request, 'no tool call under way here runs this task'));
  }

  /** The call in flight that runs the upstream task `taskId`. */
  private runningTask(taskId: string): RelayedCall | undefined {
    return [...this.calls].find((call) => call.relatedTaskId === taskId);
  }
}

/** Puts the request to the call's caller, or refuses it when that caller cannot be asked. */
function ask(call: RelayedCall, request: InputRequest): Promise<Record<string, unknown>> {
  return call.onInputRequest ? call.onInputRequest(request) : Promise.reject(refusal(request, 'the caller of this tool cannot be asked'));
}

function relatedTaskOf(params: Record<string, unknown>): string | undefined {
  const meta = params._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const related = (meta as Record<string, unknown>)[RELATED_TASK];
  const taskId = typeof related === 'object' && related !== null ? (related as Record<string, unknown>).taskId : undefined;
  return typeof taskId === 'string' ? taskId : undefined;
}

function withoutRelatedTask(params: Record<string, unknown>): Record<string, unknown> {
  const meta = { ...(params._meta as Record<string, unknown>) };
  delete meta[RELATED_TASK];
  const { _meta: _dropped, ...rest } = params;
  return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
}

/**
 * The JSON-RPC error an upstream gets for a request for input Toolplane cannot put to a caller:
 * 2026-07-28's missing-capability error (-32021), toward upstreams of both eras.
 */
export function refusal(request: InputRequest, why: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.MissingRequiredClientCapability, `Cannot relay ${request.method} through Toolplane: ${why}.`, {
    requiredCapabilities: { [INPUT_REQUEST_CAPABILITY[request.method]]: {} },
  });
}

/** Hands a `notifications/message`'s params to a subscriber, if well-formed and severe enough; a failing listener is ignored. */
export function deliverLog(subscription: LogSubscription, params: unknown): void {
  const message = logMessageOf(params);
  if (!message || !isAtLeast(message.level, subscription.level)) return;
  try {
    subscription.onMessage(message);
  } catch {
    // a failing listener must not fail the call
  }
}

function logMessageOf(params: unknown): UpstreamLogMessage | undefined {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const { level, logger, data } = params as Record<string, unknown>;
  if (!isLogLevel(level) || !('data' in params)) return undefined;
  return { level, data, ...(typeof logger === 'string' ? { logger } : {}) };
}

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}
