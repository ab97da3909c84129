import { ProtocolError } from '@modelcontextprotocol/client';
import { abortSignalOf } from '../shared/caller-signal.js';
import type { Deadline } from './deadline.js';
import { UpstreamError } from './upstream-error.js';

/** How a tool call asks the upstream for a task: `require` for a tool that must run as one, `prefer` for one that may. */
export type TaskPreference = 'require' | 'prefer';

export interface TaskCallStart {
  name: string;
  arguments: Record<string, unknown>;
  /** The call's `_meta` (its progress token and trace context among it). */
  meta: Record<string, unknown>;
  preference: TaskPreference;
  /** A 2026-07-28 caller's answers to the rounds of input the upstream asked for before it made a task, and its state, echoed. */
  continuation?: { inputResponses?: Record<string, unknown>; requestState?: string };
  /** The longest any one request of the task (creating, polling, fetching the result) may take. */
  requestTimeoutMs: number;
}

/** How a task ended upstream, as its requester sees it. */
export type TaskCallOutcome =
  | { status: 'completed'; result: unknown }
  | { status: 'failed'; message: string; code?: number; data?: unknown }
  | { status: 'cancelled' };

/**
 * A tool call the upstream took: as a task (`taskId` set), or answered at once — with its result,
 * or (2026-07-28) with a round of `input_required` for the caller to answer before any task exists.
 */
export interface StartedTaskCall {
  readonly taskId: string | undefined;
  /** Waits for the outcome (polling the task); `signal` stops the waiting, not the task. */
  settle(signal: AbortSignal): Promise<TaskCallOutcome>;
  /** Asks the upstream to cancel the task (`tasks/cancel`). */
  cancel(signal: AbortSignal): Promise<void>;
  /** Lets go of the call locally. */
  close(): Promise<void>;
}

/** Starts tool calls that may become tasks on one upstream connection (see ExtTasksCalls). */
export interface UpstreamTaskCalls {
  start(call: TaskCallStart): Promise<StartedTaskCall>;
}

/** How long a `tasks/cancel` may take once the caller left or the deadline passed; the answer waits this long at most. */
export const TASK_CANCEL_GRACE_MS = 2_000;
/** What stands in for the upstream's task id in a message that quoted it. */
const HIDDEN_TASK_ID = '[upstream task]';

/**
 * Runs one tool call as a task upstream, within the call's deadline: creates it, tells `onCreated`
 * the upstream's task id, waits for its outcome and answers the tool's result as the upstream
 * answered it (the raw CallToolResult). The caller leaving or the deadline passing sends
 * `tasks/cancel` (waited for at most TASK_CANCEL_GRACE_MS) and fails as the deadline says
 * (cancelled or timed out); a task that the upstream failed or cancelled is a protocol failure.
 * The upstream's task id never appears in what this answers or throws.
 */
export async function runUpstreamTask(calls: UpstreamTaskCalls, start: TaskCallStart, deadline: Deadline, onCreated?: (taskId: string) => void): Promise<unknown> {
  const creating = calls.start(start);
  let started: StartedTaskCall;
  try {
    started = await deadline.run(`creating a task for ${start.name}`, () => creating);
  } catch (error) {
    // Created after the caller left or the time ran out: nobody waits for it.
    creating.then((late) => cancelQuietly(late).finally(() => void late.close()), () => undefined);
    throw error;
  }
  const taskId = started.taskId;
  try {
    if (taskId !== undefined && onCreated) {
      try {
        onCreated(taskId);
      } catch {
        // keeping the id is Toolplane's business; the call goes on
      }
    }
    const outcome = await deadline.run(`waiting for the task of ${start.name}`, () => started.settle(abortSignalOf(deadline.signal)));
    switch (outcome.status) {
      case 'completed':
        return outcome.result;
      case 'cancelled':
        throw new UpstreamError('protocol', `the upstream cancelled the task of ${start.name}`);
      case 'failed':
        throw new UpstreamError('protocol', `the task of ${start.name} failed upstream: ${outcome.message}`, {
          cause: outcome.code !== undefined ? new ProtocolError(outcome.code, outcome.message, outcome.data) : undefined,
        });
    }
  } catch (error) {
    if (deadline.signal.aborted && taskId !== undefined) await cancelQuietly(started);
    throw taskId === undefined ? error : withoutTaskId(error, taskId);
  } finally {
    void started.close().catch(() => undefined);
  }
}

function cancelQuietly(started: StartedTaskCall): Promise<void> {
  if (started.taskId === undefined) return Promise.resolve();
  return started.cancel(AbortSignal.timeout(TASK_CANCEL_GRACE_MS)).catch(() => undefined);
}

/** The error with the task id replaced in its message, its cause's and its JSON-RPC data (which the record may keep). */
export function withoutTaskId(error: unknown, taskId: string): unknown {
  if (!(error instanceof Error)) return error;
  const cause = error.cause === undefined ? undefined : withoutTaskId(error.cause, taskId);
  if (error instanceof ProtocolError) return new ProtocolError(error.code, hide(error.message, taskId), hideIn(error.data, taskId));
  if (error instanceof UpstreamError) return new UpstreamError(error.kind, hide(error.message, taskId), { cause, ...(error.httpStatus !== undefined ? { httpStatus: error.httpStatus } : {}) });
  if (!error.message.includes(taskId) && cause === error.cause) return error;
  const copy = new Error(hide(error.message, taskId), { cause });
  copy.name = error.name;
  return copy;
}

function hide(text: string, taskId: string): string {
  return text.split(taskId).join(HIDDEN_TASK_ID);
}

function hideIn(data: unknown, taskId: string): unknown {
  if (data === undefined) return undefined;
  const text = JSON.stringify(data, (_key, value: unknown) => (typeof value === 'string' ? hide(value, taskId) : value));
  return text === undefined ? undefined : JSON.parse(text);
}
