/**
 * Work done in passes in the background: one pass at start and one every interval, never two at
 * once (asking while one is under way answers that one), and none after `stop`, which lets the
 * pass under way finish. The work reads `stopping` to end a long pass early.
 */
export class BackgroundPass<T> {
  private timer?: NodeJS.Timeout;
  private running?: Promise<T>;
  private stopped = false;

  constructor(private readonly work: () => Promise<T>) {}

  get stopping(): boolean {
    return this.stopped;
  }

  /** The pass under way, or a new one. */
  run(): Promise<T> {
    this.running ??= this.work().finally(() => (this.running = undefined));
    return this.running;
  }

  /**
   * A pass every `intervalMs` (a timer that keeps no process alive), and one now unless `firstNow`
   * is false; `failed` hears of each that throws.
   */
  start(intervalMs: number, failed: (error: unknown) => void, firstNow = true): void {
    const tick = () => void this.run().catch(failed);
    if (firstNow) tick();
    this.timer = setInterval(tick, intervalMs);
    this.timer.unref();
  }

  /** Starts no other pass; `interrupt` then may cut short the waits of the one under way, which is waited for. */
  async stop(interrupt?: () => void): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    interrupt?.();
    await this.running?.catch(() => undefined);
  }
}
