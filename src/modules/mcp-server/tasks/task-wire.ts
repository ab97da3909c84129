import { TaskMetadataV1Schema, type TaskStatusV1, type TaskV1 } from '@modelcontextprotocol/ext-tasks/core/v1';
import { TASKS_EXTENSION_ID_V2, type TaskV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import type { ExecutionStatus } from '../../executions/domain/execution.js';
import type { WaitingStatus } from '../../executions/domain/execution-task.js';
import { isRecord } from '../../../shared/is-record.js';

/** The 2026-07-28 tasks extension, as a caller declares it in its request's client capabilities and a server in server/discover. */
export const TASKS_EXTENSION = TASKS_EXTENSION_ID_V2;

/** What a 2025-11-25 server advertises in `initialize`: tasks of tool calls, listed and cancelled. */
export const LEGACY_TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } } as const;

/** A task's status on either era's wire (both revisions name the same five). */
export type McpTaskStatus = TaskStatusV1;

export const WAITING_FOR_APPROVAL = 'waiting for approval';

/**
 * The MCP status of a call that outlives its request:
 *
 * - still waiting (`working`, or held for a person's decision): `working`;
 * - waiting for its caller's answers to what the upstream asked: `input_required`;
 * - the tool ran (`succeeded`, or its own `isError` result): `completed` — a tool's error is a
 *   result the caller reads, not a failure of the task;
 * - `cancelled`: `cancelled`;
 * - any other final status (refused, invalid arguments, timeout, upstream failure, interrupted by a
 *   restart, an upstream asking for input a detached call cannot give): `failed`.
 */
export function mcpTaskStatusOf(status: ExecutionStatus | WaitingStatus): { status: McpTaskStatus; statusMessage?: string } {
  switch (status) {
    case 'working':
      return { status: 'working' };
    case 'pending_approval':
      return { status: 'working', statusMessage: WAITING_FOR_APPROVAL };
    case 'awaiting_input':
      return { status: 'input_required' };
    case 'succeeded':
    case 'tool_error':
      return { status: 'completed' };
    case 'cancelled':
      return { status: 'cancelled' };
    default:
      return { status: 'failed' };
  }
}

export function isTerminal(status: McpTaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** A task as Toolplane answers it, before either era's field names are put on it. */
export interface McpTaskView {
  taskId: string;
  status: McpTaskStatus;
  statusMessage?: string;
  createdAt: Date;
  lastUpdatedAt: Date;
  /** How long it is kept after its creation; null: as long as executions are (forever when retention is off). */
  ttlMs: number | null;
  pollIntervalMs: number;
}

/** The 2025-11-25 `Task`. */
export function toTaskV1(view: McpTaskView): TaskV1 {
  return {
    taskId: view.taskId,
    status: view.status,
    ...(view.statusMessage !== undefined ? { statusMessage: view.statusMessage } : {}),
    createdAt: view.createdAt.toISOString(),
    lastUpdatedAt: view.lastUpdatedAt.toISOString(),
    ttl: view.ttlMs,
    pollInterval: view.pollIntervalMs,
  };
}

/** The 2026-07-28 extension's `Task` (the fields of `CreateTaskResult` and of `tasks/get`). */
export function toTaskV2(view: McpTaskView): TaskV2 {
  return {
    taskId: view.taskId,
    status: view.status,
    ...(view.statusMessage !== undefined ? { statusMessage: view.statusMessage } : {}),
    createdAt: view.createdAt.toISOString(),
    lastUpdatedAt: view.lastUpdatedAt.toISOString(),
    ttlMs: view.ttlMs,
    pollIntervalMs: view.pollIntervalMs,
  };
}

/** The longest task id read from a request: Toolplane's ids are UUIDs, anything longer names no task. */
const MAX_TASK_ID_LENGTH = 64;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The `taskId` of a `tasks/*` request's params: a problem when it is missing or not a string. */
export function readTaskId(params: unknown): { taskId: string } | { problem: string } {
  if (!isRecord(params) || typeof params.taskId !== 'string') return { problem: 'params.taskId: must be a string' };
  return { taskId: params.taskId.slice(0, MAX_TASK_ID_LENGTH + 1) };
}

/** Whether a task id can name one of Toolplane's tasks (an execution id): others are answered as unknown without a lookup. */
export function isTaskIdShape(taskId: string): boolean {
  return taskId.length <= MAX_TASK_ID_LENGTH && UUID.test(taskId);
}

/**
 * A 2025-11-25 `tools/call`'s `params.task` (`{ ttl? }`, ttl in milliseconds): undefined when the
 * call does not ask for a task, a problem when what it sent is not a task request.
 */
export function readTaskParam(params: unknown): { ttlMs?: number } | { problem: string } | undefined {
  if (!isRecord(params) || !('task' in params) || params.task === undefined) return undefined;
  const parsed = TaskMetadataV1Schema.safeParse(params.task);
  if (!parsed.success) return { problem: 'params.task: must be an object whose ttl, when given, is an integer number of milliseconds' };
  const { ttl } = parsed.data;
  if (ttl !== undefined && ttl < 1) return { problem: 'params.task.ttl: must be at least 1 (milliseconds)' };
  return ttl === undefined ? {} : { ttlMs: ttl };
}

/** Whether a 2026-07-28 request's client capabilities declare the tasks extension. */
export function declaresTasksExtension(capabilities: unknown): boolean {
  return isRecord(capabilities) && isRecord(capabilities.extensions) && isRecord(capabilities.extensions[TASKS_EXTENSION]);
}

/**
 * How a tool lets itself be run as a task, as its upstream declared it (`execution.taskSupport`);
 * undefined when it says nothing (Toolplane runs any call as a task then, its tasks being its own).
 */
export function declaredTaskSupport(definition: unknown): 'forbidden' | 'optional' | 'required' | undefined {
  if (!isRecord(definition) || !isRecord(definition.execution)) return undefined;
  const support = definition.execution.taskSupport;
  return support === 'forbidden' || support === 'optional' || support === 'required' ? support : undefined;
}

/** `tasks/list` cursors: the last task of the page, opaque to the caller. */
export function encodeTaskCursor(lastTaskId: string): string {
  return Buffer.from(lastTaskId, 'utf8').toString('base64url');
}

/** The task a cursor names; undefined when it is not one this endpoint issued. */
export function decodeTaskCursor(cursor: unknown): string | undefined {
  if (typeof cursor !== 'string' || cursor.length > 100 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  return isTaskIdShape(id) ? id : undefined;
}
