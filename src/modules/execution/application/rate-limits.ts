import { Injectable } from '@nestjs/common';
import { BucketSet } from '../../../shared/token-bucket.js';

/** Which budget refused a call, and when to try again. */
export interface RateLimitRefusal {
  scope: 'principal' | 'tool';
  limitPerMinute: number;
  retryAfterMs: number;
}

/**
 * Calls per minute per principal (its key's limit, or TOOLPLANE_RATE_LIMIT_PER_PRINCIPAL) and per
 * tool (its source's rateLimitPerMinute, from all callers together), as token buckets kept in
 * this process: with several Toolplane processes behind a load balancer each holds its own
 * buckets, so a caller spread over N of them may get up to N times the limit (docs/security.md).
 */
@Injectable()
export class RateLimits {
  private readonly principals = new BucketSet();
  private readonly tools = new BucketSet();

  /** Takes a token from each budget that applies; undefined when the call may go on. */
  admit(principalId: string, principalLimit: number | null | undefined, tool: string, toolLimit: number | null, now = Date.now()): RateLimitRefusal | undefined {
    if (principalLimit) {
      const answer = this.principals.take(principalId, principalLimit, now);
      if (!answer.allowed) return { scope: 'principal', limitPerMinute: principalLimit, retryAfterMs: answer.retryAfterMs };
    }
    if (toolLimit) {
      const answer = this.tools.take(tool, toolLimit, now);
      if (!answer.allowed) return { scope: 'tool', limitPerMinute: toolLimit, retryAfterMs: answer.retryAfterMs };
    }
    return undefined;
  }
}
