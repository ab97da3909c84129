import {
  StreamableHTTPClientTransport,
  isJSONRPCNotification,
  isJSONRPCRequest,
  type FetchLike,
  type JSONRPCMessage,
  type StreamableHTTPClientTransportOptions,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { randomUUID } from 'node:crypto';
import type { SchemaLimits } from '../../shared/json-schema/schema-limits.js';
import { largeMessagesOffThread, OFF_THREAD_MIN_BYTES } from '../../shared/off-thread/large-message.js';
import { formatBytes } from '../stdio/stdio-errors.js';
import { isEventStream, reworkLargeMessages } from './large-message-rework.js';

export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** `data` key of the JSON-RPC error synthesized when a request's response stream ended without an answer. */
export const STREAM_ENDED_MARK = 'io.toolplane/responseStreamEnded';

/** Correlates a POST with the request it carries; removed again before the request leaves the process. */
const EXCHANGE_HEADER = 'x-toolplane-exchange';
const INTERNAL_ERROR = -32603;

type RequestId = string | number;

export interface RequestScopedHttpTransportOptions extends StreamableHTTPClientTransportOptions {
  /** Longest accepted message on a response (a JSON body, or one SSE event), in bytes (default 4 MiB). */
  maxMessageBytes?: number;
  /** Oversized schemas in a large `tools/list` result are trimmed on the worker thread (see reworkLargeMessages). */
  schemaLimits?: SchemaLimits;
}

/**
 * Streamable HTTP client transport that scopes every request to its own POST and response stream:
 *
 * - cancelling a request closes its response stream on every protocol era (the SDK does that itself
 *   only on 2026-07-28 connections; on 2025-era ones it just POSTs `notifications/cancelled`);
 * - a response stream that ends without answering fails its request at once instead of leaving it
 *   to its timeout (a JSON-RPC error marked with {@link STREAM_ENDED_MARK});
 * - a response message larger than `maxMessageBytes` is never buffered: the stream is dropped and
 *   the request fails with a "dropped a … message" error, like an oversized stdio line.
 */
export class RequestScopedHttpTransport extends StreamableHTTPClientTransport {
  private readonly exchanges: ExchangeRegistry;

  constructor(url: URL, options: RequestScopedHttpTransportOptions = {}) {
    const { maxMessageBytes, schemaLimits, ...sdkOptions } = options;
    const baseFetch: FetchLike = sdkOptions.fetch ?? ((input, init) => fetch(input, init));
    const exchanges = new ExchangeRegistry(maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES, baseFetch, schemaLimits);
    super(url, { ...sdkOptions, fetch: exchanges.fetch });
    this.exchanges = exchanges;
    exchanges.deliver = (message) => this.onmessage?.(message);
  }

  /** Requests whose POST or response stream is still open (diagnostics and tests). */
  get openRequestCount(): number {
    return this.exchanges.size;
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const sent = super.send(message, options);
      this.exchanges.abort((message.params as { requestId?: RequestId } | undefined)?.requestId);
      return sent;
    }
    if (!isJSONRPCRequest(message) || options?.resumptionToken) return super.send(message, options);

    const exchange = this.exchanges.open(message.id, options?.requestSignal);
    try {
      await super.send(message, {
        ...options,
        requestSignal: exchange.signal,
        headers: { ...options?.headers, [EXCHANGE_HEADER]: exchange.token },
        onRequestStreamEnd: () => {
          options?.onRequestStreamEnd?.();
          exchange.streamEnded();
        },
      });
    } catch (error) {
      exchange.close();
      throw error;
    }
  }

  override async close(): Promise<void> {
    this.exchanges.abortAll();
    await super.close();
  }
}

class Exchange {
  readonly token = randomUUID();
  private readonly controller = new AbortController();
  private detachParent?: () => void;
  private closed = false;

  constructor(
    readonly id: RequestId,
    private readonly registry: ExchangeRegistry,
    parent: AbortSignal | undefined,
  ) {
    if (parent?.aborted) this.controller.abort(parent.reason);
    else if (parent) {
      const onAbort = () => this.controller.abort(parent.reason);
      parent.addEventListener('abort', onAbort, { once: true });
      this.detachParent = () => parent.removeEventListener('abort', onAbort);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(reason?: unknown): void {
    this.controller.abort(reason);
    this.close();
  }

  /** The response stream ended (not by our abort); answers the request if the server did not. */
  streamEnded(): void {
    this.close();
    // A request the server already answered is no longer pending, so the client ignores this.
    this.registry.deliver?.({
      jsonrpc: '2.0',
      id: this.id,
      error: {
        code: INTERNAL_ERROR,
        message: 'the server ended the response stream without answering',
        data: { [STREAM_ENDED_MARK]: true },
      },
    });
  }

  overflowed(limit: number): void {
    // Fail the request first, then abort: the SDK treats the resulting stream error as deliberate.
    this.registry.deliver?.({
      jsonrpc: '2.0',
      id: this.id,
      error: { code: INTERNAL_ERROR, message: `dropped a message from the server: larger than the ${formatBytes(limit)} limit` },
    });
    this.abort(new Error('response message too large'));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.detachParent?.();
    this.registry.forget(this);
  }
}

class ExchangeRegistry {
  deliver?: (message: JSONRPCMessage) => void;
  private readonly byToken = new Map<string, Exchange>();

  constructor(
    private readonly maxMessageBytes: number,
    private readonly baseFetch: FetchLike,
    private readonly schemaLimits?: SchemaLimits,
  ) {}

  get size(): number {
    return this.byToken.size;
  }

  open(id: RequestId, parent: AbortSignal | undefined): Exchange {
    const exchange = new Exchange(id, this, parent);
    this.byToken.set(exchange.token, exchange);
    return exchange;
  }

  forget(exchange: Exchange): void {
    this.byToken.delete(exchange.token);
  }

  abort(id: RequestId | undefined): void {
    if (id === undefined) return;
    for (const exchange of [...this.byToken.values()]) {
      if (exchange.id === id) exchange.abort(new Error('request cancelled'));
    }
  }

  abortAll(): void {
    for (const exchange of [...this.byToken.values()]) exchange.abort(new Error('transport closed'));
  }

  readonly fetch: FetchLike = async (url, init) => {
    const headers = new Headers(init?.headers);
    const token = headers.get(EXCHANGE_HEADER);
    if (token === null) return this.baseFetch(url, init);
    headers.delete(EXCHANGE_HEADER);
    const exchange = this.byToken.get(token);
    let response: Response;
    try {
      response = await this.baseFetch(url, { ...init, headers });
    } catch (error) {
      exchange?.close();
      throw error;
    }
    if (!exchange) return response;
    if (!response.ok || response.body === null) {
      exchange.close();
      return response;
    }
    const sse = isEventStream(response);
    const length = Number(response.headers.get('content-length') ?? Number.NaN);
    const offThread = largeMessagesOffThread();
    if (!sse && length <= this.maxMessageBytes && (!offThread || length < OFF_THREAD_MIN_BYTES)) {
      // A small JSON body of announced size (fetch enforces it): nothing to watch, and the SDK reads it at once.
      exchange.close();
      return response;
    }
    const metered = meteredBody(response.body, new MessageMeter(this.maxMessageBytes, sse), {
      onEnd: () => exchange.close(),
      onOverflow: () => exchange.overflowed(this.maxMessageBytes),
    });
    const body = offThread ? reworkLargeMessages(metered, sse, this.schemaLimits) : metered;
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * Counts the bytes of the message being received: the whole body for JSON, the current event for
 * SSE (an event ends at a blank line).
 */
export class MessageMeter {
  private size = 0;
  /** Since the last LF only CR bytes arrived: the next LF ends an event. */
  private afterLineFeed = false;

  constructor(
    private readonly limit: number,
    private readonly sse: boolean,
  ) {}

  /** Adds a chunk; true once the current message exceeds the limit. */
  add(chunk: Uint8Array): boolean {
    if (!this.sse) {
      this.size += chunk.length;
      return this.size > this.limit;
    }
    let eventEnd = -1;
    let scanFrom = 0;
    for (let lf = chunk.indexOf(0x0a); lf !== -1; lf = chunk.indexOf(0x0a, scanFrom)) {
      if (this.afterLineFeed && onlyCarriageReturns(chunk, scanFrom, lf)) eventEnd = lf + 1;
      this.afterLineFeed = true;
      scanFrom = lf + 1;
    }
    if (!onlyCarriageReturns(chunk, scanFrom, chunk.length)) this.afterLineFeed = false;
    this.size = eventEnd === -1 ? this.size + chunk.length : chunk.length - eventEnd;
    return this.size > this.limit;
  }
}

function onlyCarriageReturns(chunk: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (chunk[i] !== 0x0d) return false;
  return true;
}

function meteredBody(
  source: ReadableStream<Uint8Array>,
  meter: MessageMeter,
  hooks: { onEnd: () => void; onOverflow: () => void },
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let result: Awaited<ReturnType<typeof reader.read>>;
      try {
        result = await reader.read();
      } catch (error) {
        hooks.onEnd();
        controller.error(error);
        return;
      }
      if (result.done) {
        hooks.onEnd();
        controller.close();
        return;
      }
      if (meter.add(result.value)) {
        hooks.onOverflow();
        void reader.cancel().catch(() => undefined);
        controller.error(new Error('response message too large'));
        return;
      }
      controller.enqueue(result.value);
    },
    cancel(reason) {
      hooks.onEnd();
      return reader.cancel(reason);
    },
  });
}
