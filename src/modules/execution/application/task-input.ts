import { randomUUID } from 'node:crypto';
import type { ExecutionTasks, TaskInputRequest } from '../../executions/domain/execution-task.js';
import type { InputRequest } from '../domain/tool-invoker.port.js';

/** The most requests one task may have waiting for answers at once; more are refused to the upstream. */
export const MAX_PENDING_INPUT = 16;

interface Ask {
  request: TaskInputRequest;
  resolve: (answer: Record<string, unknown>) => void;
  reject: (reason: unknown) => void;
}

/**
 * What a task running in this process asked its caller and is not answered yet. Each ask gets a key
 * of Toolplane's own (the upstream's ids never reach the caller); the row says `awaiting_input` with
 * the open asks while there are any, and `working` again once all are answered, so any replica
 * answers `tasks/get`. Row writes are made one after the other, each with the asks open then.
 */
export class PendingInput {
  private readonly asks = new Map<string, Ask>();
  private writes: Promise<void> = Promise.resolve();
  private closed: unknown;

  constructor(
    private readonly taskId: string,
    private readonly tasks: ExecutionTasks,
    /** Told after each row write, so that those following the task look again. */
    private readonly onWritten: () => void = () => undefined,
  ) {}

  get size(): number {
    return this.asks.size;
  }

  /** Puts a request to the task's caller; resolves with its answer, rejects when the task ends first. */
  ask(request: InputRequest): Promise<Record<string, unknown>> {
    if (this.closed !== undefined) return Promise.reject(this.closed);
    if (this.asks.size >= MAX_PENDING_INPUT) return Promise.reject(new Error(`a task may wait for at most ${MAX_PENDING_INPUT} answers at once`));
    return new Promise((resolve, reject) => {
      this.asks.set(randomUUID(), { request: { method: request.method, params: request.params }, resolve, reject });
      this.persist();
    });
  }

  /** Delivers the answers whose keys are open (others are ignored); answers how many were taken. */
  answer(responses: Record<string, unknown>): number {
    let taken = 0;
    for (const [key, value] of Object.entries(responses)) {
      const ask = this.asks.get(key);
      if (!ask || !isAnswer(value)) continue;
      this.asks.delete(key);
      ask.resolve(value);
      taken += 1;
    }
    if (taken > 0) this.persist();
    return taken;
  }

  /** The task ended (or was cancelled): every open ask fails with `reason`. */
  close(reason: unknown): void {
    this.closed = reason;
    for (const ask of this.asks.values()) ask.reject(reason);
    this.asks.clear();
  }

  /** Resolves once the row says what is open now (every write asked so far is done). */
  written(): Promise<void> {
    return this.writes;
  }

  /** Writes the open asks to the row again (after the row was created late). */
  persist(): Promise<void> {
    const open = this.asks.size > 0 ? Object.fromEntries([...this.asks].map(([key, ask]) => [key, ask.request])) : null;
    this.writes = this.writes
      .then(() => this.tasks.update(this.taskId, open ? { status: 'awaiting_input', inputRequests: open } : { status: 'working', inputRequests: null }))
      .then(this.onWritten)
      .catch(() => undefined);
    return this.writes;
  }
}

/** An answer to a request for input is a JSON object (an elicitation or sampling result, a roots list). */
function isAnswer(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The problem with a caller's `inputResponses`, or undefined when it is a map of answers: an object
 * of at most MAX_PENDING_INPUT × 4 keys whose values are objects.
 */
export function inputResponsesProblem(responses: unknown): string | undefined {
  if (!isAnswer(responses)) return 'inputResponses: must be an object mapping each request key to its answer';
  const entries = Object.entries(responses);
  if (entries.length > MAX_PENDING_INPUT * 4) return `inputResponses: at most ${MAX_PENDING_INPUT * 4} answers at once`;
  const bad = entries.find(([, value]) => !isAnswer(value));
  return bad ? `inputResponses.${bad[0].slice(0, 100)}: must be an object (the answer to that request)` : undefined;
}
