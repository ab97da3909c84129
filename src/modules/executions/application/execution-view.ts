import { NotFound } from '../../../shared/domain-error.js';
import type { ExecutionChannel, ExecutionRecord, ExecutionStatus } from '../domain/execution.js';
import type { ExecutionOrmEntity } from '../infrastructure/execution.orm-entity.js';
import type { Page } from '../../../shared/page.js';

/** One execution as the API shows it: the record, with its start as an ISO string and its trace id null when traces were off. */
export type ExecutionView = Omit<ExecutionRecord, 'startedAt' | 'traceId'> & { startedAt: string; traceId: string | null };

export type ExecutionPage = Page<ExecutionView>;

export function toExecutionView(e: ExecutionOrmEntity): ExecutionView {
  return {
    id: e.id,
    toolId: e.toolId,
    qualifiedName: e.qualifiedName,
    sourceId: e.sourceId,
    sourceName: e.sourceName,
    definitionHash: e.definitionHash,
    caller: e.caller,
    channel: e.channel as ExecutionChannel,
    arguments: e.arguments,
    status: e.status as ExecutionStatus,
    isError: e.isError,
    result: e.result,
    error: e.error,
    attempts: e.attempts,
    startedAt: e.startedAt.toISOString(),
    durationMs: e.durationMs,
    traceId: e.traceId ?? null,
  };
}

export function executionNotFound(id: string): NotFound {
  return new NotFound('EXECUTION_NOT_FOUND', `No execution with id "${id.slice(0, 100)}".`);
}
