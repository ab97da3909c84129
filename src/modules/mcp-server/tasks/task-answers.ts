import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';
import type { ExecutionRecord } from '../../executions/domain/execution.js';
import { recordOfView } from '../../executions/application/execution-view.js';
import type { TaskState } from '../../executions/application/task-state.js';
import { toCallToolResult, type ServedEra } from '../calls/call-result.js';
import { projectCallToolResult } from '../calls/tool-call-context.js';
import { mcpTaskStatusOf, toTaskV1, toTaskV2, type McpTaskView } from './task-wire.js';

/** The poll interval suggested for a call that never was a task (it has a record, so it is final). */
const FINAL_POLL_INTERVAL_MS = 1000;

/**
 * The MCP view of a task from where its call stands: the final record's status once there is one
 * (with the time it ended), else the task row's. `retentionMs` is what a TTL left to the execution
 * retention amounts to.
 */
export function taskViewOf(state: TaskState, retentionMs: number | null): McpTaskView {
  const { task, record } = state;
  const mapped = mcpTaskStatusOf(state.status);
  const createdAt = task?.createdAt ?? new Date(record!.startedAt);
  const ended = record ? new Date(new Date(record.startedAt).getTime() + record.durationMs) : undefined;
  const updatedAt = task?.updatedAt;
  const lastUpdatedAt = ended && (!updatedAt || ended > updatedAt) ? ended : (updatedAt ?? createdAt);
  // While it waits, what its row says; once final, why it failed (if it did).
  const waitingMessage = record || !task?.statusMessage ? undefined : task.statusMessage;
  const statusMessage = mapped.statusMessage ?? waitingMessage ?? failureMessage(state);
  return {
    taskId: task?.id ?? record!.id,
    status: mapped.status,
    ...(statusMessage !== undefined ? { statusMessage } : {}),
    createdAt,
    lastUpdatedAt,
    ttlMs: task?.ttlMs ?? retentionMs,
    pollIntervalMs: task?.pollIntervalMs ?? FINAL_POLL_INTERVAL_MS,
  };
}

/** A failed task says why in its status message: the error's code and message, as the record keeps them. */
function failureMessage(state: TaskState): string | undefined {
  const error = state.record?.error;
  if (!error || mcpTaskStatusOf(state.status).status !== 'failed') return undefined;
  return `[${error.code}] ${error.message}`.slice(0, 1000);
}

/** What a call that became a task answers: `{ task }` (2025-11-25) or a flat `CreateTaskResult` (2026-07-28). */
export function createTaskResult(era: ServedEra, view: McpTaskView): Record<string, unknown> {
  return era === 'legacy' ? { task: toTaskV1(view) } : { resultType: 'task', ...toTaskV2(view) };
}

/**
 * The answer the call would have had, from its final record: the CallToolResult (projected for the
 * era), or the JSON-RPC error it would have been answered with (thrown, as toCallToolResult throws it).
 * A record that asks for input (a 2026-07-28 upstream's `input_required`) is an error result: a task
 * runs detached, with nobody to ask.
 */
export function finalCallResult(era: ServedEra, record: ExecutionRecord, requestedName: string, outputSchema: Record<string, unknown> | undefined): CallToolResult {
  const result = toCallToolResult(record, requestedName);
  if ((result as { resultType?: string }).resultType === 'input_required') {
    return { content: [{ type: 'text', text: `[INPUT_REQUIRED] ${requestedName.slice(0, 200)} asked for input, which a call running as a task cannot be given.` }], isError: true };
  }
  return projectCallToolResult(era, result as CallToolResult, outputSchema);
}

/** The 2026-07-28 `error` of a failed task: the JSON-RPC error the call would have been answered with, or its error result's text. */
export function taskErrorOf(record: ExecutionRecord, requestedName: string): { code: number; message: string; data?: unknown } {
  try {
    const result = finalCallResult('modern', record, requestedName, undefined);
    const text = result.content.find((item) => item.type === 'text');
    return {
      code: ProtocolErrorCode.InternalError,
      message: text && 'text' in text ? text.text : 'The call failed.',
      ...(record.error ? { data: { code: record.error.code, execution: record.id } } : {}),
    };
  } catch (error) {
    if (error instanceof ProtocolError) return { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) };
    throw error;
  }
}

/**
 * The 2026-07-28 `DetailedTask` of a task's state, as `tasks/get` answers it and `notifications/tasks`
 * carries it: the task, with the result inlined once completed (a complete CallToolResult), the
 * error once failed, or what it asks while it waits for input.
 */
export function detailedTaskOf(state: TaskState, view: McpTaskView): Record<string, unknown> {
  const detailed: Record<string, unknown> = { ...toTaskV2(view) };
  if (state.record && view.status === 'completed') {
    const record = recordOfView(state.record);
    detailed.result = { ...finalCallResult('modern', record, record.qualifiedName, undefined), resultType: 'complete' };
  } else if (state.record && view.status === 'failed') {
    detailed.error = taskErrorOf(recordOfView(state.record), state.record.qualifiedName);
  } else if (view.status === 'input_required' && state.task?.inputRequests) {
    detailed.inputRequests = state.task.inputRequests;
  }
  return detailed;
}
