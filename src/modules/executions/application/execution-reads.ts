import type { ChainedExecution } from '../domain/execution-chain.js';
import type { ChainAnchor } from '../domain/execution-retention.js';
import type { ExecutionStatsGroup, ExecutionStatsGroupBy } from './execution-stats/execution-stats.query.js';
import type { ExecutionView } from './execution-view.js';
import type { ExecutionFilter } from './list-executions/list-executions.query.js';

/** Where a page of the history ends: its last execution's start and id (the listing's order). */
export interface ExecutionKey {
  at: string;
  id: string;
}

/** The calls of one group in a window as counted; the figures derived from the counts are the query's. */
export type ExecutionStatsCounts = Omit<ExecutionStatsGroup, 'errorCount' | 'errorRate'>;

export interface ExecutionStatsWindow {
  groupBy: ExecutionStatsGroupBy;
  /** Started at or after. */
  since: Date;
  /** Started before. */
  until?: Date;
  /** Only this principal's calls. */
  caller?: string;
}

/** Records outside the chain: waiting for the sealer, or neither linked nor waiting (written past the recorder). */
export interface UnchainedRecords {
  pending: number;
  unlinked: number;
  /** The unlinked record with the smallest id. */
  firstUnlinkedId: string | null;
}

/** The executions' chain as one read-only snapshot sees it: what commits meanwhile (a purge, a seal) is not seen half done. */
export interface ExecutionChainSnapshot {
  anchor(): Promise<ChainAnchor>;
  /** Up to `limit` links after `afterSeq`, in seq order, each with the digest of its record as stored now. */
  links(afterSeq: number, limit: number): Promise<ChainedExecution[]>;
  unchained(): Promise<UnchainedRecords>;
}

/** Port: the history of calls as its queries read it. */
export abstract class ExecutionReads {
  /** The executions the filter matches that come after `after`, newest first (start time, then id); at most `limit`. */
  abstract list(filter: ExecutionFilter, after: ExecutionKey | undefined, limit: number): Promise<ExecutionView[]>;
  abstract get(id: string): Promise<ExecutionView | undefined>;
  /** One entry per group with calls in the window, most calls first. */
  abstract stats(window: ExecutionStatsWindow): Promise<ExecutionStatsCounts[]>;
  /** Retention purged the executions that started before this; null while it purged none. */
  abstract retainedFrom(): Promise<Date | null>;
  /** Runs `read` on one read-only snapshot of the chain. */
  abstract readChain<T>(read: (chain: ExecutionChainSnapshot) => Promise<T>): Promise<T>;
}
