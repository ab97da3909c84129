import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { TypeormUnitOfWork } from '../../../../shared/database/typeorm-unit-of-work.js';
import { decodeCursor, encodeCursor } from '../../../../shared/http/cursor.js';
import { AuditEventOrmEntity } from '../../infrastructure/audit-event.orm-entity.js';
import { AuditEventPage, ListAuditEventsQuery } from './list-audit-events.query.js';

@QueryHandler(ListAuditEventsQuery)
export class ListAuditEventsHandler implements IQueryHandler<ListAuditEventsQuery, AuditEventPage> {
  constructor(@Inject(TypeormUnitOfWork) private readonly uow: TypeormUnitOfWork) {}

  async execute({ filter, cursor, limit }: ListAuditEventsQuery): Promise<AuditEventPage> {
    const after = decodeCursor<{ at: string; id: string }>(cursor, ['at', 'id']);
    const qb = this.uow.manager().getRepository(AuditEventOrmEntity).createQueryBuilder('e');
    if (filter.action) qb.andWhere('e.action = :action', { action: filter.action });
    if (filter.targetType) qb.andWhere('e.target_type = :targetType', { targetType: filter.targetType });
    if (filter.target) qb.andWhere('(e.target_id = :target OR e.target_name = :target)', { target: filter.target });
    if (filter.actor) qb.andWhere('e.actor = :actor', { actor: filter.actor });
    if (filter.since) qb.andWhere('e.occurred_at >= :since', { since: filter.since });
    if (filter.until) qb.andWhere('e.occurred_at < :until', { until: filter.until });
    if (after) qb.andWhere('(e.occurred_at, e.id) < (:at, :id)', { at: after.at, id: after.id });
    const rows = await qb.orderBy('e.occurred_at', 'DESC').addOrderBy('e.id', 'DESC').take(limit + 1).getMany();
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map((e) => ({
        id: e.id,
        occurredAt: e.occurredAt.toISOString(),
        actor: e.actor,
        action: e.action,
        targetType: e.targetType,
        targetId: e.targetId,
        targetName: e.targetName,
        details: e.details,
        seq: Number(e.seq),
        hash: e.hash,
        requestId: e.requestId,
        clientAddress: e.clientAddress,
      })),
      nextCursor: rows.length > limit && last ? encodeCursor({ at: last.occurredAt.toISOString(), id: last.id }) : null,
    };
  }
}
