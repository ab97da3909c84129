import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { TypeormUnitOfWork } from '../../../../shared/database/typeorm-unit-of-work.js';
import { Clock } from '../../../../shared/unit-of-work.js';
import { EXECUTION_STATUSES, ExecutionStatus } from '../../domain/execution.js';
import { ExecutionStatsGroup, ExecutionStatsQuery, ExecutionStatsView } from './execution-stats.query.js';

export const DEFAULT_STATS_WINDOW_MS = 24 * 60 * 60 * 1000;

interface StatsRow {
  qualified_name?: string;
  source_id?: string | null;
  source_name?: string | null;
  caller_principal?: string;
  principal_name?: string | null;
  count: number;
  p50: number;
  p95: number;
  [status: `status_${number}`]: number;
}

@QueryHandler(ExecutionStatsQuery)
export class ExecutionStatsHandler implements IQueryHandler<ExecutionStatsQuery, ExecutionStatsView> {
  constructor(
    @Inject(TypeormUnitOfWork) private readonly uow: TypeormUnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute({ groupBy, since: requestedSince, until, caller }: ExecutionStatsQuery): Promise<ExecutionStatsView> {
    const since = requestedSince ?? new Date(this.clock.now().getTime() - DEFAULT_STATS_WINDOW_MS);
    const keys = groupBy === 'tool' ? ['qualified_name'] : groupBy === 'source' ? ['source_id', 'source_name'] : ['caller_principal'];
    const params: unknown[] = [since];
    let where = 'started_at >= $1';
    if (until) {
      params.push(until);
      where += ` AND started_at < $${params.length}`;
    }
    if (caller !== undefined) {
      params.push(caller);
      where += ` AND caller_principal = $${params.length}`;
    }
    // The name a principal had on its latest call in the window.
    const extra = groupBy === 'caller' ? `(array_agg(caller->>'principalName' ORDER BY started_at DESC))[1] AS principal_name,` : '';
    const perStatus = EXECUTION_STATUSES.map((status, i) => {
      params.push(status);
      return `count(*) FILTER (WHERE status = $${params.length})::int AS status_${i}`;
    });
    const rows: StatsRow[] = await this.uow.manager().query(
      `SELECT ${keys.join(', ')}, ${extra}
              count(*)::int AS count,
              ${perStatus.join(',\n              ')},
              percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50,
              percentile_cont(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95
         FROM executions
        WHERE ${where}
        GROUP BY ${keys.join(', ')}
        ORDER BY count DESC, ${keys.map((k) => `${k} NULLS LAST`).join(', ')}`,
      params,
    );
    const [anchor] = (await this.uow.manager().query('SELECT purged_before FROM execution_chain_anchor WHERE seq > 0')) as { purged_before: Date | null }[];
    return {
      groupBy,
      since: since.toISOString(),
      until: until ? until.toISOString() : null,
      retainedFrom: anchor?.purged_before?.toISOString() ?? null,
      groups: rows.map((row) => toGroup(row, groupBy)),
    };
  }
}

function toGroup(row: StatsRow, groupBy: ExecutionStatsQuery['groupBy']): ExecutionStatsGroup {
  const countsByStatus = Object.fromEntries(EXECUTION_STATUSES.map((status, i) => [status, row[`status_${i}`]])) as Record<ExecutionStatus, number>;
  const errorCount = row.count - countsByStatus.succeeded;
  return {
    ...(groupBy === 'tool'
      ? { qualifiedName: row.qualified_name! }
      : groupBy === 'source'
        ? { sourceId: row.source_id ?? null, sourceName: row.source_name ?? null }
        : { principalId: row.caller_principal!, principalName: row.principal_name ?? null }),
    count: row.count,
    errorCount,
    errorRate: row.count === 0 ? 0 : errorCount / row.count,
    countsByStatus,
    p50DurationMs: milliseconds(row.p50),
    p95DurationMs: milliseconds(row.p95),
  };
}

/** percentile_cont interpolates: microsecond precision is plenty. */
function milliseconds(value: number | string): number {
  return Math.round(Number(value) * 1000) / 1000;
}
