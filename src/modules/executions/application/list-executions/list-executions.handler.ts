import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ValidationFailed } from '../../../../shared/domain-error.js';
import { decodeCursor, encodeCursor } from '../../../../shared/http/cursor.js';
import { isUuid } from '../../../../shared/uuid.js';
import { ExecutionReads, type ExecutionKey } from '../execution-reads.js';
import type { ExecutionPage } from '../execution-view.js';
import { ListExecutionsQuery } from './list-executions.query.js';

@QueryHandler(ListExecutionsQuery)
export class ListExecutionsHandler implements IQueryHandler<ListExecutionsQuery, ExecutionPage> {
  constructor(@Inject(ExecutionReads) private readonly reads: ExecutionReads) {}

  async execute({ filter, cursor, limit }: ListExecutionsQuery): Promise<ExecutionPage> {
    const after = decodeCursor<{ at: string; id: string }>(cursor, ['at', 'id']);
    if (after && (typeof after.id !== 'string' || !isUuid(after.id) || typeof after.at !== 'string' || Number.isNaN(Date.parse(after.at)))) {
      throw invalidCursor();
    }
    const rows = await this.reads.list(filter, after && { at: after.at, id: after.id }, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page,
      nextCursor: rows.length > limit && last ? encodeCursor({ at: last.startedAt, id: last.id } satisfies ExecutionKey) : null,
    };
  }
}

/** A well-formed cursor whose key could not come from this listing (same answer as a malformed one). */
function invalidCursor(): ValidationFailed {
  return new ValidationFailed([{ path: 'cursor', message: 'is not a cursor this endpoint issued' }], 'The cursor is invalid.', 'INVALID_CURSOR');
}
