import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ValidationFailed } from '../../../../shared/domain-error.js';
import { decodeCursor, pageOf } from '../../../../shared/http/cursor.js';
import { Clock } from '../../../../shared/unit-of-work.js';
import { isUuid } from '../../../../shared/uuid.js';
import { WAITING_STATUSES, ExecutionTasks, type WaitingStatus } from '../../domain/execution-task.js';
import type { ExecutionStatus } from '../../domain/execution.js';
import { ExecutionReads, type ExecutionKey } from '../execution-reads.js';
import { waitingView, type ExecutionPage, type ShownExecution } from '../execution-view.js';
import { ListExecutionsQuery } from './list-executions.query.js';

/**
 * The history, newest first: the final records, and the calls that have none yet (working or
 * waiting for approval, from their task rows) among them by when they started. Waiting calls are
 * read first: one that ends meanwhile is shown once, by its final record.
 */
@QueryHandler(ListExecutionsQuery)
export class ListExecutionsHandler implements IQueryHandler<ListExecutionsQuery, ExecutionPage> {
  constructor(
    @Inject(ExecutionReads) private readonly reads: ExecutionReads,
    @Inject(ExecutionTasks) private readonly tasks: ExecutionTasks,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute({ filter, cursor, limit }: ListExecutionsQuery): Promise<ExecutionPage> {
    const after = decodeCursor<{ at: string; id: string }>(cursor, ['at', 'id']);
    if (after && (typeof after.id !== 'string' || !isUuid(after.id) || typeof after.at !== 'string' || Number.isNaN(Date.parse(after.at)))) {
      throw invalidCursor();
    }
    const key = after && { at: after.at, id: after.id };
    const now = this.clock.now();
    const { statuses, ...rest } = filter;
    const waitingStatuses = statuses?.filter(isWaitingStatus);
    const finalStatuses = statuses?.filter((status): status is ExecutionStatus => !isWaitingStatus(status));
    const waiting =
      waitingStatuses?.length === 0 ? [] : await this.tasks.listWaiting({ ...rest, statuses: waitingStatuses }, key && { at: new Date(key.at), id: key.id }, now, limit + 1);
    const finals = finalStatuses?.length === 0 ? [] : await this.reads.list({ ...rest, statuses: finalStatuses }, key, limit + 1);
    const ended = new Set(finals.map((execution) => execution.id));
    const rows: ShownExecution[] = [...finals, ...waiting.filter((task) => !ended.has(task.id)).map((task) => waitingView(task, undefined, now))].sort(newestFirst);
    return pageOf(rows, limit, (row) => row, (last) => ({ at: last.startedAt, id: last.id }) satisfies ExecutionKey);
  }
}

function isWaitingStatus(status: string): status is WaitingStatus {
  return (WAITING_STATUSES as readonly string[]).includes(status);
}

/** (startedAt, id) descending, as the listing's keyset orders. */
function newestFirst(a: ShownExecution, b: ShownExecution): number {
  return Date.parse(b.startedAt) - Date.parse(a.startedAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** A well-formed cursor whose key could not come from this listing (same answer as a malformed one). */
function invalidCursor(): ValidationFailed {
  return new ValidationFailed([{ path: 'cursor', message: 'is not a cursor this endpoint issued' }], 'The cursor is invalid.', 'INVALID_CURSOR');
}
