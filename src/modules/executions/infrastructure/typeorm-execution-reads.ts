import type { EntityManager } from 'typeorm';
import { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import { isUuid } from '../../../shared/uuid.js';
import { EXECUTION_STATUSES, type ExecutionChannel, type ExecutionStatus } from '../domain/execution.js';
import type { ChainedExecution } from '../domain/execution-chain.js';
import type { ChainAnchor } from '../domain/execution-retention.js';
import {
  ExecutionReads,
  type ExecutionChainSnapshot,
  type ExecutionKey,
  type ExecutionStatsCounts,
  type ExecutionStatsWindow,
  type UnchainedRecords,
} from '../application/execution-reads.js';
import type { ExecutionView } from '../application/execution-view.js';
import type { ExecutionFilter } from '../application/list-executions/list-executions.query.js';
import { ANCHOR_COLUMNS, RECORD_COLUMNS, toAnchor, toChainedExecution, type AnchorRow, type LinkRow } from './execution-chain-rows.js';
import { ExecutionOrmEntity } from './execution.orm-entity.js';

interface StatsRow {
  qualified_name?: string;
  source_id?: string | null;
  source_name?: string | null;
  caller_principal?: string;
  principal_name?: string | null;
  count: number;
  p50: number | string;
  p95: number | string;
  [status: `status_${number}`]: number;
}

/** The history read from `executions` and its chain's tables, in the caller's transaction when there is one. */
export class TypeormExecutionReads extends ExecutionReads {
  constructor(private readonly uow: TypeormUnitOfWork) {
    super();
  }

  async list(filter: ExecutionFilter, after: ExecutionKey | undefined, limit: number): Promise<ExecutionView[]> {
    const qb = this.uow.manager().getRepository(ExecutionOrmEntity).createQueryBuilder('e');
    if (filter.tool) qb.andWhere('e.qualified_name = :tool', { tool: filter.tool });
    if (filter.source) {
      // source_id is a uuid column: a name must not be compared with it.
      if (isUuid(filter.source)) qb.andWhere('(e.source_id = :sourceId OR e.source_name = :source)', { sourceId: filter.source, source: filter.source });
      else qb.andWhere('e.source_name = :source', { source: filter.source });
    }
    if (filter.group) qb.andWhere('e.group_name = :group', { group: filter.group });
    if (filter.statuses?.length) qb.andWhere('e.status IN (:...statuses)', { statuses: filter.statuses });
    if (filter.caller) qb.andWhere('e.caller_principal = :caller', { caller: filter.caller });
    if (filter.since) qb.andWhere('e.started_at >= :since', { since: filter.since });
    if (filter.until) qb.andWhere('e.started_at < :until', { until: filter.until });
    if (after) qb.andWhere('(e.started_at, e.id) < (:at::timestamptz, :id::uuid)', { at: after.at, id: after.id });
    const rows = await qb.orderBy('e.started_at', 'DESC').addOrderBy('e.id', 'DESC').take(limit).getMany();
    return rows.map(toExecutionView);
  }

  async get(id: string): Promise<ExecutionView | undefined> {
    const row = await this.uow.manager().getRepository(ExecutionOrmEntity).createQueryBuilder('e').where('e.id = :id', { id }).getOne();
    return row ? toExecutionView(row) : undefined;
  }

  async stats({ groupBy, since, until, caller }: ExecutionStatsWindow): Promise<ExecutionStatsCounts[]> {
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
    return rows.map((row) => toCounts(row, groupBy));
  }

  async retainedFrom(): Promise<Date | null> {
    const [anchor] = (await this.uow.manager().query('SELECT purged_before FROM execution_chain_anchor WHERE seq > 0')) as { purged_before: Date | null }[];
    return anchor?.purged_before ?? null;
  }

  readChain<T>(read: (chain: ExecutionChainSnapshot) => Promise<T>): Promise<T> {
    return this.uow.manager().dataSource.transaction('REPEATABLE READ', async (db) => {
      await db.query('SET TRANSACTION READ ONLY');
      return read(chainSnapshot(db));
    });
  }
}

function chainSnapshot(db: EntityManager): ExecutionChainSnapshot {
  return {
    async anchor(): Promise<ChainAnchor> {
      const [row] = (await db.query(`SELECT ${ANCHOR_COLUMNS} FROM execution_chain_anchor`)) as AnchorRow[];
      return toAnchor(row);
    },
    async links(afterSeq: number, limit: number): Promise<ChainedExecution[]> {
      const rows: LinkRow[] = await db.query(
        `SELECT c.seq, c.execution_id, c.prev_hash, c.hash, c.signature, c.key_id, ${RECORD_COLUMNS}
           FROM execution_chain c LEFT JOIN executions e ON e.id = c.execution_id
          WHERE c.seq > $1 ORDER BY c.seq LIMIT $2`,
        [afterSeq, limit],
      );
      return rows.map(toChainedExecution);
    },
    async unchained(): Promise<UnchainedRecords> {
      const [counts] = (await db.query(
        `SELECT (SELECT count(*) FROM execution_chain_pending)::int AS pending,
                count(*)::int AS unlinked, min(e.id::text) AS first_id
           FROM executions e
          WHERE NOT EXISTS (SELECT 1 FROM execution_chain c WHERE c.execution_id = e.id)
            AND NOT EXISTS (SELECT 1 FROM execution_chain_pending p WHERE p.execution_id = e.id)`,
      )) as { pending: number; unlinked: number; first_id: string | null }[];
      return { pending: counts!.pending, unlinked: counts!.unlinked, firstUnlinkedId: counts!.first_id };
    },
  };
}

function toCounts(row: StatsRow, groupBy: ExecutionStatsWindow['groupBy']): ExecutionStatsCounts {
  return {
    ...(groupBy === 'tool'
      ? { qualifiedName: row.qualified_name! }
      : groupBy === 'source'
        ? { sourceId: row.source_id ?? null, sourceName: row.source_name ?? null }
        : { principalId: row.caller_principal!, principalName: row.principal_name ?? null }),
    count: row.count,
    countsByStatus: Object.fromEntries(EXECUTION_STATUSES.map((status, i) => [status, row[`status_${i}`]])) as Record<ExecutionStatus, number>,
    p50DurationMs: Number(row.p50),
    p95DurationMs: Number(row.p95),
  };
}

function toExecutionView(e: ExecutionOrmEntity): ExecutionView {
  return {
    id: e.id,
    toolId: e.toolId,
    qualifiedName: e.qualifiedName,
    sourceId: e.sourceId,
    sourceName: e.sourceName,
    group: e.groupName ?? null,
    interceptors: e.interceptors ?? [],
    definitionHash: e.definitionHash,
    caller: e.caller,
    channel: e.channel as ExecutionChannel,
    arguments: e.arguments,
    status: e.status as ExecutionStatus,
    isError: e.isError,
    result: e.result,
    error: e.error,
    attempts: e.attempts,
    startedAt: e.startedAt.toISOString(),
    durationMs: e.durationMs,
    traceId: e.traceId ?? null,
  };
}
