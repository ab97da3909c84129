import { Injectable } from '@nestjs/common';
import { CircuitBreaker, type CircuitSettings, type CircuitSnapshot } from '../domain/circuit-breaker.js';

/** One circuit breaker per source, in this process; settings follow the source's. */
@Injectable()
export class CircuitBreakers {
  private readonly breakers = new Map<string, CircuitBreaker>();

  forSource(sourceId: string, settings: CircuitSettings): CircuitBreaker {
    let breaker = this.breakers.get(sourceId);
    if (!breaker) {
      breaker = new CircuitBreaker(settings);
      this.breakers.set(sourceId, breaker);
    } else {
      breaker.reconfigure(settings);
    }
    return breaker;
  }

  snapshot(sourceId: string, now: number): CircuitSnapshot {
    return this.breakers.get(sourceId)?.snapshot(now) ?? { state: 'closed', consecutiveFailures: 0, openedAt: null, retryAt: null };
  }

  /** A changed or removed source starts with a closed circuit. */
  forget(sourceId: string): void {
    this.breakers.delete(sourceId);
  }
}
