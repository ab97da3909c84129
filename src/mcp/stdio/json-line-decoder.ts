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

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversized: (line: OversizedLine) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      if (end > start) this.append(chunk.subarray(start, end));
      if (newline === -1) return;
      this.finishLine();
      start = newline + 1;
    }
  }

  /** Flushes a final line that was not newline-terminated. */
  end(): void {
    if (this.size > 0 || this.dropping) this.finishLine();
  }

  private append(piece: Buffer): void {
    if (this.dropping) {
      this.dropping.bytes += piece.length;
      this.dropping.tail = lastBytes(Buffer.concat([this.dropping.tail, piece]), SAMPLE_BYTES);
      return;
    }
    if (this.size + piece.length <= this.maxLineBytes) {
      this.chunks.push(piece);
      this.size += piece.length;
      return;
    }
    const held = Buffer.concat([...this.chunks, piece]);
    this.dropping = {
      bytes: held.length,
      head: Buffer.from(held.subarray(0, SAMPLE_BYTES)),
      tail: lastBytes(held, SAMPLE_BYTES),
    };
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
    const line = Buffer.concat(this.chunks, this.size).toString('utf8');
    this.chunks = [];
    this.size = 0;
    const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (trimmed.trim().length > 0) this.onLine(trimmed);
  }
}

function lastBytes(buffer: Buffer, count: number): Buffer {
  return Buffer.from(buffer.length > count ? buffer.subarray(buffer.length - count) : buffer);
}
