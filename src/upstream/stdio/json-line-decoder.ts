export interface OversizedLine {
  /** Size of the dropped line in bytes (without the newline). */
  bytes: number;
  /** The first and last bytes of the dropped line, kept to identify the message. */
  head: string;
  tail: string;
}

const SAMPLE_BYTES = 256;

/**
 * Splits a byte stream into newline-terminated lines without ever holding more than
 * `maxLineBytes` of one line: a longer line is dropped (reported with a small sample) and
 * the decoder resynchronises at the next newline.
 */
export class JsonLineDecoder {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropping?: { bytes: number; head: Buffer; tail: Buffer };

  /**
   * @param large lines of at least `minBytes` go to `onLine` as their raw bytes (a Buffer owning its
   *   memory), not decoded: whoever parses them may do so elsewhere.
   */
  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversized: (line: OversizedLine) => void,
    private readonly large?: { minBytes: number; onLine: (bytes: Buffer) => void },
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline === -1) {
        this.append(chunk.subarray(start));
        return;
      }
      if (this.size === 0 && !this.dropping && newline - start <= this.maxLineBytes && !(this.large && newline - start >= this.large.minBytes)) {
        // The whole line is in this chunk (the common case): decoded from it, neither held nor copied.
        this.emit(chunk.toString('utf8', start, newline));
      } else {
        if (newline > start) this.append(chunk.subarray(start, newline));
        this.finishLine();
      }
      start = newline + 1;
    }
  }

  /** The first bytes of the line not finished yet (empty when none), e.g. a prompt a process waits on. */
  pendingHead(count: number): string {
    if (this.dropping) return this.dropping.head.subarray(0, count).toString('utf8');
    return this.size === 0 ? '' : firstBytes(this.chunks, count).toString('utf8');
  }

  /** Flushes a final line that was not newline-terminated. */
  end(): void {
    if (this.size > 0 || this.dropping) this.finishLine();
  }

  private append(piece: Buffer): void {
    if (this.dropping) {
      this.dropping.bytes += piece.length;
      this.dropping.tail = appendTail(this.dropping.tail, piece);
      return;
    }
    if (this.size + piece.length <= this.maxLineBytes) {
      this.chunks.push(piece);
      this.size += piece.length;
      return;
    }
    // Samples only: never copy the whole held line just to report it.
    let tail: Buffer = Buffer.alloc(0);
    for (const chunk of [...this.chunks, piece]) tail = appendTail(tail, chunk);
    this.dropping = { bytes: this.size + piece.length, head: firstBytes([...this.chunks, piece], SAMPLE_BYTES), tail };
    this.chunks = [];
    this.size = 0;
  }

  private finishLine(): void {
    const dropped = this.dropping;
    if (dropped) {
      this.dropping = undefined;
      this.onOversized({ bytes: dropped.bytes, head: dropped.head.toString('utf8'), tail: dropped.tail.toString('utf8') });
      return;
    }
    const bytes = Buffer.concat(this.chunks, this.size);
    this.chunks = [];
    this.size = 0;
    if (this.large && bytes.length >= this.large.minBytes) {
      this.large.onLine(bytes);
      return;
    }
    this.emit(bytes.toString('utf8'));
  }

  /** A line without its newline: without a trailing CR, and not at all when it is blank. */
  private emit(line: string): void {
    const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (trimmed.trim().length > 0) this.onLine(trimmed);
  }
}

function lastBytes(buffer: Buffer, count: number): Buffer {
  return Buffer.from(buffer.length > count ? buffer.subarray(buffer.length - count) : buffer);
}

/** The last SAMPLE_BYTES of `tail` followed by `piece`, copying at most that much. */
function appendTail(tail: Buffer, piece: Buffer): Buffer {
  if (piece.length >= SAMPLE_BYTES) return lastBytes(piece, SAMPLE_BYTES);
  return lastBytes(Buffer.concat([tail.subarray(Math.max(0, tail.length - (SAMPLE_BYTES - piece.length))), piece]), SAMPLE_BYTES);
}

function firstBytes(chunks: readonly Buffer[], count: number): Buffer {
  const taken: Buffer[] = [];
  let size = 0;
  for (const chunk of chunks) {
    if (size >= count) break;
    const part = chunk.subarray(0, count - size);
    taken.push(part);
    size += part.length;
  }
  return Buffer.from(Buffer.concat(taken, size));
}
