import { BucketSet, type BucketAnswer } from '../../../shared/token-bucket.js';
import { RateBuckets } from '../domain/rate-buckets.port.js';

/** Buckets in this process's memory: exact when it is the database's only user (the embedded cluster). */
export class InProcessRateBuckets extends RateBuckets {
  private readonly buckets = new BucketSet();

  take(key: string, perMinute: number): Promise<BucketAnswer> {
    return Promise.resolve(this.buckets.take(key, perMinute, Date.now()));
  }
}
