import type { ExecutionStatus } from '../../executions/domain/execution.js';
import type { WaitingStatus } from '../../executions/domain/execution-task.js';

/** What a task running in this process tells those following it (SSE, MCP status notifications). */
export type TaskEvent =
  | { kind: 'progress'; progress: number; total?: number; message?: string }
  | { kind: 'log'; level: string; data: unknown; logger?: string }
  | { kind: 'status'; status: ExecutionStatus | WaitingStatus; statusMessage?: string };

/** Events a follower has not taken yet, at most: a slow follower loses the oldest (never the last one). */
const MAX_BACKLOG = 1_000;

/**
 * The events of one running task, handed to each follower from the moment it subscribes until the
 * task ends. Bounded per follower; nothing is kept once the task ended.
 */
export class TaskEvents {
  private readonly followers = new Set<Follower>();
  private ended = false;

  push(event: TaskEvent): void {
    if (this.ended) return;
    for (const follower of this.followers) follower.push(event);
  }

  end(): void {
    this.ended = true;
    for (const follower of this.followers) follower.end();
    this.followers.clear();
  }

  /** Follows the task: the iteration ends when the task ends or the follower stops iterating. */
  follow(): AsyncIterable<TaskEvent> {
    const follower = new Follower(() => this.followers.delete(follower));
    if (this.ended) follower.end();
    else this.followers.add(follower);
    return follower;
  }
}

class Follower implements AsyncIterable<TaskEvent> {
  private readonly queue: TaskEvent[] = [];
  private waiting?: () => void;
  private done = false;

  constructor(private readonly leave: () => void) {}

  push(event: TaskEvent): void {
    if (this.queue.length >= MAX_BACKLOG) this.queue.shift();
    this.queue.push(event);
    this.wake();
  }

  end(): void {
    this.done = true;
    this.wake();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<TaskEvent> {
    try {
      for (;;) {
        const next = this.queue.shift();
        if (next) {
          yield next;
          continue;
        }
        if (this.done) return;
        await new Promise<void>((resolve) => (this.waiting = resolve));
      }
    } finally {
      this.leave();
    }
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }
}
