import type { StreamableFile } from '@nestjs/common';
import { ServerSentEvents } from '../../../shared/http/server-sent-events.js';
import type { ProgressUpdate } from '../domain/tool-invoker.port.js';

/**
 * A REST invoke's answer as Server-Sent Events, for a caller that accepts `text/event-stream`:
 * opened only when the upstream reports progress (a call that reports none is answered as usual,
 * with its own status code), then one `progress` event per update and one `result` event
 * carrying the status code and body the plain answer would have had.
 */
export class ProgressEventStream {
  private events?: ServerSentEvents;
  private announce!: () => void;
  /** Settles when the first progress opens the stream. */
  readonly opened = new Promise<void>((resolve) => (this.announce = resolve));

  progress(update: ProgressUpdate): void {
    if (!this.events) {
      this.events = new ServerSentEvents();
      this.announce();
    }
    this.events.send('progress', progressData(update));
  }

  /** The body to hand to Nest once opened. */
  body(): StreamableFile {
    return this.events!.body();
  }

  /** The last event: the status and body of the plain answer (or of the error, when the call failed outside its record). */
  finish(status: number, body: unknown): void {
    this.events?.send('result', { status, body });
    this.close();
  }

  close(): void {
    this.events?.end();
  }
}

/** A progress update as an event carries it: the fields the upstream gave. */
export function progressData({ progress, total, message }: ProgressUpdate): { progress: number; total?: number; message?: string } {
  return { progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) };
}

/** Whether an Accept header lists `text/event-stream` (with a non-zero weight). */
export function acceptsEventStream(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    return type === 'text/event-stream' && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}
