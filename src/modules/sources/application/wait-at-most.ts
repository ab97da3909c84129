import type { AppConfig } from '../../../config/app-config.js';

/** How long after the discovery's own timeout its outcome may take to be written (a failure recorded, a transaction). */
const OUTCOME_WRITE_MS = 5000;

/** Waits for `work` but no longer than `ms`; the work itself goes on either way. */
export async function waitAtMost(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * How long a registration, or an update that rediscovers, waits for the discovery it started:
 * TOOLPLANE_REGISTRATION_WAIT_MS. A wait at least as long as the discovery's own timeout waits for
 * the outcome, written just after that timeout, rather than answer a moment before it.
 */
export function discoveryWaitMs(config: Pick<AppConfig, 'registrationWaitMs' | 'discoveryTimeoutMs'>): number {
  return config.registrationWaitMs >= config.discoveryTimeoutMs ? config.registrationWaitMs + OUTCOME_WRITE_MS : config.registrationWaitMs;
}
