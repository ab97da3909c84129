import { Injectable } from '@nestjs/common';

/** Counts calls under way so shutdown can let them finish (up to a deadline) before closing. */
@Injectable()
export class InFlightCalls {
  private count = 0;
  private idle: (() => void)[] = [];
  draining = false;

  enter(): () => void {
    this.count += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.count -= 1;
      if (this.count === 0) for (const wake of this.idle.splice(0)) wake();
    };
  }

  get size(): number {
    return this.count;
  }

  /** Refuses new calls and waits for the ones under way, at most `graceMs`. */
  async drain(graceMs: number): Promise<boolean> {
    this.draining = true;
    if (this.count === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      new Promise<boolean>((resolve) => this.idle.push(() => resolve(true))),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
    ]);
    clearTimeout(timer);
    return finished;
  }
}
