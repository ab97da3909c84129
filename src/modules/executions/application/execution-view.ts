import { NotFound } from '../../../shared/domain-error.js';
import type { ExecutionCaller, ExecutionError, ExecutionResult, ExecutionStatus } from '../domain/execution.js';

/** One execution as the API shows it. */
export interface ExecutionView {
  id: string;
  toolId: string | null;
  qualifiedName: string;
  sourceId: string | null;
  sourceName: string | null;
  definitionHash: string | null;
  caller: ExecutionCaller;
  channel: string;
  arguments: unknown;
  status: ExecutionStatus;
  isError: boolean;
  result: ExecutionResult | null;
  error: ExecutionError | null;
  attempts: number;
  startedAt: string;
  durationMs: number;
  /** The trace the call ran in, null when traces were off. */
  traceId: string | null;
}

export interface ExecutionPage {
  items: ExecutionView[];
  nextCursor: string | null;
}

export function executionNotFound(id: string): NotFound {
  return new NotFound('EXECUTION_NOT_FOUND', `No execution with id "${id.slice(0, 100)}".`);
}
