import { NotFound } from '../../../shared/domain-error.js';
import type { ExecutionRecord, InterceptorRun } from '../domain/execution.js';
import { WAITING_STATUSES, type ExecutionTask, type WaitingStatus } from '../domain/execution-task.js';
import type { Page } from '../../../shared/page.js';

/** One execution as the API shows it: the record, with its start as an ISO string, its trace id null when traces were off, and its interceptors' runs (empty when none ran). */
export type ExecutionView = Omit<ExecutionRecord, 'startedAt' | 'traceId' | 'group' | 'interceptors'> & { startedAt: string; traceId: string | null; group: string | null; interceptors: InterceptorRun[] };


/** A call with no final record yet, as the API shows it: the view with its waiting status, no result and no error. */
export type WaitingExecutionView = Omit<ExecutionView, 'status'> & { status: WaitingStatus };

/** What `GET /api/v1/executions/{id}` shows: the final record, or where a call that has none yet stands. */
export type ShownExecution = ExecutionView | WaitingExecutionView;

/** A page of the history: final records and waiting calls, newest first. */
export type ExecutionPage = Page<ShownExecution>;

/**
 * A waiting call from its task row (its source once known), with the call's fields (tool, source,
 * group, arguments) from the record that names it when there is one (a held call's); `durationMs`
 * is how long it has waited so far.
 */
export function waitingView(task: ExecutionTask, call: ExecutionRecord | undefined, now: Date): WaitingExecutionView {
  return {
    id: task.id,
    toolId: call?.toolId ?? null,
    qualifiedName: call?.qualifiedName ?? task.qualifiedName,
    sourceId: call?.sourceId ?? task.sourceId,
    sourceName: call?.sourceName ?? task.sourceName,
    group: call?.group ?? task.group,
    definitionHash: call?.definitionHash ?? null,
    caller: call?.caller ?? { principalId: task.principalId, principalName: task.principalName },
    channel: task.channel,
    arguments: call?.arguments ?? null,
    status: task.status,
    isError: false,
    // Waiting for its caller's answers: what is asked, under the keys the answers name.
    result: task.status === 'awaiting_input' && task.inputRequests ? { content: [], truncated: false, originalBytes: 0, inputRequests: task.inputRequests } : null,
    error: null,
    attempts: 0,
    startedAt: task.createdAt.toISOString(),
    durationMs: Math.max(0, now.getTime() - task.createdAt.getTime()),
    traceId: call?.traceId ?? null,
    interceptors: call?.interceptors ?? [],
  };
}

/** Whether a view is of a call that has not ended. */
export function isWaiting(view: ShownExecution): view is WaitingExecutionView {
  return (WAITING_STATUSES as readonly string[]).includes(view.status);
}

/** The record a view shows (for the codecs that answer from a record). */
export function recordOfView(view: ExecutionView): ExecutionRecord {
  return { ...view, startedAt: new Date(view.startedAt), interceptors: view.interceptors };
}

export function executionNotFound(id: string): NotFound {
  return new NotFound('EXECUTION_NOT_FOUND', `No execution with id "${id.slice(0, 100)}".`);
}
