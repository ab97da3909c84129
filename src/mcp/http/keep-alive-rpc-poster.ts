import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { largeMessagesOffThread, OFF_THREAD_MIN_BYTES, parseLargeMessage } from '../../shared/off-thread/large-message.js';
import { OrderedDelivery } from '../../shared/off-thread/ordered-delivery.js';
import { formatBytes } from '../stdio/stdio-errors.js';
import { UpstreamError } from '../upstream-error.js';
import { STREAM_ENDED_MARK } from './request-scoped-http-transport.js';
import { SseDataParser } from './sse-data-parser.js';
import { isRecord } from '../../shared/is-record.js';
import type { HostPolicy } from '../../shared/host-policy.js';
import type { CallerSignal } from '../../shared/caller-signal.js';
import { guardedLookup, HostDeniedError } from './guarded-network.js';

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
 * (node:http, not fetch: no web streams, a fraction of the CPU per request), reading a JSON or an
 * SSE response. Messages are bounded like the SDK transport's: a JSON body or one SSE event larger
 * than `maxMessageBytes` fails the request (kind `limit`) without being buffered. Failures are the
 * errors the SDK transport throws for the same cases, so they are described the same way.
 */
export class KeepAliveRpcPoster {
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;
  /** Why the policy refuses the endpoint's host as written (a name or a literal address): the same for every call. */
  private readonly refusal: string | undefined;
  /** The request options every POST shares (the URL taken apart once, not per request). */
  private readonly target: http.RequestOptions;

  constructor(
    url: URL,
    private readonly configuredHeaders: Readonly<Record<string, string>>,
    private readonly maxMessageBytes: number,
    hostPolicy?: HostPolicy,
  ) {
    const secure = url.protocol === 'https:';
    // A name is checked at connect time; sockets skip the lookup for a literal address, checked once here.
    const options = { keepAlive: true, ...(hostPolicy ? { lookup: guardedLookup(hostPolicy) as never } : {}) };
    this.agent = secure ? new https.Agent(options) : new http.Agent(options);
    this.request = secure ? https.request : http.request;
    this.refusal = hostPolicy?.refusesHost(url.hostname);
    this.target = { ...urlToHttpOptions(url), method: 'POST', agent: this.agent };
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
      let settled = false;
      const finish = (error: unknown, answer?: RpcMessage) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        if (error === undefined) resolve(answer as RpcMessage);
        else reject(error);
      };
      const req = this.post(body, options.headers);
      // Closing the request's stream is how a 2026-07-28 server learns of the cancellation.
      const onAbort = () => {
        req.destroy();
        finish(abortError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      req.on('error', (error) => finish(error));
      req.on('response', (response) => {
        const reading = new ResponseReading(id, response, options, this.maxMessageBytes, finish, () => req.destroy());
        reading.start();
      });
    });
  }

  /** POSTs a notification or a response to a server request; resolves once the server took it. */
  send(body: string, headers: Record<string, string>, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const req = this.post(body, headers);
      const onAbort = () => req.destroy(abortError());
      signal.addEventListener('abort', onAbort, { once: true });
      req.on('error', (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      });
      req.on('response', (response) => {
        response.resume();
        response.on('end', () => {
          signal.removeEventListener('abort', onAbort);
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else reject(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `HTTP ${status}`, { status, statusText: response.statusMessage }));
        });
      });
    });
  }

  /** Closes every pooled connection. */
  close(): void {
    this.agent.destroy();
  }

  private post(body: string, headers: Record<string, string>): http.ClientRequest {
    const all: Record<string, string | number> = Object.assign({}, this.configuredHeaders, headers);
    all['content-type'] = 'application/json';
    all.accept = 'application/json, text/event-stream';
    all['content-length'] = Buffer.byteLength(body);
    const req = this.request({ ...this.target, headers: all });
    req.end(body);
    return req;
  }
}

/** Reads one POST's response down to the answer of its request. */
class ResponseReading {
  private settled = false;

  constructor(
    private readonly id: RequestId,
    private readonly response: IncomingMessage,
    private readonly options: RpcPostOptions,
    private readonly maxMessageBytes: number,
    private readonly settle: (error: unknown, answer?: RpcMessage) => void,
    private readonly destroy: () => void,
  ) {}

  private finish(error: unknown, answer?: RpcMessage): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(error, answer);
  }

  start(): void {
    const { response } = this;
    const status = response.statusCode ?? 0;
    response.on('error', (error) => this.finish(error));
    if (status < 200 || status >= 300) {
      this.failWithStatus(status);
      return;
    }
    const type = mediaType(response.headers['content-type']);
    if (type === 'text/event-stream') this.readEvents();
    else if (type === 'application/json') this.readJson();
    else {
      this.destroy();
      this.finish(new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, `Unexpected content type: ${String(response.headers['content-type'])}`));
    }
  }

  private failWithStatus(status: number): void {
    readBounded(this.response, ERROR_BODY_LIMIT, (text) => {
      if (status === 400 && this.options.errorBodyIsAnswer) {
        const answer = parseMessage(text);
        if (answer && answer.id === this.id && 'error' in answer) return this.finish(undefined, answer);
      }
      this.finish(
        new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, {
          status,
          statusText: this.response.statusMessage,
          text,
        }),
      );
    });
  }

  private readJson(): void {
    const announced = Number(this.response.headers['content-length'] ?? Number.NaN);
    if (announced > this.maxMessageBytes) return this.overflow();
    const chunks: Buffer[] = [];
    let size = 0;
    this.response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > this.maxMessageBytes) return this.overflow();
      chunks.push(chunk);
    });
    this.response.on('end', () => {
      if (size > this.maxMessageBytes) return;
      const body = Buffer.concat(chunks, size);
      const invalid = (error: unknown) => this.finish(new SdkError(SdkErrorCode.InvalidResult, `the server answered with invalid JSON: ${(error as Error).message}`));
      const deliverAll = (parsed: unknown) => {
        for (const message of Array.isArray(parsed) ? parsed : [parsed]) this.deliver(message);
        this.streamEnded();
      };
      if (size >= OFF_THREAD_MIN_BYTES && largeMessagesOffThread()) {
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
    });
  }

  private readEvents(): void {
    const parser = new SseDataParser(this.maxMessageBytes);
    // Events in the order sent, also when a large one is parsed on the worker thread.
    const deliveries = new OrderedDelivery();
    const offThread = largeMessagesOffThread();
    let answered = false;
    let drainTimer: NodeJS.Timeout | undefined;
    const handle = (message: unknown) => {
      if (isRecord(message) && this.deliver(message) && !answered) {
        answered = true;
        // The server should end the stream now; one that does not loses its connection.
        drainTimer = setTimeout(() => this.destroy(), DRAIN_GRACE_MS).unref();
      }
    };
    this.response.on('data', (chunk: Buffer) => {
      const events = parser.push(chunk);
      if (events === 'overflow') return this.overflow();
      for (const data of events) {
        // An unparseable event is skipped, as the SDK transport does.
        if (offThread && data.length >= OFF_THREAD_MIN_BYTES / 2) {
          const bytes = Buffer.from(data, 'utf8');
          if (bytes.length >= OFF_THREAD_MIN_BYTES) {
            deliveries.later(parseLargeMessage(bytes), handle, () => undefined);
            continue;
          }
        }
        deliveries.now(() => handle(parseMessage(data)));
      }
    });
    const ended = () => {
      void deliveries.drained().then(() => {
        if (drainTimer) clearTimeout(drainTimer);
        this.streamEnded();
      });
    };
    this.response.on('end', ended);
    this.response.on('close', ended);
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
    this.destroy();
    this.finish(new UpstreamError('limit', `dropped a message from the server: larger than the ${formatBytes(this.maxMessageBytes)} limit`));
  }
}

function readBounded(response: IncomingMessage, limit: number, done: (text: string) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  response.on('data', (chunk: Buffer) => {
    if (size >= limit) return;
    chunks.push(chunk);
    size += chunk.length;
  });
  response.on('end', () => done(Buffer.concat(chunks).subarray(0, limit).toString('utf8')));
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
