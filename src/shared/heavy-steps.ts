/**
 * Heavy steps take turns of the event loop: a step that costs time in proportion to a large
 * payload (parsing a large body, checking and recording large arguments) waits for a turn of its
 * own, so that when many large requests arrive together their steps run one per turn, with the
 * timers and the I/O of every other request (a `/health/live`, a small call) in between. Without
 * turns, twenty 200 KB calls arriving at once were handled back to back and held the event loop
 * 60–150 ms.
 *
 * A turn costs a few microseconds when nothing else waits; under a burst it moves work later, never
 * drops it, and keeps the order the steps asked in.
 */
export class HeavySteps {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  /** Resolves at the next heavy turn: in a later turn of the event loop than any heavy step before it. */
  turn(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  /**
   * A pass over many items that lets the event loop turn now and then: `next()` before each item
   * answers at once while the current slice has run less than `sliceMs`, else at the next heavy turn
   * (and a new slice begins).
   */
  slices(sliceMs: number): { next(): Promise<void> } {
    let sliceStarted = performance.now();
    return {
      next: async () => {
        if (performance.now() - sliceStarted <= sliceMs) return;
        await this.turn();
        sliceStarted = performance.now();
      },
    };
  }

  /** Heavy steps waiting for their turn. */
  get queued(): number {
    return this.waiting.length;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // An immediate queued while immediates run belongs to the next turn: one step per turn.
    setImmediate(this.release);
  }

  private readonly release = (): void => {
    this.scheduled = false;
    this.waiting.shift()?.();
    if (this.waiting.length > 0) this.schedule();
  };
}

/** The process's heavy steps (one event loop, one queue). */
export const heavySteps = new HeavySteps();

/**
 * Whether handling `value` is a heavy step: it holds more than 4,096 values, counting every 16
 * characters of its strings as one (about a millisecond of the linear passes made over a payload:
 * 200 KB of text, or 4,000 small objects).
 */
export function isHeavy(value: unknown): boolean {
  return weighsMore(value, HEAVY_WEIGHT);
}

/** Whether parsing a JSON text of this length is a heavy step (64 KiB and more). */
export function isHeavyText(text: string): boolean {
  return text.length / CHARS_PER_VALUE > HEAVY_WEIGHT;
}

const HEAVY_WEIGHT = 4096;
const CHARS_PER_VALUE = 16;

/** Whether a JSON value weighs more than `limit` (a value 1, a string one more per 16 characters); stops there. */
export function weighsMore(value: unknown, limit: number): boolean {
  let weight = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    weight += 1;
    if (typeof next === 'string') weight += next.length / CHARS_PER_VALUE;
    else if (next !== null && typeof next === 'object') {
      const inner = Array.isArray(next) ? next : Object.values(next);
      if (weight + inner.length > limit) return true;
      for (const item of inner) pending.push(item);
    }
    if (weight > limit) return true;
  }
  return false;
}
