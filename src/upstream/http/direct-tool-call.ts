import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { INPUT_REQUEST_METHODS, type CallListeners, type InputRequestMethod } from '../../modules/execution/domain/tool-invoker.port.js';
import { deliverLog, refusal } from '../upstream-call-relay.js';
import type { KeepAliveRpcPoster, RpcMessage } from './keep-alive-rpc-poster.js';
import { isRecord } from '../../shared/is-record.js';
import type { CallerSignal } from '../../shared/caller-signal.js';

/** What a direct call needs to know of the connection the SDK client negotiated. */
export interface NegotiatedSession {
  era: 'modern' | 'legacy';
  protocolVersion: string;
  /** The 2025-era session, when the server assigned one. */
  sessionId?: string;
  /** The 2026-07-28 per-request `_meta` envelope (protocol version, client info, capabilities). */
  metaEnvelope(): Record<string, unknown> | undefined;
}

/**
 * The call's listeners hear what comes on the request's own stream: progress, log messages
 * (whichever era the server speaks) and a 2025-era server's requests for input.
 */
export interface DirectCallOptions extends CallListeners {
  signal: CallerSignal;
  /** Trace context headers (`traceparent`, …) for this request. */
  headers?: Record<string, string>;
  /** Told the JSON-RPC id the request goes out under. */
  onRequestId?: (id: string) => void;
}

/** A request's answer as the server gave it: its result, or its JSON-RPC error. */
export type RawAnswer = { result: unknown } | { error: { code: number; message: string; data?: unknown } };

/** A connection's own `tools/call` sender, beside the SDK client (Streamable HTTP, stdio). */
export interface DirectCaller {
  /** Resolves with the raw result (2026 results still carry `resultType`); JSON-RPC errors reject as ProtocolError. */
  call(params: Record<string, unknown> & { name: string }, options: DirectCallOptions): Promise<unknown>;
  /**
   * Sends one request exactly as given (its `_meta` included: no envelope is added) and resolves
   * with its answer, whatever it is: the raw path of the requests the SDK client would refuse an
   * answer of (a 2026-07-28 task's `tools/call`, `tasks/get`, `tasks/cancel`).
   */
  request(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<RawAnswer>;
  /** Calls under way fail. */
  close(): void;
}

const METHOD_NOT_FOUND = -32601;
const CANCEL_NOTICE_MS = 1000;
const ANSWER_POST_MS = 10_000;

/**
 * `tools/call` over a Streamable HTTP connection the SDK client opened and negotiated, sent
 * without going through the client: the hot path of remote calls, where the SDK's web-stream
 * transport, schema parsing and per-request bookkeeping cost several times the call itself.
 *
 * It speaks what the SDK would on the wire: the connection's protocol version and session
 * headers, on 2026-07-28 the `_meta` envelope plus `Mcp-Method`/`Mcp-Name`, progress through a
 * progress token, cancellation by closing the request's stream (and, on 2025-era sessions, with
 * `notifications/cancelled`). Log messages on the request's stream are the call's, and so are a
 * 2025-era server's requests for input there (its caller answers them, or the server gets an
 * error); other server requests are answered like the SDK client answers them (`ping`, else
 * method not found). Ids are strings of their own, so they never collide with the client's
 * numeric ones on the same session.
 */
export class DirectToolCaller implements DirectCaller {
  private nextId = 0;

  constructor(
    private readonly poster: KeepAliveRpcPoster,
    private readonly session: () => NegotiatedSession,
    /** Told of a 2026-07-28 result without `resultType` (read as complete). */
    private readonly onMissingResultType?: () => void,
  ) {}

  /** Closes the pooled HTTP connections; calls under way fail. */
  close(): void {
    this.poster.close();
  }

  /** Resolves with the raw result (2026 results still carry `resultType`); JSON-RPC errors reject as ProtocolError. */
  async call(params: Record<string, unknown> & { name: string }, options: DirectCallOptions): Promise<unknown> {
    const session = this.session();
    const modern = session.era === 'modern';
    const id = `toolplane-${++this.nextId}`;
    options.onRequestId?.(id);
    const message = toolsCallRequest(session, id, params, options.onProgress !== undefined);
    const headers = this.headers(session);
    if (options.headers) Object.assign(headers, options.headers);
    if (modern) {
      headers['mcp-method'] = 'tools/call';
      headers['mcp-name'] = headerValue(params.name);
    }

    const onAbort = () => {
      // 2025-era servers learn of a cancellation from a notification; a closed stream is enough on 2026-07-28.
      if (!modern) this.notifyCancelled(session, id);
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    let answer: RpcMessage;
    try {
      answer = await this.poster.call(id, JSON.stringify(message), {
        headers,
        signal: options.signal,
        errorBodyIsAnswer: modern,
        onMessage: (incoming) => this.onServerMessage(session, incoming, id, options),
      });
    } finally {
      options.signal.removeEventListener('abort', onAbort);
    }
    if (isRecord(answer.error)) {
      const { code, message: text, data } = answer.error;
      throw new ProtocolError(typeof code === 'number' ? code : -32603, typeof text === 'string' ? text : 'unknown error', data);
    }
    return modern ? checkModernResult(answer.result, this.onMissingResultType) : answer.result;
  }

  async request(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<RawAnswer> {
    const session = this.session();
    const id = `toolplane-${++this.nextId}`;
    const headers = this.headers(session);
    const name = method === 'tools/call' ? params.name : params.taskId;
    if (session.era === 'modern') {
      headers['mcp-method'] = method;
      if (typeof name === 'string') headers['mcp-name'] = headerValue(name);
    }
    const answer = await this.poster.call(id, JSON.stringify({ jsonrpc: '2.0', id, method, params }), {
      headers,
      signal,
      errorBodyIsAnswer: session.era === 'modern',
      onMessage: (incoming) => this.onServerMessage(session, incoming, id, { signal }),
    });
    return rawAnswerOf(answer);
  }

  private onServerMessage(session: NegotiatedSession, message: RpcMessage, progressToken: string, options: DirectCallOptions): void {
    if (message.method === 'notifications/progress' && isRecord(message.params) && message.params.progressToken === progressToken) {
      const { progress, total, message: text } = message.params;
      if (typeof progress === 'number') {
        options.onProgress?.({
          progress,
          ...(typeof total === 'number' ? { total } : {}),
          ...(typeof text === 'string' ? { message: text } : {}),
        });
      }
      return;
    }
    if (message.method === 'notifications/message') {
      if (options.log) deliverLog(options.log, message.params);
      return;
    }
    if (typeof message.method === 'string' && (typeof message.id === 'string' || typeof message.id === 'number')) {
      void this.answerServerRequest(session, message.id, message.method, message.params, options);
    }
  }

  /** Answers a server request on the call's stream: `ping`; a request for input, by the call's caller; anything else, method not found. */
  private async answerServerRequest(session: NegotiatedSession, id: string | number, method: string, params: unknown, options: DirectCallOptions): Promise<void> {
    let response: Record<string, unknown>;
    if (method === 'ping') response = { jsonrpc: '2.0', id, result: {} };
    else if (isInputRequestMethod(method) && session.era === 'legacy') {
      const request = { method, params: isRecord(params) ? params : {} };
      try {
        if (!options.onInputRequest) throw refusal(request, 'the caller of this tool cannot be asked');
        response = { jsonrpc: '2.0', id, result: await options.onInputRequest(request) };
      } catch (error) {
        const { code, message, data } = error instanceof ProtocolError ? error : { code: -32603, message: 'The caller could not answer.', data: undefined };
        response = { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined ? { data } : {}) } };
      }
    } else response = { jsonrpc: '2.0', id, error: { code: METHOD_NOT_FOUND, message: `Method not found: ${method}` } };
    // The answer travels as its own POST; a caller's answer may take long, the POST itself must not.
    await this.poster.send(JSON.stringify(response), this.headers(session), AbortSignal.timeout(ANSWER_POST_MS)).catch(() => undefined);
  }

  private notifyCancelled(session: NegotiatedSession, requestId: string): void {
    const notice = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'cancelled by the caller' } };
    void this.poster.send(JSON.stringify(notice), this.headers(session), AbortSignal.timeout(CANCEL_NOTICE_MS)).catch(() => undefined);
  }

  private headers(session: NegotiatedSession): Record<string, string> {
    const headers: Record<string, string> = { 'mcp-protocol-version': session.protocolVersion };
    if (session.sessionId) headers['mcp-session-id'] = session.sessionId;
    return headers;
  }
}

/**
 * The `tools/call` request a direct caller sends as `id`: the params with their `_meta` made of the
 * 2026-07-28 envelope, the caller's own `_meta` and, when progress is wanted, the id as progress
 * token. Built by assignment: this runs on every call (conditional spreads cost microseconds here).
 */
export function toolsCallRequest(session: NegotiatedSession, id: string, params: Record<string, unknown>, withProgress: boolean): { jsonrpc: '2.0'; id: string; method: 'tools/call'; params: Record<string, unknown> } {
  const meta: Record<string, unknown> = {};
  if (session.era === 'modern') Object.assign(meta, session.metaEnvelope());
  if (isRecord(params._meta)) Object.assign(meta, params._meta);
  if (withProgress) meta.progressToken = id;
  const sent: Record<string, unknown> = { ...params };
  if (Object.keys(meta).length > 0) sent._meta = meta;
  return { jsonrpc: '2.0', id, method: 'tools/call', params: sent };
}

/**
 * A 2026-07-28 result says what it is; anything but complete or input_required is not a tool
 * result. One that says nothing is read as complete (the revision requires `resultType`, some
 * servers leave it out), and `onMissingResultType` is told.
 */
export function checkModernResult(result: unknown, onMissingResultType?: () => void): unknown {
  if (!isRecord(result)) throw new SdkError(SdkErrorCode.InvalidResult, 'Invalid result for tools/call: not an object');
  const { resultType } = result;
  if (resultType === 'complete') return result;
  if (resultType === undefined) {
    onMissingResultType?.();
    return result;
  }
  if (resultType === 'input_required') {
    const asks = isRecord(result.inputRequests) && Object.keys(result.inputRequests).length > 0;
    if (!asks && typeof result.requestState !== 'string') {
      throw new SdkError(SdkErrorCode.InvalidResult, 'Invalid result for tools/call: input_required carries neither inputRequests nor requestState');
    }
    return result;
  }
  throw new SdkError(SdkErrorCode.InvalidResult, `Invalid result for tools/call: unsupported resultType ${JSON.stringify(resultType)}`);
}

/** A JSON-RPC answer as a RawAnswer: an error whose fields are not what they should be still says something. */
export function rawAnswerOf(answer: { result?: unknown; error?: unknown }): RawAnswer {
  if (!isRecord(answer.error)) return { result: answer.result };
  const { code, message, data } = answer.error;
  return { error: { code: Number.isSafeInteger(code) ? (code as number) : -32603, message: typeof message === 'string' ? message : 'unknown error', ...(data !== undefined ? { data } : {}) } };
}

/**
 * An `Mcp-Name` header value: the name itself when it is plain visible ASCII without surrounding
 * blanks, else the spec's base64 form `=?base64?…?=`.
 */
export function headerValue(value: string): string {
  const plain = value.length > 0 && value === value.trim() && /^[\t\x20-\x7e]*$/.test(value) && !(value.startsWith('=?base64?') && value.endsWith('?='));
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

function isInputRequestMethod(method: string): method is InputRequestMethod {
  return (INPUT_REQUEST_METHODS as readonly string[]).includes(method);
}
