import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { decodeCursor, pageOf } from '../../../../shared/http/cursor.js';
import { AuditReads, type AuditEventKey } from '../audit-reads.js';
import { AuditEventPage, ListAuditEventsQuery } from './list-audit-events.query.js';

@QueryHandler(ListAuditEventsQuery)
export class ListAuditEventsHandler implements IQueryHandler<ListAuditEventsQuery, AuditEventPage> {
  constructor(@Inject(AuditReads) private readonly reads: AuditReads) {}

  async execute({ filter, cursor, limit }: ListAuditEventsQuery): Promise<AuditEventPage> {
    const after = decodeCursor<{ at: string; id: string }>(cursor, ['at', 'id']);
    const rows = await this.reads.list(filter, after && { at: after.at, id: after.id }, limit + 1);
    return pageOf(rows, limit, (event) => event, (last) => ({ at: last.occurredAt, id: last.id }) satisfies AuditEventKey);
  }
}
