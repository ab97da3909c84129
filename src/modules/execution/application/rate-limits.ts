import { Inject, Injectable } from '@nestjs/common';
import { RateBuckets } from '../domain/rate-buckets.port.js';

/** Which budget refused a call, and when to try again. */
export interface RateLimitRefusal {
  scope: 'principal' | 'tool';
  limitPerMinute: number;
  retryAfterMs: number;
}

/**
 * Calls per minute per principal (its key's limit, or TOOLPLANE_RATE_LIMIT_PER_PRINCIPAL) and per
 * tool (its source's rateLimitPerMinute, from all callers together), as token buckets shared by
 * every Toolplane process on the database (in memory with the embedded one, its only user).
 */
@Injectable()
export class RateLimits {
  constructor(@Inject(RateBuckets) private readonly buckets: RateBuckets) {}

  /** Takes a token from each budget that applies; undefined when the call may go on. */
  async admit(principalId: string, principalLimit: number | null | undefined, tool: string, toolLimit: number | null): Promise<RateLimitRefusal | undefined> {
    if (principalLimit) {
      const answer = await this.buckets.take(`principal:${principalId}`, principalLimit);
      if (!answer.allowed) return { scope: 'principal', limitPerMinute: principalLimit, retryAfterMs: answer.retryAfterMs };
    }
    if (toolLimit) {
      const answer = await this.buckets.take(`tool:${tool}`, toolLimit);
      if (!answer.allowed) return { scope: 'tool', limitPerMinute: toolLimit, retryAfterMs: answer.retryAfterMs };
    }
    return undefined;
  }
}
