import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * An AsyncLocalStorage that is switched off whenever no work holds it.
 *
 * While any AsyncLocalStorage is on, Node before 22's AsyncContextFrame runs a hook on every
 * promise created anywhere in the process (to copy the store along): a few percent of the CPU of
 * a tool call that never reads it. So a store is held only while the work that set it runs: `run`
 * holds it until the `release` it answers is called; once the last holder released it, it is
 * switched off after `idleMs` (what the work left behind, such as a log line written just after
 * its answer, still reads it in that time) and switched on again by the next `run`.
 */
export class HeldStorage<T> {
  private readonly storage = new AsyncLocalStorage<T>();
  private holders = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly idleMs: number) {}

  /** Runs `work` with `store` readable by everything it goes on to do, until `release` is called (idempotent). */
  run<R>(store: T, work: () => R): { value: R; release: () => void } {
    this.holders++;
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = undefined;
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.holders--;
      if (this.holders === 0) this.switchOffSoon();
    };
    try {
      return { value: this.storage.run(store, work), release };
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Runs `work` with `store`, held until the promise it answers settles. */
  async runAsync<R>(store: T, work: () => Promise<R>): Promise<R> {
    const { value, release } = this.run(store, work);
    try {
      return await value;
    } finally {
      release();
    }
  }

  getStore(): T | undefined {
    return this.storage.getStore();
  }

  /** Whether the storage is on (for tests). */
  get holding(): boolean {
    return this.holders > 0 || this.idleTimer !== undefined;
  }

  private switchOffSoon(): void {
    if (this.idleMs <= 0) {
      this.storage.disable();
      return;
    }
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.holders === 0) this.storage.disable();
    }, this.idleMs);
    this.idleTimer.unref();
  }
}
