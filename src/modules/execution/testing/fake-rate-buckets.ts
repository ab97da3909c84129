import type { BucketAnswer } from '../../../shared/token-bucket.js';
import { RateBuckets } from '../domain/rate-buckets.port.js';

/** RateBuckets that allow `perMinute` takes per key in all, then refuse with `retryAfterMs`. Keeps the keys taken from. */
export class FakeRateBuckets extends RateBuckets {
  readonly taken: string[] = [];
  retryAfterMs = 6000;

  async take(key: string, perMinute: number): Promise<BucketAnswer> {
    const before = this.taken.filter((taken) => taken === key).length;
    if (before >= perMinute) return { allowed: false, remaining: 0, retryAfterMs: this.retryAfterMs };
    this.taken.push(key);
    return { allowed: true, remaining: perMinute - before - 1, retryAfterMs: 0 };
  }
}
