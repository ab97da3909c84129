/** Longest stderr line passed on; the rest of a longer line is cut. */
export const MAX_STDERR_LINE_CHARS = 2000;

/**
 * Splits a process's stderr into lines (a line cut at {@link MAX_STDERR_LINE_CHARS}; the carry of
 * an unfinished line bounded the same way), each passed on through `scrub`, so a secret split
 * across two chunks is still one line when it is scrubbed.
 */
export class StderrLines {
  private carry = '';
  private carryCut = false;

  constructor(
    private readonly scrub: (text: string) => string,
    private readonly emit: (line: string) => void,
  ) {}

  push(chunk: string): void {
    const parts = (this.carry + chunk).split('\n');
    this.carry = parts.pop() ?? '';
    for (const part of parts) this.line(part);
    if (this.carry.length > MAX_STDERR_LINE_CHARS) {
      if (!this.carryCut) this.line(this.carry);
      this.carryCut = true;
      this.carry = '';
    }
  }

  /** Passes on what is left of an unfinished line (the process ended). */
  end(): void {
    if (this.carry) this.line(this.carry);
    this.carry = '';
  }

  private line(text: string): void {
    const wasCut = this.carryCut;
    this.carryCut = false;
    if (wasCut && text === '') return;
    const trimmed = text.replace(/\r$/, '');
    this.emit(this.scrub(trimmed.length > MAX_STDERR_LINE_CHARS ? `${trimmed.slice(0, MAX_STDERR_LINE_CHARS)}… (line cut)` : trimmed));
  }
}

/**
 * At most `perSecond` lines per key each second; the count of lines held back is reported with
 * the next line let through (or by `flush`), so a plugin cannot flood the log.
 */
export class StderrRateLimit {
  private readonly windows = new Map<string, { start: number; count: number; dropped: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the line may be logged, and how many before it were dropped since the last one logged. */
  admit(key: string): { admitted: boolean; dropped: number } {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= 1000) {
      const dropped = window?.dropped ?? 0;
      window = { start: now, count: 0, dropped: 0 };
      this.windows.set(key, window);
      window.count++;
      if (this.windows.size > 10_000) this.windows.delete(this.windows.keys().next().value!);
      return { admitted: true, dropped };
    }
    if (window.count >= this.perSecond) {
      window.dropped++;
      return { admitted: false, dropped: 0 };
    }
    window.count++;
    return { admitted: true, dropped: 0 };
  }
}
