import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { bucketCapacity, type BucketAnswer } from '../../../shared/token-bucket.js';
import { RateBuckets } from '../domain/rate-buckets.port.js';
import { InProcessRateBuckets } from './in-process-rate-buckets.js';

/** The bucket's tokens after refilling since its last take ($2 per minute, at most $3; a changed limit starts full). */
const REFILLED = `(CASE WHEN b.per_minute <> EXCLUDED.per_minute THEN $3::double precision
  ELSE least($3::double precision, b.tokens
    + greatest(0, extract(epoch FROM EXCLUDED.updated_at - b.updated_at)::double precision) * $2::double precision / 60) END)`;

/**
 * One atomic statement per take: the row is locked while it is refilled and a token taken, so
 * concurrent takes from any process queue on it. Time is the database's clock, the same for all.
 */
const TAKE = `
  WITH taken AS (
    INSERT INTO rate_limit_buckets AS b (key, per_minute, tokens, granted, updated_at)
    VALUES ($1, $2, $3::double precision - 1, true, clock_timestamp())
    ON CONFLICT (key) DO UPDATE SET
      tokens = CASE WHEN ${REFILLED} >= 1 THEN ${REFILLED} - 1 ELSE ${REFILLED} END,
      granted = ${REFILLED} >= 1,
      per_minute = EXCLUDED.per_minute,
      updated_at = greatest(b.updated_at, EXCLUDED.updated_at)
    RETURNING tokens, granted)
  SELECT tokens, granted FROM taken`;

/** A bucket refills in ten seconds: one untouched for a minute is full, and forgetting it changes nothing. */
const FORGET_FULL = `DELETE FROM rate_limit_buckets WHERE updated_at < clock_timestamp() - interval '1 minute'`;
const FORGET_EVERY_MS = 60_000;
const WARN_EVERY_MS = 60_000;

/**
 * Buckets in PostgreSQL, shared by every process on the database, so that a limit holds for the
 * whole cluster however a load balancer spreads the calls. Costs one round trip per limited call
 * (calls without a limit never come here). When the database cannot answer, this process's own
 * buckets stand in (a limit per process rather than none) and a warning says so.
 */
export class PostgresRateBuckets extends RateBuckets {
  private readonly logger = new Logger('rate-limits');
  private readonly fallback = new InProcessRateBuckets();
  private forgottenAt = Date.now();
  private warnedAt = 0;

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async take(key: string, perMinute: number): Promise<BucketAnswer> {
    let row: { tokens: number; granted: boolean } | undefined;
    try {
      [row] = (await this.dataSource.query(TAKE, [key, perMinute, bucketCapacity(perMinute)])) as { tokens: number; granted: boolean }[];
    } catch (error) {
      this.warnFallback(error);
      return this.fallback.take(key, perMinute);
    }
    this.forgetFullBuckets();
    const tokens = Number(row!.tokens);
    if (row!.granted) return { allowed: true, remaining: Math.floor(tokens), retryAfterMs: 0 };
    return { allowed: false, remaining: 0, retryAfterMs: Math.ceil(((1 - tokens) * 60_000) / perMinute) };
  }

  private forgetFullBuckets(): void {
    if (Date.now() - this.forgottenAt < FORGET_EVERY_MS) return;
    this.forgottenAt = Date.now();
    this.dataSource.query(FORGET_FULL).catch((error: unknown) => this.logger.debug(`forgetting full rate-limit buckets failed: ${String(error)}`));
  }

  private warnFallback(error: unknown): void {
    if (Date.now() - this.warnedAt < WARN_EVERY_MS) return;
    this.warnedAt = Date.now();
    this.logger.warn(`shared rate-limit buckets unavailable, limiting per process meanwhile: ${String(error)}`);
  }
}
