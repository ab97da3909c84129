/** What taking a token answered: allowed or not, how many are left, and when the next one comes. */
export interface BucketAnswer {
  allowed: boolean;
  remaining: number;
  /** Until a token is available again (0 when one is). */
  retryAfterMs: number;
}

/** How many tokens a bucket of `perMinute` holds: ten seconds' worth, at least one. */
export function bucketCapacity(perMinute: number): number {
  return Math.max(1, Math.ceil(perMinute / 6));
}

/**
 * A token bucket of `perMinute` tokens a minute, holding at most ten seconds' worth (at least one):
 * a steady rate with short bursts.
 */
export class TokenBucket {
  readonly capacity: number;
  private readonly perMs: number;
  private tokens: number;
  private updatedAt: number;

  constructor(
    readonly perMinute: number,
    now: number,
  ) {
    this.capacity = bucketCapacity(perMinute);
    this.perMs = perMinute / 60_000;
    this.tokens = this.capacity;
    this.updatedAt = now;
  }

  take(now: number): BucketAnswer {
    this.refill(now);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { allowed: true, remaining: Math.floor(this.tokens), retryAfterMs: 0 };
    }
    return { allowed: false, remaining: 0, retryAfterMs: Math.ceil((1 - this.tokens) / this.perMs) };
  }

  /** Whether the bucket is full again (nothing to remember about it). */
  full(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.capacity;
  }

  private refill(now: number): void {
    if (now > this.updatedAt) {
      this.tokens = Math.min(this.capacity, this.tokens + (now - this.updatedAt) * this.perMs);
      this.updatedAt = now;
    }
  }
}

/** Buckets by key (a principal, a tool, a client address); full buckets are forgotten so memory stays bounded. */
export class BucketSet {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(private readonly maxBuckets = 100_000) {}

  take(key: string, perMinute: number, now: number): BucketAnswer {
    let bucket = this.buckets.get(key);
    if (!bucket || bucket.perMinute !== perMinute) {
      if (this.buckets.size >= this.maxBuckets) this.sweep(now);
      bucket = new TokenBucket(perMinute, now);
      this.buckets.set(key, bucket);
    }
    return bucket.take(now);
  }

  get size(): number {
    return this.buckets.size;
  }

  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) if (bucket.full(now)) this.buckets.delete(key);
    // Still full of busy buckets: drop the oldest rather than grow without bound.
    while (this.buckets.size >= this.maxBuckets) this.buckets.delete(this.buckets.keys().next().value!);
  }
}
