import type { Source } from './source.js';

export abstract class SourceRepository {
  /** A live (not removed) source by id or name; `lock` holds it for the current transaction. */
  abstract findLive(idOrName: string, options?: { lock?: boolean }): Promise<Source | undefined>;
  abstract nameTaken(name: string): Promise<boolean>;
  /** Every live source, by name. */
  abstract listLive(): Promise<Source[]>;
  abstract insert(source: Source): Promise<void>;
  /** Saves with an optimistic check on the version the source was loaded at. */
  abstract save(source: Source): Promise<void>;
  /** Claims sources whose periodic refresh is due, so one process refreshes each. */
  /**
   * Claims (leases) enabled sources due a scheduled refresh: `refreshIntervalSeconds` after the
   * last one, or, after failures, `retryInitialMs` doubling with each consecutive failure up to
   * that interval (a server that starts after Toolplane is found within seconds).
   */
  abstract claimDueForRefresh(now: Date, leaseMs: number, limit: number, retryInitialMs: number): Promise<string[]>;
  /** Ends a claim once its refresh is over, so the next one is due on schedule. */
  abstract releaseRefreshLease(id: string): Promise<void>;
}
