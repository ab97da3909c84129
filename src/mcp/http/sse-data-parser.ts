const LF = 0x0a;
const CR = 0x0d;

/**
 * Incremental parser of a `text/event-stream` body down to each event's `data` (the only field an
 * MCP client needs: event ids only serve resumption, which a single tool call does not use).
 *
 * Works on bytes (CR and LF never occur inside a UTF-8 sequence), scans each byte once and keeps
 * an unfinished line as the chunks it arrived in. Bounded: an event whose size (all its lines, as
 * received) exceeds `maxEventBytes` is reported by {@link push} and never buffered past the limit.
 */
export class SseDataParser {
  private lineParts: Uint8Array[] = [];
  private lineBytes = 0;
  private data: string[] = [];
  private eventBytes = 0;
  /** The previous line ended with CR: an LF right after it belongs to the same line end. */
  private skipLineFeed = false;
  private readonly decoder = new TextDecoder();

  constructor(private readonly maxEventBytes: number) {}

  /** Feeds a chunk; returns the data of every event it completed, or 'overflow' when one grew too large. */
  push(chunk: Uint8Array): string[] | 'overflow' {
    const events: string[] = [];
    let start = 0;
    if (this.skipLineFeed && chunk.length > 0) {
      if (chunk[0] === LF) start = 1;
      this.skipLineFeed = false;
    }
    for (let i = start; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte !== LF && byte !== CR) continue;
      this.lineParts.push(chunk.subarray(start, i));
      this.lineBytes += i - start;
      if (this.endLine(events) === 'overflow') return 'overflow';
      if (byte === CR) {
        if (i + 1 === chunk.length) this.skipLineFeed = true;
        else if (chunk[i + 1] === LF) i++;
      }
      start = i + 1;
    }
    if (start < chunk.length) {
      this.lineParts.push(chunk.subarray(start));
      this.lineBytes += chunk.length - start;
    }
    return this.eventBytes + this.lineBytes > this.maxEventBytes ? 'overflow' : events;
  }

  private endLine(events: string[]): 'overflow' | undefined {
    this.eventBytes += this.lineBytes + 1;
    if (this.eventBytes > this.maxEventBytes) return 'overflow';
    const line = this.lineParts.length === 1 ? this.lineParts[0]! : Buffer.concat(this.lineParts);
    this.lineParts = [];
    this.lineBytes = 0;
    if (line.length === 0) {
      if (this.data.length > 0) events.push(this.data.join('\n'));
      this.data = [];
      this.eventBytes = 0;
      return undefined;
    }
    const value = dataValue(line);
    if (value !== undefined) this.data.push(this.decoder.decode(value));
    return undefined;
  }
}

const DATA = [0x64, 0x61, 0x74, 0x61]; // "data"
const COLON = 0x3a;
const SPACE = 0x20;

/** The value bytes of a `data` line ("data", "data:", "data: x"), or undefined for another field. */
function dataValue(line: Uint8Array): Uint8Array | undefined {
  if (line.length < DATA.length || DATA.some((byte, i) => line[i] !== byte)) return undefined;
  if (line.length === DATA.length) return line.subarray(line.length);
  if (line[DATA.length] !== COLON) return undefined;
  return line.subarray(line[DATA.length + 1] === SPACE ? DATA.length + 2 : DATA.length + 1);
}
