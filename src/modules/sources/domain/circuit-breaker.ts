export type CircuitState = 'closed' | 'open' | 'half_open';

export interface CircuitSettings {
  failureThreshold: number;
  resetTimeoutMs: number;
}

export type Admission = { admitted: true; trial: boolean } | { admitted: false; retryAfterMs: number };

export interface CircuitSnapshot {
  state: CircuitState;
  consecutiveFailures: number;
  openedAt: number | null;
  /** When an open circuit lets a trial call through. */
  retryAt: number | null;
}

/**
 * A circuit breaker for one source. Transport failures and timeouts count; a tool's own
 * error does not. `failureThreshold` failures in a row open the circuit; after
 * `resetTimeoutMs` one trial call at a time goes through (half-open): its success closes
 * the circuit, its failure opens it again. Time is passed in, so the logic is pure.
 */
export class CircuitBreaker {
  private state: CircuitState = 'closed';
  private failures = 0;
  private openedAt: number | null = null;
  private trialInFlight = false;

  constructor(private settings: CircuitSettings) {}

  reconfigure(settings: CircuitSettings): void {
    this.settings = settings;
  }

  admit(now: number): Admission {
    if (this.state === 'closed') return { admitted: true, trial: false };
    if (this.state === 'open') {
      const retryAt = this.openedAt! + this.settings.resetTimeoutMs;
      if (now < retryAt) return { admitted: false, retryAfterMs: retryAt - now };
      this.state = 'half_open';
    }
    if (this.trialInFlight) return { admitted: false, retryAfterMs: Math.min(this.settings.resetTimeoutMs, 1000) };
    this.trialInFlight = true;
    return { admitted: true, trial: true };
  }

  onSuccess(trial: boolean): void {
    if (trial) this.trialInFlight = false;
    this.state = 'closed';
    this.failures = 0;
    this.openedAt = null;
  }

  onFailure(trial: boolean, now: number): void {
    if (trial) this.trialInFlight = false;
    this.failures += 1;
    if (this.state === 'half_open' || this.failures >= this.settings.failureThreshold) {
      this.state = 'open';
      this.openedAt = now;
    }
  }

  /** A call that ended without telling anything about the upstream (rejected, invalid, cancelled). */
  onNeutral(trial: boolean): void {
    if (trial) this.trialInFlight = false;
  }

  snapshot(now: number): CircuitSnapshot {
    const open = this.state === 'open';
    const retryAt = open ? this.openedAt! + this.settings.resetTimeoutMs : null;
    return {
      state: open && retryAt !== null && now >= retryAt ? 'half_open' : this.state,
      consecutiveFailures: this.failures,
      openedAt: this.openedAt,
      retryAt,
    };
  }
}
