import { rejection } from '../../../../shared/testing/rejection.js';
import { FixedClock } from '../../../../shared/testing/fixed-clock.js';
import type { ExecutionTask } from '../../domain/execution-task.js';
import { aTask, anExecution, anExecutionId } from '../../testing/builders.js';
import { InMemoryExecutionReads } from '../../testing/in-memory-execution-reads.js';
import { InMemoryExecutionTasks } from '../../testing/in-memory-execution-tasks.js';
import { GetExecutionHandler } from './get-execution.handler.js';
import { GetExecutionQuery } from './get-execution.query.js';

describe('GetExecutionHandler', () => {
  const execution = anExecution({ status: 'tool_error', isError: true, traceId: '4bf92f3577b34da6a3ce929d0e0e4736' });
  const reads = new InMemoryExecutionReads([anExecution(), execution]);
  const tasks = new InMemoryExecutionTasks();
  const clock = new FixedClock('2026-02-01T00:00:05.000Z');
  const get = (id: string) => new GetExecutionHandler(reads, tasks, clock).execute(new GetExecutionQuery(id));
  const task = (id: string, overrides: Partial<ExecutionTask> = {}): ExecutionTask => aTask({ id, upstreamTaskId: 'upstream-7', ...overrides });

  beforeEach(() => reads.calls.splice(0));

  it('answers the execution as recorded', async () => {
    expect(await get(execution.id)).toEqual(execution);
  });

  it('answers EXECUTION_NOT_FOUND for an id no execution has', async () => {
    const error = await rejection(get(anExecutionId(999_999)));
    expect(error).toMatchObject({ kind: 'not_found', code: 'EXECUTION_NOT_FOUND', message: `No execution with id "${anExecutionId(999_999)}".` });
    expect(reads.calls).toEqual(['get']);
  });

  it('answers EXECUTION_NOT_FOUND for what is not a uuid without reading, naming at most 100 characters of it', async () => {
    const error = await rejection(get(`files${'x'.repeat(200)}`));
    expect(error).toMatchObject({ kind: 'not_found', code: 'EXECUTION_NOT_FOUND', message: `No execution with id "files${'x'.repeat(95)}".` });
    expect(reads.calls).toEqual([]);
  });

  it('answers a call without a final record where its task stands: waiting, no result, never the upstream task', async () => {
    const id = anExecutionId(500);
    await tasks.create(task(id, { status: 'pending_approval' }));
    const shown = await get(id);
    expect(shown).toEqual({
      id,
      toolId: null,
      qualifiedName: 'files__write',
      sourceId: null,
      sourceName: null,
      group: null,
      definitionHash: null,
      caller: { principalId: 'key_1', principalName: 'ci' },
      channel: 'rest',
      arguments: null,
      status: 'pending_approval',
      isError: false,
      result: null,
      error: null,
      attempts: 0,
      startedAt: '2026-02-01T00:00:00.000Z',
      durationMs: 5000,
      traceId: null,
      interceptors: [],
    });
    expect(JSON.stringify(shown)).not.toContain('upstream-7');
  });

  it('answers the final record once there is one, whatever the task row still says', async () => {
    await tasks.create(task(execution.id));
    expect(await get(execution.id)).toEqual(execution);
  });
});
