import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { isRecord } from '../../shared/is-record.js';
import { checkModernResult, rawAnswerOf, toolsCallRequest, type DirectCallOptions, type DirectCaller, type NegotiatedSession, type RawAnswer } from '../http/direct-tool-call.js';
import type { StdioProcessTransport } from './stdio-process-transport.js';

/** Ids of direct calls: strings of their own, never one of the SDK client's numeric ids. */
const ID_PREFIX = 'toolplane-';

interface PendingCall {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  modern: boolean;
  /** Resolved with the answer as it came (see DirectCaller.request). */
  raw?: boolean;
  onProgress?: DirectCallOptions['onProgress'];
}

/**
 * `tools/call` over a stdio connection the SDK client started and negotiated, written straight to
 * the process and answered from its stdout without going through the client: the hot path of
 * plugin calls, where the client's per-request bookkeeping and result schema parsing cost more
 * than the call itself. The answer to a call (and its progress, by progress token) is taken off
 * the line before the client sees it; everything else — log messages, requests for input, other
 * responses — still goes to the client and the connection's relay, as for any call.
 *
 * On the wire it is what the SDK sends: on 2026-07-28 the `_meta` envelope, progress through a
 * progress token, a cancellation as `notifications/cancelled`. The result is handed on raw
 * (validated by its reader, as over HTTP); a JSON-RPC error rejects as ProtocolError, the process
 * going away as the client's ConnectionClosed.
 */
export class StdioDirectToolCaller implements DirectCaller {
  private nextId = 0;
  private readonly pending = new Map<string, PendingCall>();

  constructor(
    private readonly transport: StdioProcessTransport,
    private readonly session: () => NegotiatedSession,
    /** Told of a 2026-07-28 result without `resultType` (read as complete). */
    private readonly onMissingResultType?: () => void,
  ) {
    transport.interceptMessages({ message: (message) => this.take(message), closed: () => this.failAll() });
  }

  close(): void {
    this.failAll();
  }

  async call(params: Record<string, unknown> & { name: string }, options: DirectCallOptions): Promise<unknown> {
    if (options.signal.aborted) throw new SdkError(SdkErrorCode.RequestTimeout, 'The call was cancelled before it was sent');
    const session = this.session();
    const modern = session.era === 'modern';
    const id = `${ID_PREFIX}${++this.nextId}`;
    options.onRequestId?.(id);
    const message = toolsCallRequest(session, id, params, options.onProgress !== undefined) as JSONRPCMessage;
    const answered = new Promise<unknown>((resolve, reject) => {
      const call: PendingCall = { resolve, reject, modern };
      if (options.onProgress) call.onProgress = options.onProgress;
      this.pending.set(id, call);
    });
    const onAbort = () => {
      const call = this.pending.get(id);
      if (!call) return;
      this.pending.delete(id);
      call.reject(new SdkError(SdkErrorCode.RequestTimeout, 'The call was cancelled'));
      const notice = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'cancelled by the caller' } } as JSONRPCMessage;
      void this.transport.send(notice).catch(() => undefined);
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    try {
      await this.transport.send(message).catch((error: unknown) => {
        const call = this.pending.get(id);
        this.pending.delete(id);
        call?.reject(error instanceof Error ? error : new Error(String(error)));
      });
      return await answered;
    } finally {
      options.signal.removeEventListener('abort', onAbort);
    }
  }

  async request(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<RawAnswer> {
    if (signal.aborted) throw new SdkError(SdkErrorCode.RequestTimeout, 'The request was cancelled before it was sent');
    const id = `${ID_PREFIX}${++this.nextId}`;
    const answered = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject, modern: this.session().era === 'modern', raw: true }));
    const onAbort = () => {
      const call = this.pending.get(id);
      if (!call) return;
      this.pending.delete(id);
      call.reject(new SdkError(SdkErrorCode.RequestTimeout, 'The request was cancelled'));
      void this.transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'cancelled by the caller' } } as JSONRPCMessage).catch(() => undefined);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await this.transport.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage).catch((error: unknown) => {
        const call = this.pending.get(id);
        this.pending.delete(id);
        call?.reject(error instanceof Error ? error : new Error(String(error)));
      });
      return (await answered) as RawAnswer;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Takes the answer or progress of a direct call off the line; anything else is the client's. */
  private take(message: JSONRPCMessage): boolean {
    const fields = message as Record<string, unknown>;
    if (fields.method === 'notifications/progress') {
      const params = fields.params;
      if (!isRecord(params) || typeof params.progressToken !== 'string' || !params.progressToken.startsWith(ID_PREFIX)) return false;
      const call = this.pending.get(params.progressToken);
      // Progress of a call that ended (or of none): dropped, the client never gave that token.
      if (!call) return true;
      const { progress, total, message: text } = params;
      if (typeof progress === 'number') {
        call.onProgress?.({ progress, ...(typeof total === 'number' ? { total } : {}), ...(typeof text === 'string' ? { message: text } : {}) });
      }
      return true;
    }
    if (fields.method !== undefined || typeof fields.id !== 'string' || !fields.id.startsWith(ID_PREFIX)) return false;
    const call = this.pending.get(fields.id);
    // A late answer (the call was cancelled) is dropped: the client never sent that id.
    if (!call) return true;
    this.pending.delete(fields.id);
    if (call.raw) {
      call.resolve(rawAnswerOf(fields));
      return true;
    }
    if (isRecord(fields.error)) {
      const { code, message: text, data } = fields.error;
      call.reject(new ProtocolError(typeof code === 'number' ? code : -32603, typeof text === 'string' ? text : 'unknown error', data));
      return true;
    }
    try {
      call.resolve(call.modern ? checkModernResult(fields.result, this.onMissingResultType) : fields.result);
    } catch (error) {
      call.reject(error as Error);
    }
    return true;
  }

  private failAll(): void {
    if (this.pending.size === 0) return;
    const calls = [...this.pending.values()];
    this.pending.clear();
    for (const call of calls) call.reject(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
  }
}
