import type { CircuitBreakers } from './circuit-breakers.js';
import type { SourceView } from './source-view.js';

/** Adds the live circuit-breaker state, which lives in memory, to a stored view. */
export function withCircuit(view: Omit<SourceView, 'circuit'>, circuits: CircuitBreakers, now: number): SourceView {
  const snapshot = circuits.snapshot(view.id, now);
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    ...view,
    circuit: {
      state: snapshot.state,
      consecutiveFailures: snapshot.consecutiveFailures,
      openedAt: iso(snapshot.openedAt),
      retryAt: iso(snapshot.retryAt),
    },
  };
}
