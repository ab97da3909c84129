import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { TypeormUnitOfWork } from '../../../../shared/database/typeorm-unit-of-work.js';
import { ValidationFailed } from '../../../../shared/domain-error.js';
import { decodeCursor, encodeCursor } from '../../../../shared/http/cursor.js';
import { ExecutionOrmEntity } from '../../infrastructure/execution.orm-entity.js';
import { ExecutionPage, toExecutionView } from '../execution-view.js';
import { isUuid } from '../../../../shared/uuid.js';
import { ListExecutionsQuery } from './list-executions.query.js';

@QueryHandler(ListExecutionsQuery)
export class ListExecutionsHandler implements IQueryHandler<ListExecutionsQuery, ExecutionPage> {
  constructor(@Inject(TypeormUnitOfWork) private readonly uow: TypeormUnitOfWork) {}

  async execute({ filter, cursor, limit }: ListExecutionsQuery): Promise<ExecutionPage> {
    const after = decodeCursor<{ at: string; id: string }>(cursor, ['at', 'id']);
    if (after && (typeof after.id !== 'string' || !isUuid(after.id) || typeof after.at !== 'string' || Number.isNaN(Date.parse(after.at)))) {
      throw invalidCursor();
    }
    const qb = this.uow.manager().getRepository(ExecutionOrmEntity).createQueryBuilder('e');
    if (filter.tool) qb.andWhere('e.qualified_name = :tool', { tool: filter.tool });
    if (filter.source) {
      // source_id is a uuid column: a name must not be compared with it.
      if (isUuid(filter.source)) qb.andWhere('(e.source_id = :sourceId OR e.source_name = :source)', { sourceId: filter.source, source: filter.source });
      else qb.andWhere('e.source_name = :source', { source: filter.source });
    }
    if (filter.statuses?.length) qb.andWhere('e.status IN (:...statuses)', { statuses: filter.statuses });
    if (filter.caller) qb.andWhere('e.caller_principal = :caller', { caller: filter.caller });
    if (filter.since) qb.andWhere('e.started_at >= :since', { since: filter.since });
    if (filter.until) qb.andWhere('e.started_at < :until', { until: filter.until });
    if (after) qb.andWhere('(e.started_at, e.id) < (:at::timestamptz, :id::uuid)', { at: after.at, id: after.id });
    const rows = await qb.orderBy('e.started_at', 'DESC').addOrderBy('e.id', 'DESC').take(limit + 1).getMany();
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map(toExecutionView),
      nextCursor: rows.length > limit && last ? encodeCursor({ at: last.startedAt.toISOString(), id: last.id }) : null,
    };
  }
}

/** A well-formed cursor whose key could not come from this listing (same answer as a malformed one). */
function invalidCursor(): ValidationFailed {
  return new ValidationFailed([{ path: 'cursor', message: 'is not a cursor this endpoint issued' }], 'The cursor is invalid.', 'INVALID_CURSOR');
}
