import { StreamableFile } from '@nestjs/common';
import { PassThrough } from 'node:stream';
import type { ProgressUpdate } from '../domain/tool-invoker.port.js';

/** How often a waiting caller hears something when the upstream sends nothing (proxies close quiet streams). */
const KEEP_ALIVE_MS = 15_000;

/**
 * A REST invoke's answer as Server-Sent Events, for a caller that accepts `text/event-stream`:
 * opened only when the upstream reports progress (a call that reports none is answered as usual,
 * with its own status code), then one `progress` event per update and one `result` event
 * carrying the status code and body the plain answer would have had.
 */
export class ProgressEventStream {
  private stream?: PassThrough;
  private keepAlive?: NodeJS.Timeout;
  private announce!: () => void;
  /** Settles when the first progress opens the stream. */
  readonly opened = new Promise<void>((resolve) => (this.announce = resolve));

  progress(update: ProgressUpdate): void {
    if (!this.stream) {
      this.stream = new PassThrough();
      this.keepAlive = setInterval(() => this.stream?.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      this.keepAlive.unref();
      this.announce();
    }
    const { progress, total, message } = update;
    this.write('progress', { progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) });
  }

  /** The body to hand to Nest once opened. */
  body(): StreamableFile {
    return new StreamableFile(this.stream!, { type: 'text/event-stream; charset=utf-8' });
  }

  /** The last event: the status and body of the plain answer (or of the error, when the call failed outside its record). */
  finish(status: number, body: unknown): void {
    this.write('result', { status, body });
    this.close();
  }

  close(): void {
    clearInterval(this.keepAlive);
    this.stream?.end();
  }

  private write(event: string, data: unknown): void {
    if (this.stream && !this.stream.writableEnded) this.stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }
}

/** Whether an Accept header lists `text/event-stream` (with a non-zero weight). */
export function acceptsEventStream(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    return type === 'text/event-stream' && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}
