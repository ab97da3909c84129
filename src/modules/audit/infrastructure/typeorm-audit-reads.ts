import { TypeormUnitOfWork } from '../../../shared/database/typeorm-unit-of-work.js';
import type { ChainedAuditEvent } from '../domain/audit-chain.js';
import { AuditReads, type AuditEventKey } from '../application/audit-reads.js';
import type { AuditEventFilter, AuditEventView } from '../application/list-audit-events/list-audit-events.query.js';
import { AuditEventOrmEntity } from './audit-event.orm-entity.js';
import { toEvent, type Row } from './typeorm-audit-log.js';

/** The trail read from `audit_events`. */
export class TypeormAuditReads extends AuditReads {
  constructor(private readonly uow: TypeormUnitOfWork) {
    super();
  }

  async list(filter: AuditEventFilter, after: AuditEventKey | undefined, limit: number): Promise<AuditEventView[]> {
    const qb = this.uow.manager().getRepository(AuditEventOrmEntity).createQueryBuilder('e');
    if (filter.action) qb.andWhere('e.action = :action', { action: filter.action });
    if (filter.targetType) qb.andWhere('e.target_type = :targetType', { targetType: filter.targetType });
    if (filter.target) qb.andWhere('(e.target_id = :target OR e.target_name = :target)', { target: filter.target });
    if (filter.actor) qb.andWhere('e.actor = :actor', { actor: filter.actor });
    if (filter.since) qb.andWhere('e.occurred_at >= :since', { since: filter.since });
    if (filter.until) qb.andWhere('e.occurred_at < :until', { until: filter.until });
    if (after) qb.andWhere('(e.occurred_at, e.id) < (:at, :id)', { at: after.at, id: after.id });
    const rows = await qb.orderBy('e.occurred_at', 'DESC').addOrderBy('e.id', 'DESC').take(limit).getMany();
    return rows.map((e) => ({
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
    }));
  }

  async chain(afterSeq: number, limit: number): Promise<ChainedAuditEvent[]> {
    const rows: Row[] = await this.uow.manager().query(`SELECT * FROM audit_events WHERE seq > $1 ORDER BY seq LIMIT $2`, [afterSeq, limit]);
    return rows.map(toEvent);
  }
}
