import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/server';
import type { TaskState } from '../../executions/application/task-state.js';
import type { TaskInputRequest } from '../../executions/domain/execution-task.js';
import { isRecord } from '../../../shared/is-record.js';
import { frameOf } from './task-subscription-wire.js';

/**
 * What a 2025-11-25 task waiting for input puts to its caller: as that revision has it, its
 * requests go on the stream of the caller's `tasks/result`, each a JSON-RPC request with the
 * related-task `_meta`, and the caller posts its answers as JSON-RPC responses. The request's id
 * names the task and the request's key (`toolplane-input:<task>:<key>`), so whichever replica the
 * answer reaches can hand it to the task (through its row), with no state kept per stream.
 */
const INPUT_ID_PREFIX = 'toolplane-input:';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const INPUT_ID = new RegExp(`^${INPUT_ID_PREFIX}(${UUID}):(${UUID})$`);

/** The id of the request that puts the task's request `key` to its caller. */
export function inputRequestId(taskId: string, key: string): string {
  return `${INPUT_ID_PREFIX}${taskId}:${key}`;
}

/** A caller's answer to one of those requests: the task, the request's key, and the result, or null for a JSON-RPC error. */
export interface InputAnswer {
  taskId: string;
  key: string;
  result: Record<string, unknown> | null;
}

/** The answer a posted message carries, or undefined when it is not an answer to such a request. */
export function readInputAnswer(body: unknown): InputAnswer | undefined {
  if (!isRecord(body) || body.method !== undefined || typeof body.id !== 'string' || !body.id.startsWith(INPUT_ID_PREFIX)) return undefined;
  const named = INPUT_ID.exec(body.id);
  if (!named) return undefined;
  if (isRecord(body.result)) return { taskId: named[1]!, key: named[2]!, result: body.result };
  return 'error' in body ? { taskId: named[1]!, key: named[2]!, result: null } : undefined;
}

/** The request that puts the task's request `key` to its caller, with the related task in its `_meta`. */
export function inputRequestMessage(taskId: string, key: string, request: TaskInputRequest): Record<string, unknown> {
  const params = isRecord(request.params) ? request.params : {};
  const meta = isRecord(params._meta) ? params._meta : {};
  return { jsonrpc: '2.0', id: inputRequestId(taskId, key), method: request.method, params: { ...params, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId } } } };
}

/**
 * The stream of a `tasks/result` whose task waits for input: each request the task opens, once,
 * while it waits; then `final()` (the answer to the `tasks/result` itself) once the task ended.
 * Ends without an answer when `states` ends early (the caller left, the task expired).
 */
export function legacyResultStream(taskId: string, states: AsyncIterable<TaskState>, final: (state: TaskState) => Promise<Record<string, unknown>>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const sent = new Set<string>();
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        for await (const state of states) {
          if (state.final) {
            controller.enqueue(encoder.encode(frameOf(await final(state))));
            break;
          }
          const open = state.status === 'awaiting_input' ? (state.task?.inputRequests ?? {}) : {};
          for (const [key, request] of Object.entries(open)) {
            if (sent.has(key)) continue;
            sent.add(key);
            controller.enqueue(encoder.encode(frameOf(inputRequestMessage(taskId, key, request))));
          }
        }
      } catch {
        // The caller went away while the answer was being read: nothing more to send.
      } finally {
        controller.close();
      }
    },
  });
}
