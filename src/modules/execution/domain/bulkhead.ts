import type { CallerSignal } from '../../../shared/caller-signal.js';

export class BulkheadFull extends Error {
  constructor(readonly limit: number, readonly queued: number) {
    super(`the source already runs ${limit} calls and ${queued} more are waiting`);
  }
}

export class BulkheadWaitAborted extends Error {}

/**
 * Per-source concurrency limit: at most `limit` calls run at once; up to `queueLimit` more
 * wait in order; beyond that, calls are refused at once. A waiting call leaves the queue
 * when its signal aborts (its deadline passed, or its caller left).
 */
export class Bulkhead {
  private running = 0;
  private readonly waiting: { grant: () => void; fail: (error: Error) => void }[] = [];

  constructor(
    private limit: number,
    private queueLimit: number,
  ) {}

  resize(limit: number, queueLimit: number): void {
    this.limit = limit;
    this.queueLimit = queueLimit;
    this.drain();
  }

  get inFlight(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves with a release function once a slot is free. */
  acquire(signal?: CallerSignal): Promise<() => void> {
    if (this.running < this.limit && this.waiting.length === 0) {
      this.running += 1;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.queueLimit) return Promise.reject(new BulkheadFull(this.limit, this.waiting.length));
    if (signal?.aborted) return Promise.reject(new BulkheadWaitAborted('aborted while waiting for a slot'));
    return new Promise((resolve, reject) => {
      const entry = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          this.running += 1;
          resolve(this.releaser());
        },
        fail: (error: Error) => reject(error),
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(entry);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(new BulkheadWaitAborted('aborted while waiting for a slot'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      this.drain();
    };
  }

  private drain(): void {
    while (this.running < this.limit && this.waiting.length > 0) this.waiting.shift()!.grant();
  }
}
