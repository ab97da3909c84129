import type { CircuitBreakers } from './circuit-breakers.js';
import type { RefreshCoordinator } from './refresh-inventory/refresh-coordinator.js';
import type { SourceView, StoredSourceView } from './source-view.js';

/** Adds what lives in this process's memory to a stored view: the circuit breaker's state and a discovery under way. */
export function withLiveState(view: StoredSourceView, circuits: CircuitBreakers, refreshes: RefreshCoordinator, now: number): SourceView {
  const snapshot = circuits.snapshot(view.id, now);
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const underWay = refreshes.underWay(view.id);
  return {
    ...view,
    circuit: {
      state: snapshot.state,
      consecutiveFailures: snapshot.consecutiveFailures,
      openedAt: iso(snapshot.openedAt),
      retryAt: iso(snapshot.retryAt),
    },
    discovery: underWay ? { since: underWay.since.toISOString(), progress: underWay.progress } : null,
  };
}
