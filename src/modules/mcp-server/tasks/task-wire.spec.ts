import fc from 'fast-check';
import { GetTaskResultV1Schema, TaskV1Schema } from '@modelcontextprotocol/ext-tasks/core/v1';
import { CreateTaskResultV2Schema, GetTaskResultV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import { EXECUTION_STATUSES } from '../../executions/domain/execution.js';
import {
  decodeTaskCursor,
  declaresTasksExtension,
  declaredTaskSupport,
  encodeTaskCursor,
  isTaskIdShape,
  mcpTaskStatusOf,
  readTaskId,
  readTaskParam,
  toTaskV1,
  toTaskV2,
  WAITING_FOR_APPROVAL,
  type McpTaskView,
} from './task-wire.js';

const ID = '0190f5a8-1c2b-7d3e-8f40-123456789abc';

describe('mcpTaskStatusOf', () => {
  it('maps every execution status and both waiting states', () => {
    const mapped = Object.fromEntries([...EXECUTION_STATUSES, 'working' as const, 'pending_approval' as const].map((status) => [status, mcpTaskStatusOf(status)]));
    expect(mapped).toEqual({
      working: { status: 'working' },
      pending_approval: { status: 'working', statusMessage: WAITING_FOR_APPROVAL },
      succeeded: { status: 'completed' },
      tool_error: { status: 'completed' },
      cancelled: { status: 'cancelled' },
      invalid_arguments: { status: 'failed' },
      rejected: { status: 'failed' },
      circuit_open: { status: 'failed' },
      timeout: { status: 'failed' },
      upstream_error: { status: 'failed' },
      input_required: { status: 'failed' },
      interrupted: { status: 'failed' },
    });
  });
});

describe('the task on the wire', () => {
  const view: McpTaskView = {
    taskId: ID,
    status: 'working',
    statusMessage: WAITING_FOR_APPROVAL,
    createdAt: new Date('2026-01-02T03:04:05.000Z'),
    lastUpdatedAt: new Date('2026-01-02T03:04:06.000Z'),
    ttlMs: 60_000,
    pollIntervalMs: 1000,
  };

  it('is a 2025-11-25 Task with ttl and pollInterval', () => {
    const task = toTaskV1(view);
    expect(task).toEqual({
      taskId: ID,
      status: 'working',
      statusMessage: WAITING_FOR_APPROVAL,
      createdAt: '2026-01-02T03:04:05.000Z',
      lastUpdatedAt: '2026-01-02T03:04:06.000Z',
      ttl: 60_000,
      pollInterval: 1000,
    });
    expect(TaskV1Schema.parse(task)).toEqual(task);
    expect(GetTaskResultV1Schema.safeParse(toTaskV1({ ...view, ttlMs: null })).success).toBe(true);
  });

  it('is a 2026-07-28 Task with ttlMs and pollIntervalMs, and no v1 names', () => {
    const task = toTaskV2({ ...view, statusMessage: undefined });
    expect(task).toEqual({ taskId: ID, status: 'working', createdAt: '2026-01-02T03:04:05.000Z', lastUpdatedAt: '2026-01-02T03:04:06.000Z', ttlMs: 60_000, pollIntervalMs: 1000 });
    expect(CreateTaskResultV2Schema.safeParse({ resultType: 'task', ...task }).success).toBe(true);
    expect(GetTaskResultV2Schema.safeParse({ resultType: 'complete', ...task }).success).toBe(true);
  });
});

describe('reading what a caller sends', () => {
  it('reads params.task of a 2025-11-25 call', () => {
    expect(readTaskParam({ name: 'x' })).toBeUndefined();
    expect(readTaskParam({ name: 'x', task: {} })).toEqual({});
    expect(readTaskParam({ name: 'x', task: { ttl: 5000 } })).toEqual({ ttlMs: 5000 });
    expect(readTaskParam({ task: { ttl: 0 } })).toEqual({ problem: expect.stringContaining('at least 1') });
    expect(readTaskParam({ task: { ttl: 1.5 } })).toEqual({ problem: expect.stringContaining('params.task') });
    expect(readTaskParam({ task: 'yes' })).toEqual({ problem: expect.stringContaining('params.task') });
  });

  it('never throws on foreign params.task, and answers a positive integer ttl or a problem', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.anything(), (task, other) => {
        const read = readTaskParam({ name: 'x', task, other });
        if (read === undefined) return task === undefined;
        if ('problem' in read) return typeof read.problem === 'string';
        return read.ttlMs === undefined || (Number.isSafeInteger(read.ttlMs) && read.ttlMs >= 1);
      }),
    );
  });

  it('reads a task id, and knows which can name a task at all', () => {
    expect(readTaskId({ taskId: ID })).toEqual({ taskId: ID });
    expect(readTaskId({})).toEqual({ problem: 'params.taskId: must be a string' });
    expect(readTaskId(null)).toEqual({ problem: 'params.taskId: must be a string' });
    expect(isTaskIdShape(ID)).toBe(true);
    expect(isTaskIdShape(ID.toUpperCase())).toBe(false);
    expect(isTaskIdShape(`${ID}0`)).toBe(false);
    fc.assert(
      fc.property(fc.anything(), (params) => {
        const read = readTaskId(params);
        return 'problem' in read || (read.taskId.length <= 65 && typeof read.taskId === 'string');
      }),
    );
  });

  it('issues cursors it reads back, and reads no other', () => {
    expect(decodeTaskCursor(encodeTaskCursor(ID))).toBe(ID);
    expect(decodeTaskCursor(undefined)).toBeUndefined();
    expect(decodeTaskCursor('not a cursor')).toBeUndefined();
    fc.assert(fc.property(fc.uuid(), (id) => decodeTaskCursor(encodeTaskCursor(id)) === (isTaskIdShape(id) ? id : undefined)));
    fc.assert(fc.property(fc.anything(), (cursor) => decodeTaskCursor(cursor) === undefined || isTaskIdShape(decodeTaskCursor(cursor)!)));
  });

  it('finds the tasks extension in client capabilities, and the task support a tool declares', () => {
    expect(declaresTasksExtension({ extensions: { 'io.modelcontextprotocol/tasks': {} } })).toBe(true);
    expect(declaresTasksExtension({ extensions: { 'io.modelcontextprotocol/tasks': true } })).toBe(false);
    expect(declaresTasksExtension({ tasks: {} })).toBe(false);
    expect(declaredTaskSupport({ name: 'x', execution: { taskSupport: 'forbidden' } })).toBe('forbidden');
    expect(declaredTaskSupport({ name: 'x', execution: { taskSupport: 'sometimes' } })).toBeUndefined();
    fc.assert(fc.property(fc.anything(), (capabilities) => typeof declaresTasksExtension(capabilities) === 'boolean'));
    fc.assert(fc.property(fc.anything(), (definition) => [undefined, 'forbidden', 'optional', 'required'].includes(declaredTaskSupport(definition))));
  });
});
