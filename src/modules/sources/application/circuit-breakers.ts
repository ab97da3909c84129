import { Inject, Injectable } from '@nestjs/common';
import { WorkMetrics } from '../../../shared/work-metrics.js';
import { CircuitBreaker, type CircuitSettings, type CircuitSnapshot, type CircuitState } from '../domain/circuit-breaker.js';

/** How the metrics count a circuit's state. */
const STATE_VALUE: Record<CircuitState, number> = { closed: 0, half_open: 1, open: 2 };

/** One circuit breaker per source, in this process; settings follow the source's. */
@Injectable()
export class CircuitBreakers {
  private readonly breakers = new Map<string, CircuitBreaker>();

  constructor(@Inject(WorkMetrics) metrics: WorkMetrics) {
    metrics.perSource('circuit', () => new Map([...this.breakers].map(([id, breaker]) => [id, STATE_VALUE[breaker.snapshot(Date.now()).state]])));
  }

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
