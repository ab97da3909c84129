import { randomUUID } from 'node:crypto';
import { encodeCursor } from '../../../../shared/http/cursor.js';
import { rejection } from '../../../../shared/testing/rejection.js';
import type { ExecutionView } from '../execution-view.js';
import { aTask, anExecution, anExecutionId } from '../../testing/builders.js';
import { InMemoryExecutionReads } from '../../testing/in-memory-execution-reads.js';
import { ListExecutionsHandler } from './list-executions.handler.js';
import { ExecutionFilter, ListExecutionsQuery } from './list-executions.query.js';
import { FixedClock } from '../../../../shared/testing/fixed-clock.js';
import type { ExecutionTask } from '../../domain/execution-task.js';
import { InMemoryExecutionTasks } from '../../testing/in-memory-execution-tasks.js';

function aWaitingCall(startedAt: string, overrides: Partial<ExecutionTask> = {}): ExecutionTask {
  return aTask({ id: randomUUID(), createdAt: new Date(startedAt), sourceName: 'files', ...overrides });
}

function setup(executions: ExecutionView[], waiting: ExecutionTask[] = []) {
  const reads = new InMemoryExecutionReads(executions);
  const tasks = new InMemoryExecutionTasks();
  for (const task of waiting) tasks.rows.set(task.id, task);
  const handler = new ListExecutionsHandler(reads, tasks, new FixedClock('2026-02-01T12:00:00.000Z'));
  const list = (limit: number, cursor?: string, filter: ExecutionFilter = {}) => handler.execute(new ListExecutionsQuery(filter, cursor, limit));
  /** The ids of every page from the first, following the cursors (a cursor leading back fails, not loops). */
  const walk = async (limit: number, filter: ExecutionFilter = {}) => {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await list(limit, cursor, filter);
      pages.push(page.items.map((e) => e.id));
      cursor = page.nextCursor ?? undefined;
      if (pages.length > 100) throw new Error(`the cursors lead on past 100 pages: ${JSON.stringify(pages.slice(0, 5))}`);
    } while (cursor);
    return pages;
  };
  return { reads, tasks, list, walk };
}

describe('ListExecutionsHandler', () => {
  it('pages newest first and the cursor of a page leads to the next, calls started in the same instant included', async () => {
    const sameInstant = '2026-02-01T10:00:00.000Z';
    const [a, b, c, d, e] = [
      anExecution({ startedAt: '2026-02-01T09:00:00.000Z' }),
      anExecution({ startedAt: sameInstant }),
      anExecution({ startedAt: sameInstant }),
      anExecution({ startedAt: sameInstant }),
      anExecution({ startedAt: '2026-02-01T11:00:00.000Z' }),
    ];
    const f = setup([a!, b!, c!, d!, e!]);

    expect(await f.walk(2)).toEqual([
      [e!.id, d!.id],
      [c!.id, b!.id],
      [a!.id],
    ]);
    const first = await f.list(2);
    expect(first.items).toEqual([e, d]);
  });

  it('answers no next cursor when the last page is exactly full', async () => {
    const f = setup([anExecution(), anExecution(), anExecution(), anExecution()]);
    const first = await f.list(2);
    expect(first.nextCursor).not.toBeNull();
    const second = await f.list(2, first.nextCursor!);
    expect(second.items).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
    expect((await f.list(4)).nextCursor).toBeNull();
  });

  it('lists only what the filter matches, pages included', async () => {
    const failed = [anExecution({ status: 'timeout' }), anExecution({ status: 'tool_error', isError: true }), anExecution({ status: 'timeout' })];
    const f = setup([anExecution(), failed[0]!, anExecution({ status: 'timeout', sourceName: 'other' }), failed[1]!, anExecution(), failed[2]!]);
    expect(await f.walk(2, { source: 'files', statuses: ['timeout', 'tool_error'] })).toEqual([[failed[2]!.id, failed[1]!.id], [failed[0]!.id]]);
  });

  it('lists the calls that wait among the records by when they started, in the same pages, once each', async () => {
    const [a, b, c] = [anExecution({ startedAt: '2026-02-01T09:00:00.000Z' }), anExecution({ startedAt: '2026-02-01T10:00:00.000Z' }), anExecution({ startedAt: '2026-02-01T11:00:00.000Z' })];
    const working = aWaitingCall('2026-02-01T11:30:00.000Z');
    const held = aWaitingCall('2026-02-01T09:30:00.000Z', { status: 'pending_approval', approvalId: 'ap-1' });
    // Its final record was written as the listing read: it is listed by its record alone.
    const ended = aWaitingCall(b!.startedAt, { id: b!.id });
    const f = setup([a!, b!, c!], [working, held, ended]);
    expect(await f.walk(2)).toEqual([
      [working.id, c!.id],
      [b!.id, held.id],
      [a!.id],
    ]);
    const first = await f.list(1);
    expect(first.items).toEqual([expect.objectContaining({ id: working.id, status: 'working', qualifiedName: 'files__write', result: null, error: null, startedAt: '2026-02-01T11:30:00.000Z', durationMs: 30 * 60_000 })]);
    expect(await f.walk(5, { statuses: ['pending_approval', 'succeeded'] })).toEqual([[c!.id, b!.id, held.id, a!.id]]);
    // The port leaves out the tasks whose record it sees.
    f.tasks.finished.add(ended.id);
    expect(await f.walk(5, { statuses: ['working'] })).toEqual([[working.id]]);
    expect(await f.walk(5, { statuses: ['succeeded'] })).toEqual([[c!.id, b!.id, a!.id]]);
  });

  it('refuses a cursor it could not have issued with INVALID_CURSOR on cursor, before reading the history', async () => {
    const f = setup([anExecution()]);
    for (const cursor of [
      'not a cursor!',
      encodeCursor({ at: 'yesterday', id: anExecutionId(1) }),
      encodeCursor({ at: '2026-01-01T00:00:00.000Z', id: 'files' }),
      encodeCursor({ at: '2026-01-01T00:00:00.000Z' } as Record<string, string>),
    ]) {
      const error = await rejection(f.list(10, cursor));
      expect(error).toMatchObject({ kind: 'invalid', code: 'INVALID_CURSOR', details: [{ path: 'cursor', message: 'is not a cursor this endpoint issued' }] });
    }
    expect(f.reads.calls).toEqual([]);
  });
});
