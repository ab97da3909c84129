import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { Pool, type Dispatcher } from 'undici';
import { largeMessagesOffThread, OFF_THREAD_MIN_BYTES, parseLargeMessage } from '../../shared/off-thread/large-message.js';
import { OrderedDelivery } from '../../shared/off-thread/ordered-delivery.js';
import { formatBytes } from '../stdio/stdio-errors.js';
import { UpstreamError } from '../upstream-error.js';
import { STREAM_ENDED_MARK } from './request-scoped-http-transport.js';
import { SseDataParser } from './sse-data-parser.js';
import { isRecord } from '../../shared/is-record.js';
import type { HostPolicy } from '../../shared/host-policy.js';
import type { CallerSignal } from '../../shared/caller-signal.js';
import { guardedLookup, HostDeniedError } from '../../shared/guarded-lookup.js';
import { firstHeaderValue } from '../../shared/http/header-value.js';

export type RpcMessage = Record<string, unknown>;
type RequestId = string | number;

export interface RpcPostOptions {
  /** Per-request headers (session, protocol version, Mcp-Method, ...), over the configured ones. */
  headers: Record<string, string>;
  signal: CallerSignal;
  /** Every message on the response other than the answer (notifications, server requests). */
  onMessage?: (message: RpcMessage) => void;
  /** An HTTP 400 whose body is a JSON-RPC error for this request is that error (2026-07-28), not an HTTP failure. */
  errorBodyIsAnswer?: boolean;
}

const INTERNAL_ERROR = -32603;
const ERROR_BODY_LIMIT = 64 * 1024;
/** After the answer, how long an SSE response may stay open before its connection is given up. */
const DRAIN_GRACE_MS = 1000;

/**
 * POSTs JSON-RPC messages to one Streamable HTTP endpoint over a keep-alive connection pool
 * (undici's dispatcher, not fetch nor node:http: no web streams, no per-request emitters, about
 * half the CPU of node:http per request), reading a JSON or an SSE response. Messages are bounded
 * like the SDK transport's: a JSON body or one SSE event larger than `maxMessageBytes` fails the
 * request (kind `limit`) without being buffered. Failures are the errors the SDK transport throws
 * for the same cases, so they are described the same way.
 */
export class KeepAliveRpcPoster {
  private readonly pool: Pool;
  private readonly path: string;
  /** Why the policy refuses the endpoint's host as written (a name or a literal address): the same for every call. */
  private readonly refusal: string | undefined;

  constructor(
    url: URL,
    private readonly configuredHeaders: Readonly<Record<string, string>>,
    private readonly maxMessageBytes: number,
    hostPolicy?: HostPolicy,
  ) {
    this.pool = new Pool(url.origin, {
      // A name is checked at connect time; sockets skip the lookup for a literal address, checked once here.
      ...(hostPolicy ? { connect: { lookup: guardedLookup(hostPolicy) as never } } : {}),
      // A call's own deadline bounds it; a tool may stream for longer than any fixed timeout.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    this.path = `${url.pathname}${url.search}`;
    this.refusal = hostPolicy?.refusesHost(url.hostname);
  }

  /** POSTs a request; resolves with the server's response message for `id` (a result or an error). */
  call(id: RequestId, body: string, options: RpcPostOptions): Promise<RpcMessage> {
    return new Promise<RpcMessage>((resolve, reject) => {
      const { signal } = options;
      if (signal.aborted) {
        reject(abortError());
        return;
      }
      if (this.refusal) {
        reject(new HostDeniedError(this.refusal));
        return;
      }
      const reading = new ResponseReading(id, options, this.maxMessageBytes, (error, answer) => {
        signal.removeEventListener('abort', onAbort);
        if (error === undefined) resolve(answer as RpcMessage);
        else reject(error);
      });
      // Closing the request's stream is how a 2026-07-28 server learns of the cancellation.
      const onAbort = () => reading.cancel(abortError());
      signal.addEventListener('abort', onAbort, { once: true });
      this.post(body, options.headers, reading);
    });
  }

  /** POSTs a notification or a response to a server request; resolves once the server took it. */
  send(body: string, headers: Record<string, string>, signal: CallerSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const taking = new AcceptedReading((error) => {
        signal.removeEventListener('abort', onAbort);
        if (error === undefined) resolve();
        else reject(error);
      });
      const onAbort = () => taking.cancel(abortError());
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      this.post(body, headers, taking);
    });
  }

  /** Closes every pooled connection; requests under way fail as on a reset connection. */
  close(): void {
    const closed = Object.assign(new Error('the connection was closed'), { code: 'ECONNRESET' });
    void this.pool.destroy(closed).catch(() => undefined);
  }

  private post(body: string, headers: Record<string, string>, handler: Dispatcher.DispatchHandler): void {
    const all: Record<string, string> = Object.assign({}, this.configuredHeaders, headers);
    all['content-type'] = 'application/json';
    all.accept = 'application/json, text/event-stream';
    try {
      this.pool.dispatch({ path: this.path, method: 'POST', headers: all, body }, handler);
    } catch (error) {
      // undici reports a closed pool or a refused request through the handler; anything thrown is reported the same way.
      handler.onResponseError?.(undefined as never, error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/**
 * A dispatch handler that settles its caller once and can be cancelled before undici hands it its
 * controller (while the request waits for a connection) as well as after.
 */
abstract class CancellableReading implements Dispatcher.DispatchHandler {
  private controller?: Dispatcher.DispatchController;
  private cancelledWith?: Error;
  protected settled = false;

  constructor(private readonly settle: (error: unknown, answer?: RpcMessage) => void) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.cancelledWith) controller.abort(this.cancelledWith);
  }

  /** Settles with `error` and stops the request (its connection is closed when it was under way). */
  cancel(error: Error): void {
    this.finish(error);
    this.abort(error);
  }

  /** Stops the request without settling (what the caller sees was already decided). */
  protected abort(error: Error): void {
    if (this.cancelledWith) return;
    this.cancelledWith = error;
    if (this.controller && !this.controller.aborted) this.controller.abort(error);
  }

  abstract onResponseError(controller: Dispatcher.DispatchController, error: Error): void;

  /** Tells the caller how the request ended; only the first word counts. */
  protected finish(error: unknown, answer?: RpcMessage): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(error, answer);
  }
}

/** Reads the response to a notification or a response: only its status matters. */
class AcceptedReading extends CancellableReading {
  private status = 0;
  private statusText?: string;

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, _headers: unknown, statusText?: string): void {
    this.status = status;
    this.statusText = statusText;
  }

  onResponseEnd(): void {
    const status = this.status;
    if (status >= 200 && status < 300) this.finish(undefined);
    else this.finish(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `HTTP ${status}`, { status, statusText: this.statusText }));
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.finish(error);
  }
}

/** Reads one POST's response down to the answer of its request. */
class ResponseReading extends CancellableReading {
  private mode: 'json' | 'events' | 'status' | 'ignore' = 'ignore';
  private status = 0;
  private statusText?: string;
  private chunks: Buffer[] = [];
  private size = 0;
  private parser?: SseDataParser;
  // Events in the order sent, also when a large one is parsed on the worker thread.
  private deliveries?: OrderedDelivery;
  private answered = false;
  private drainTimer?: NodeJS.Timeout;

  constructor(
    private readonly id: RequestId,
    private readonly options: RpcPostOptions,
    private readonly maxMessageBytes: number,
    settle: (error: unknown, answer?: RpcMessage) => void,
  ) {
    super(settle);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: Record<string, string | string[] | undefined>, statusText?: string): void {
    this.status = status;
    this.statusText = statusText;
    if (status < 200 || status >= 300) {
      this.mode = 'status';
      return;
    }
    const contentType = firstHeaderValue(headers['content-type']);
    const type = mediaType(contentType);
    if (type === 'text/event-stream') {
      this.mode = 'events';
      this.parser = new SseDataParser(this.maxMessageBytes);
      this.deliveries = new OrderedDelivery();
    } else if (type === 'application/json') {
      this.mode = 'json';
      const announced = Number(firstHeaderValue(headers['content-length']) ?? Number.NaN);
      if (announced > this.maxMessageBytes) this.overflow();
    } else {
      this.cancel(new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, `Unexpected content type: ${String(contentType)}`));
    }
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    switch (this.mode) {
      case 'json':
        this.size += chunk.length;
        if (this.size > this.maxMessageBytes) return this.overflow();
        this.chunks.push(chunk);
        return;
      case 'status':
        if (this.size >= ERROR_BODY_LIMIT) return;
        this.chunks.push(chunk);
        this.size += chunk.length;
        return;
      case 'events':
        return this.readEvents(chunk);
      default:
        return;
    }
  }

  onResponseEnd(): void {
    switch (this.mode) {
      case 'json':
        return this.readJson();
      case 'status':
        return this.failWithStatus(Buffer.concat(this.chunks).subarray(0, ERROR_BODY_LIMIT).toString('utf8'));
      case 'events':
        return this.afterEvents(() => this.streamEnded());
      default:
        return;
    }
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.mode !== 'events' || !this.deliveries) return this.finish(error);
    // An answer already taken off the stream (perhaps still being parsed) wins over the failure.
    this.afterEvents(() => this.finish(error));
  }

  private failWithStatus(text: string): void {
    const status = this.status;
    if (status === 400 && this.options.errorBodyIsAnswer) {
      const answer = parseMessage(text);
      if (answer && answer.id === this.id && 'error' in answer) return this.finish(undefined, answer);
    }
    this.finish(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, { status, statusText: this.statusText, text }));
  }

  private readJson(): void {
    if (this.size > this.maxMessageBytes) return;
    const body = Buffer.concat(this.chunks, this.size);
    this.chunks = [];
    const invalid = (error: unknown) => this.finish(new SdkError(SdkErrorCode.InvalidResult, `the server answered with invalid JSON: ${(error as Error).message}`));
    const deliverAll = (parsed: unknown) => {
      for (const message of Array.isArray(parsed) ? parsed : [parsed]) this.deliver(message);
      this.streamEnded();
    };
    if (body.length >= OFF_THREAD_MIN_BYTES && largeMessagesOffThread()) {
      parseLargeMessage(body).then(deliverAll, invalid);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch (error) {
      return invalid(error);
    }
    deliverAll(parsed);
  }

  private readEvents(chunk: Buffer): void {
    const deliveries = this.deliveries!;
    const events = this.parser!.push(chunk);
    if (events === 'overflow') return this.overflow();
    const offThread = largeMessagesOffThread();
    for (const data of events) {
      // An unparseable event is skipped, as the SDK transport does.
      if (offThread && data.length >= OFF_THREAD_MIN_BYTES / 2) {
        const bytes = Buffer.from(data, 'utf8');
        if (bytes.length >= OFF_THREAD_MIN_BYTES) {
          deliveries.later(parseLargeMessage(bytes), (message) => this.handleEvent(message), () => undefined);
          continue;
        }
      }
      deliveries.now(() => this.handleEvent(parseMessage(data)));
    }
  }

  private handleEvent(message: unknown): void {
    if (isRecord(message) && this.deliver(message) && !this.answered) {
      this.answered = true;
      // The server should end the stream now; one that does not loses its connection.
      this.drainTimer = setTimeout(() => this.abort(new Error('the server kept the answered stream open')), DRAIN_GRACE_MS).unref();
    }
  }

  /** Runs `then` once every event taken off the stream was handled (some may be parsed on the worker thread). */
  private afterEvents(then: () => void): void {
    void this.deliveries!.drained().then(() => {
      if (this.drainTimer) clearTimeout(this.drainTimer);
      then();
    });
  }

  /** Hands a message to its reader; true when it was the answer. */
  private deliver(message: unknown): boolean {
    if (!isRecord(message)) return false;
    if (message.id === this.id && !('method' in message) && ('result' in message || 'error' in message)) {
      this.finish(undefined, message);
      return true;
    }
    try {
      this.options.onMessage?.(message);
    } catch {
      // a failing listener must not fail the request
    }
    return false;
  }

  private streamEnded(): void {
    if (this.settled) return;
    this.finish(new ProtocolError(INTERNAL_ERROR, 'the server ended the response stream without answering', { [STREAM_ENDED_MARK]: true }));
  }

  private overflow(): void {
    this.mode = 'ignore';
    this.chunks = [];
    this.cancel(new UpstreamError('limit', `dropped a message from the server: larger than the ${formatBytes(this.maxMessageBytes)} limit`));
  }
}

function parseMessage(text: string): RpcMessage | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

function abortError(): Error {
  const error = new Error('the request was cancelled');
  error.name = 'AbortError';
  return error;
}
