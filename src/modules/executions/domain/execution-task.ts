import type { ExecutionChannel } from './execution.js';

/**
 * The states of a call that has no final record yet: running detached (`working`), held until a
 * person decides (`pending_approval`), or waiting for its caller's answers to what the upstream
 * asked during its task (`awaiting_input`, MCP's `input_required`). Never stored in `executions`,
 * whose rows are final.
 */
export type WaitingStatus = 'working' | 'pending_approval' | 'awaiting_input';

export const WAITING_STATUSES: readonly WaitingStatus[] = ['working', 'pending_approval', 'awaiting_input'];

/** One request of the upstream's for its caller (elicitation, sampling, roots), as MCP carries it. */
export interface TaskInputRequest {
  method: string;
  params?: Record<string, unknown>;
}

/**
 * A call that outlives its request: the execution is the task. Its id is the execution's; while
 * the call has no final record this row says where it stands; once it has one, the record does.
 */
export interface ExecutionTask {
  id: string;
  /** Only this principal sees the task (to anyone else it does not exist). */
  principalId: string;
  principalName: string;
  qualifiedName: string;
  channel: ExecutionChannel;
  status: WaitingStatus;
  statusMessage: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** How long the task (and its result) is kept after it was created; null: as long as the execution is. */
  ttlMs: number | null;
  /** How often a caller should poll it. */
  pollIntervalMs: number;
  cancelRequested: boolean;
  /** The upstream's own task, when the call runs as one upstream: never shown to a caller. */
  upstreamTaskId: string | null;
  /** The approval the call waits for, or waited for. */
  approvalId: string | null;
  /** While `awaiting_input`: what is asked and not answered yet, by the key an answer names. */
  inputRequests: Record<string, TaskInputRequest> | null;
  /** The source the call goes to, once it is known (the call was accepted to run, or held); null before. */
  sourceId: string | null;
  sourceName: string | null;
  /** The tool group the call came through. */
  group: string | null;
}

export type ExecutionTaskPatch = Partial<Pick<ExecutionTask, 'status' | 'statusMessage' | 'upstreamTaskId' | 'approvalId' | 'inputRequests' | 'qualifiedName' | 'sourceId' | 'sourceName' | 'group'>>;

/** Which waiting calls a listing of the history shows (as its filter: see ListExecutions). */
export interface WaitingFilter {
  tool?: string;
  /** Source id or name. */
  source?: string;
  group?: string;
  statuses?: WaitingStatus[];
  /** Principal id of the caller. */
  caller?: string;
  since?: Date;
  until?: Date;
}

/** Port: the rows of calls that outlive their request (`execution_tasks`). */
export abstract class ExecutionTasks {
  /** Stores a new task; a task of that id already stored is left as it is. */
  abstract create(task: ExecutionTask): Promise<void>;
  abstract get(id: string): Promise<ExecutionTask | undefined>;
  abstract update(id: string, patch: ExecutionTaskPatch): Promise<void>;
  abstract requestCancel(id: string): Promise<void>;
  /**
   * Takes a held call to run it again after its decision: `pending_approval` becomes `working`,
   * conditionally, so that one process alone resumes it. Answers whether this caller took it.
   */
  abstract claimHeld(id: string): Promise<boolean>;
  /** Leaves answers for the process running the call (merged with any not taken yet); the requests they answer are no longer open. */
  abstract putInputResponses(id: string, responses: Record<string, unknown>): Promise<void>;
  /** Takes the answers left for the call, clearing them: undefined when there are none. */
  abstract takeInputResponses(id: string): Promise<Record<string, unknown> | undefined>;
  /** The principal's tasks, newest first, after the task `after` (exclusive). */
  abstract listByPrincipal(principalId: string, after: string | undefined, limit: number): Promise<ExecutionTask[]>;
  /**
   * The calls that wait (no final record yet, ttl not passed at `now`) the filter matches, after
   * `after` (created at, then id; exclusive), newest first; at most `limit`.
   */
  abstract listWaiting(filter: WaitingFilter, after: { at: Date; id: string } | undefined, now: Date, limit: number): Promise<ExecutionTask[]>;
  /** Forgets the tasks whose ttl passed before `now` (their records follow execution retention); answers how many. */
  abstract removeExpired(now: Date): Promise<number>;
}
