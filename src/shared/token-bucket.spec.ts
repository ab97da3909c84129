import { BucketSet, TokenBucket } from './token-bucket.js';

describe('TokenBucket', () => {
  it('allows ten seconds of the rate at once, then one token per 60000/perMinute ms', () => {
    const bucket = new TokenBucket(60, 0);
    expect(bucket.capacity).toBe(10);
    for (let i = 0; i < 10; i++) expect(bucket.take(0).allowed).toBe(true);
    expect(bucket.take(0)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 1000 });
    expect(bucket.take(400)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 600 });
    expect(bucket.take(1000).allowed).toBe(true);
    expect(bucket.take(1000).allowed).toBe(false);
    // Idle long enough: full again, never more.
    expect(bucket.full(60_000)).toBe(true);
    expect(bucket.take(60_000)).toEqual({ allowed: true, remaining: 9, retryAfterMs: 0 });
  });

  it('keeps at least one token for slow rates', () => {
    const bucket = new TokenBucket(1, 0);
    expect(bucket.take(0).allowed).toBe(true);
    expect(bucket.take(0).retryAfterMs).toBe(60_000);
  });
});

describe('BucketSet', () => {
  it('keeps a bucket per key and stays bounded', () => {
    const set = new BucketSet(3);
    for (const key of ['a', 'b', 'c', 'd', 'e']) set.take(key, 6, 0);
    expect(set.size).toBeLessThanOrEqual(3);
    expect(set.take('e', 6, 0)).toMatchObject({ allowed: false });
    expect(set.take('f', 6, 0)).toMatchObject({ allowed: true });
  });
});
