/** Retries only what is safe to repeat: tools that declare they read, or are idempotent. */
export function isRetryable(annotations: Record<string, unknown> | null | undefined): boolean {
  return annotations?.readOnlyHint === true || annotations?.idempotentHint === true;
}

export const MAX_ATTEMPTS = 3;

/** Exponential backoff with full jitter: 0..(base·2^(attempt-1)), capped. */
export function backoffMs(attempt: number, random: () => number = Math.random, baseMs = 50, capMs = 1000): number {
  return Math.round(random() * Math.min(capMs, baseMs * 2 ** (attempt - 1)));
}
