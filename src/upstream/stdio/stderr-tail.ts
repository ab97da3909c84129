/** Keeps the last `capacity` bytes written to a child's stderr; older output is discarded. */
export class StderrTail {
  private readonly buffer: Buffer;
  private start = 0;
  private length = 0;
  private total = 0;

  constructor(readonly capacity = 16 * 1024) {
    this.buffer = Buffer.alloc(capacity);
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const data = chunk.length > this.capacity ? chunk.subarray(chunk.length - this.capacity) : chunk;
    for (let offset = 0; offset < data.length; ) {
      const writeAt = (this.start + this.length) % this.capacity;
      const count = Math.min(data.length - offset, this.capacity - writeAt);
      data.copy(this.buffer, writeAt, offset, offset + count);
      offset += count;
      const overflow = this.length + count - this.capacity;
      if (overflow > 0) {
        this.start = (this.start + overflow) % this.capacity;
        this.length = this.capacity;
      } else {
        this.length += count;
      }
    }
  }

  /** Bytes written since creation, including those no longer held. */
  get bytesSeen(): number {
    return this.total;
  }

  /** The held output as text (a multi-byte character cut at the front shows as U+FFFD). */
  text(): string {
    const end = this.start + this.length;
    const bytes =
      end <= this.capacity
        ? this.buffer.subarray(this.start, end)
        : Buffer.concat([this.buffer.subarray(this.start), this.buffer.subarray(0, end - this.capacity)]);
    return bytes.toString('utf8');
  }

  /** The last `maxChars` characters of the held output, trimmed, for error messages. */
  summary(maxChars = 2000): string {
    const text = this.text().trim();
    return text.length > maxChars ? `…${text.slice(text.length - maxChars)}` : text;
  }
}
