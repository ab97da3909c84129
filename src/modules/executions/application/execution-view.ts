import { NotFound } from '../../../shared/domain-error.js';
import type { ExecutionRecord } from '../domain/execution.js';
import type { Page } from '../../../shared/page.js';

/** One execution as the API shows it: the record, with its start as an ISO string and its trace id null when traces were off. */
export type ExecutionView = Omit<ExecutionRecord, 'startedAt' | 'traceId' | 'group'> & { startedAt: string; traceId: string | null; group: string | null };

export type ExecutionPage = Page<ExecutionView>;

export function executionNotFound(id: string): NotFound {
  return new NotFound('EXECUTION_NOT_FOUND', `No execution with id "${id.slice(0, 100)}".`);
}
