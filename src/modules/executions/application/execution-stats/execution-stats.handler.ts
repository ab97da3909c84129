import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../shared/unit-of-work.js';
import { ExecutionReads, type ExecutionStatsCounts } from '../execution-reads.js';
import { ExecutionStatsGroup, ExecutionStatsQuery, ExecutionStatsView } from './execution-stats.query.js';

export const DEFAULT_STATS_WINDOW_MS = 24 * 60 * 60 * 1000;

@QueryHandler(ExecutionStatsQuery)
export class ExecutionStatsHandler implements IQueryHandler<ExecutionStatsQuery, ExecutionStatsView> {
  constructor(
    @Inject(ExecutionReads) private readonly reads: ExecutionReads,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute({ groupBy, since: requestedSince, until, caller }: ExecutionStatsQuery): Promise<ExecutionStatsView> {
    const since = requestedSince ?? new Date(this.clock.now().getTime() - DEFAULT_STATS_WINDOW_MS);
    const groups = await this.reads.stats({ groupBy, since, ...(until ? { until } : {}), ...(caller !== undefined ? { caller } : {}) });
    const retainedFrom = await this.reads.retainedFrom();
    return {
      groupBy,
      since: since.toISOString(),
      until: until ? until.toISOString() : null,
      retainedFrom: retainedFrom?.toISOString() ?? null,
      groups: groups.map(toGroup),
    };
  }
}

function toGroup({ count, countsByStatus, p50DurationMs, p95DurationMs, ...group }: ExecutionStatsCounts): ExecutionStatsGroup {
  const errorCount = count - countsByStatus.succeeded;
  return {
    ...group,
    count,
    errorCount,
    errorRate: count === 0 ? 0 : errorCount / count,
    countsByStatus,
    p50DurationMs: milliseconds(p50DurationMs),
    p95DurationMs: milliseconds(p95DurationMs),
  };
}

/** percentile_cont interpolates: microsecond precision is plenty. */
function milliseconds(value: number): number {
  return Math.round(value * 1000) / 1000;
}
