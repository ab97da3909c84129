const LF = 0x0a;
const CR = 0x0d;

/**
 * Incremental parser of a `text/event-stream` body down to each event's `data` (the only field an
 * MCP client needs: event ids only serve resumption, which a single tool call does not use).
 *
 * Lines come from SseLineSplitter. Bounded: an event whose size (all its lines, as received)
 * exceeds `maxEventBytes` is reported by {@link push} and never buffered past the limit.
 */
export class SseDataParser {
  private readonly lines = new SseLineSplitter();
  private data: string[] = [];
  private eventBytes = 0;
  private readonly decoder = new TextDecoder();

  constructor(private readonly maxEventBytes: number) {}

  /** Feeds a chunk; returns the data of every event it completed, or 'overflow' when one grew too large. */
  push(chunk: Uint8Array): string[] | 'overflow' {
    const events: string[] = [];
    if (!this.lines.push(chunk, (line) => this.endLine(line, events))) return 'overflow';
    return this.eventBytes + this.lines.pendingBytes > this.maxEventBytes ? 'overflow' : events;
  }

  /** False once the event is over the limit. */
  private endLine(line: Uint8Array, events: string[]): boolean {
    this.eventBytes += line.length + 1;
    if (this.eventBytes > this.maxEventBytes) return false;
    if (line.length === 0) {
      if (this.data.length > 0) events.push(this.data.join('\n'));
      this.data = [];
      this.eventBytes = 0;
      return true;
    }
    const value = dataValue(line);
    if (value !== undefined) this.data.push(this.decoder.decode(value));
    return true;
  }
}

/**
 * Splits an event stream into lines: CR, LF and CRLF each end one, also when split across chunks.
 * Works on bytes (CR and LF never occur inside a UTF-8 sequence), scans each byte once and keeps
 * an unfinished line as the chunks it arrived in.
 */
export class SseLineSplitter {
  private parts: Uint8Array[] = [];
  private partBytes = 0;
  /** The previous line ended with CR: an LF right after it belongs to the same line end. */
  private skipLineFeed = false;

  /** Bytes of the line not ended yet. */
  get pendingBytes(): number {
    return this.partBytes;
  }

  /** Feeds a chunk: `onLine` gets each line it ends (without the line end); when it answers false, stops and answers false. */
  push(chunk: Uint8Array, onLine: (line: Uint8Array) => boolean): boolean {
    let start = 0;
    if (this.skipLineFeed && chunk.length > 0) {
      if (chunk[0] === LF) start = 1;
      this.skipLineFeed = false;
    }
    for (let i = start; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte !== LF && byte !== CR) continue;
      this.parts.push(chunk.subarray(start, i));
      const line = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
      this.parts = [];
      this.partBytes = 0;
      if (!onLine(line)) return false;
      if (byte === CR) {
        if (i + 1 === chunk.length) this.skipLineFeed = true;
        else if (chunk[i + 1] === LF) i++;
      }
      start = i + 1;
    }
    if (start < chunk.length) {
      this.parts.push(chunk.subarray(start));
      this.partBytes += chunk.length - start;
    }
    return true;
  }
}

const DATA = [0x64, 0x61, 0x74, 0x61]; // "data"
const COLON = 0x3a;
const SPACE = 0x20;

/** The value bytes of a `data` line ("data", "data:", "data: x"), or undefined for another field. */
export function dataValue(line: Uint8Array): Uint8Array | undefined {
  if (line.length < DATA.length || DATA.some((byte, i) => line[i] !== byte)) return undefined;
  if (line.length === DATA.length) return line.subarray(line.length);
  if (line[DATA.length] !== COLON) return undefined;
  return line.subarray(line[DATA.length + 1] === SPACE ? DATA.length + 2 : DATA.length + 1);
}
