import { NotFound } from '../../../shared/domain-error.js';
import type { ExecutionRecord, InterceptorRun } from '../domain/execution.js';
import type { Page } from '../../../shared/page.js';

/** One execution as the API shows it: the record, with its start as an ISO string, its trace id null when traces were off, and its interceptors' runs (empty when none ran). */
export type ExecutionView = Omit<ExecutionRecord, 'startedAt' | 'traceId' | 'group' | 'interceptors'> & { startedAt: string; traceId: string | null; group: string | null; interceptors: InterceptorRun[] };

export type ExecutionPage = Page<ExecutionView>;

/** The record a view shows (for the codecs that answer from a record). */
export function recordOfView(view: ExecutionView): ExecutionRecord {
  return { ...view, startedAt: new Date(view.startedAt), interceptors: view.interceptors };
}

export function executionNotFound(id: string): NotFound {
  return new NotFound('EXECUTION_NOT_FOUND', `No execution with id "${id.slice(0, 100)}".`);
}
