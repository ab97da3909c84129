import type { BucketAnswer } from '../../../shared/token-bucket.js';

/**
 * Token buckets by key (a principal, a tool): `perMinute` tokens a minute, holding ten seconds'
 * worth. Every process that shares the budget must take from the same buckets.
 */
export abstract class RateBuckets {
  abstract take(key: string, perMinute: number): Promise<BucketAnswer>;
}
