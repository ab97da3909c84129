import { Query } from '@nestjs/cqrs';
import type { ExecutionStatus } from '../../domain/execution.js';

export type ExecutionStatsGroupBy = 'tool' | 'source' | 'caller';

/** Figures of one tool (groupBy=tool) or one source (groupBy=source). */
export interface ExecutionStatsGroup {
  /** groupBy=tool only. */
  qualifiedName?: string;
  /** groupBy=source only; null when the call never resolved to a source. */
  sourceId?: string | null;
  sourceName?: string | null;
  /** groupBy=caller only: the principal, and the name it had on its latest call. */
  principalId?: string;
  principalName?: string | null;
  count: number;
  /** Executions whose status is anything but `succeeded`. */
  errorCount: number;
  /** errorCount / count. */
  errorRate: number;
  countsByStatus: Record<ExecutionStatus, number>;
  p50DurationMs: number;
  p95DurationMs: number;
}

export interface ExecutionStatsView {
  groupBy: ExecutionStatsGroupBy;
  since: string;
  until: string | null;
  /**
   * Retention purged executions that started before this (null: none purged). A window that
   * begins earlier counts only the executions retained.
   */
  retainedFrom: string | null;
  groups: ExecutionStatsGroup[];
}

export class ExecutionStatsQuery extends Query<ExecutionStatsView> {
  constructor(
    readonly groupBy: ExecutionStatsGroupBy,
    /** Default: 24 hours before now. */
    readonly since: Date | undefined,
    readonly until: Date | undefined,
    /** Only this principal's calls. */
    readonly caller?: string,
  ) {
    super();
  }
}
