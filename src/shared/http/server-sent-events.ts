import { StreamableFile } from '@nestjs/common';
import { PassThrough } from 'node:stream';

/** How often a waiting client hears something when nothing happens (proxies close quiet streams). */
export const KEEP_ALIVE_MS = 15_000;

/**
 * An answer as Server-Sent Events: named events with JSON data, a keep-alive comment while nothing
 * is said, ended once. Handed to Nest as a StreamableFile.
 */
export class ServerSentEvents {
  private readonly stream = new PassThrough();
  private readonly keepAlive: NodeJS.Timeout;

  constructor(keepAliveMs = KEEP_ALIVE_MS) {
    this.keepAlive = setInterval(() => this.write(': keep-alive\n\n'), keepAliveMs);
    this.keepAlive.unref();
  }

  get ended(): boolean {
    return this.stream.writableEnded;
  }

  send(event: string, data: unknown): void {
    this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    clearInterval(this.keepAlive);
    if (!this.stream.writableEnded) this.stream.end();
  }

  body(): StreamableFile {
    return new StreamableFile(this.stream, { type: 'text/event-stream; charset=utf-8' });
  }

  private write(text: string): void {
    if (!this.stream.writableEnded) this.stream.write(text);
  }
}
