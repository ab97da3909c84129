import type { ServerResponse } from 'node:http';

const EVENT_STREAM_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' } as const;

/**
 * The answer to one JSON-RPC request written straight onto the HTTP response: a plain JSON body,
 * unless notifications come first — then an SSE stream that carries them, in order, and the
 * answer last (what Streamable HTTP lets a server choose per request when the client accepts
 * both). Nothing is written once the client has gone.
 */
export class LazyAnswerStream {
  private streaming = false;

  constructor(
    private readonly response: ServerResponse,
    /** Told the answer as it is written (for the request's span and metrics). */
    private readonly onAnswer?: (message: unknown) => void,
  ) {}

  notify(message: unknown): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (!this.streaming) {
      this.response.writeHead(200, EVENT_STREAM_HEADERS);
      this.streaming = true;
    }
    this.response.write(event(message));
    return Promise.resolve();
  }

  /** Ends the exchange with `message` (as JSON with `status`, or as the stream's last event). */
  answer(message: unknown, status = 200): void {
    if (this.closed) return;
    this.onAnswer?.(message);
    if (this.streaming) {
      this.response.end(event(message));
      return;
    }
    const body = JSON.stringify(message);
    this.response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    this.response.end(body);
  }

  /** Whether the answer was written, or the client went away. */
  get closed(): boolean {
    return this.response.destroyed || this.response.writableEnded;
  }
}

function event(message: unknown): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}
