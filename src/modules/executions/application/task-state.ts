import type { ExecutionStatus } from '../domain/execution.js';
import type { ExecutionTask, WaitingStatus } from '../domain/execution-task.js';
import type { ExecutionView } from './execution-view.js';

/** Where a call that outlived its request stands: its final record once it has one, else its task row. */
export interface TaskState {
  /** Undefined for a call that never was a task but has a record. */
  task: ExecutionTask | undefined;
  record: ExecutionView | undefined;
  status: ExecutionStatus | WaitingStatus;
  final: boolean;
}

/** The state from the task's row and its final record (either may be missing, not both). */
export function taskStateOf(task: ExecutionTask | undefined, record: ExecutionView | undefined): TaskState {
  if (record) return { task, record, status: record.status, final: true };
  if (!task) throw new Error('a task state needs its row or its record');
  return { task, record: undefined, status: task.status, final: false };
}
