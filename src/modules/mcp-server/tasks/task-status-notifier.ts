import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { CallerDeparture, type CallerSignal } from '../../../shared/caller-signal.js';
import { CallTasks, TASK_POLL_MS } from '../../execution/application/call-tasks.js';
import type { TaskState } from '../../executions/application/task-state.js';
import { McpGatewayServer } from '../mcp-gateway-server.js';
import { taskViewOf } from './task-answers.js';
import { toTaskV1, type McpTaskView } from './task-wire.js';

/** Tasks followed at most per process; a task past it is not followed (its caller polls, as it may anyway). */
export const MAX_FOLLOWED = 1_000;
/**
 * How often a followed task is looked at when nothing announced a change of it: while it waits for
 * a decision, while nobody listens on its 2025-era session here, and always for a 2026-07-28
 * subscription. A change announced in any process (TaskChanges) wakes its followers at once; this
 * only makes up for an announcement that was lost.
 */
export const IDLE_LOOK_MS = 5_000;

/** What a listener was told of a task: its status and status message. */
export type Told = Pick<McpTaskView, 'status' | 'statusMessage'>;

export interface WatchOptions {
  /** What the listener was told already; absent: it is told the task's state at once. */
  told?: Told;
  /** Its listener went away. */
  until?: CallerSignal;
  /** How long to wait for the next look, when no change is announced (IDLE_LOOK_MS by default). */
  pollMs?: (state: TaskState) => number;
  ended?: () => void;
}

/** How a watch tells its listener of a task's new state; a failure to tell ends nothing. */
export type TellTask = (state: TaskState, view: McpTaskView) => Promise<void> | void;

/**
 * Follows tasks for those listening to them, in whichever process they listen, and tells each
 * change of a task's status (or of its status message: held for approval, running again), as the
 * task's state carries it:
 *
 * - 2025-11-25 `notifications/tasks/status`: a task started on a session is followed until it
 *   ends, and told to the session's standalone stream, if this process holds one;
 * - 2026-07-28 `notifications/tasks`: the tasks a `subscriptions/listen` names (TaskSubscriptions).
 *
 * Every look reads the task as its own principal (another principal's task is never told). Changes
 * made in another process wake the follower through TaskChanges; polling makes up for lost ones.
 * At most MAX_FOLLOWED tasks are followed at once; a watch ends with its task, or when its listener goes.
 */
@Injectable()
export class TaskStatusNotifier implements OnModuleDestroy {
  private readonly followed = new Set<CallerDeparture>();

  constructor(
    @Inject(CallTasks) private readonly tasks: CallTasks,
    @Inject(McpGatewayServer) private readonly gateway: McpGatewayServer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** How many tasks are followed now. */
  get followedCount(): number {
    return this.followed.size;
  }

  /** Follows a task whose 2025-era caller was just answered (`answered`: the status it was told) on the session `sessionId`. */
  follow(sessionId: string, principalId: string, taskId: string, answered: Told): void {
    const pollMs = (state: TaskState) => (state.status === 'pending_approval' || !this.gateway.isListening(sessionId, principalId) ? IDLE_LOOK_MS : (state.task?.pollIntervalMs ?? TASK_POLL_MS));
    this.watch(principalId, taskId, { told: answered, pollMs }, (_state, view) =>
      this.gateway.notifySession(sessionId, principalId, { method: 'notifications/tasks/status', params: { ...toTaskV1(view) } }),
    );
  }

  /**
   * Follows a task for a listener until the task ends or `until` aborts, telling `tell` each change
   * (and its state at once, unless `told` says what the listener knows); `ended` is called when it
   * stops. Answers false, following nothing, when this process follows MAX_FOLLOWED tasks already.
   */
  watch(principalId: string, taskId: string, options: WatchOptions, tell: TellTask): boolean {
    if (this.followed.size >= MAX_FOLLOWED || options.until?.aborted) return false;
    const stop = new CallerDeparture();
    const release = () => stop.abort();
    options.until?.addEventListener('abort', release, { once: true });
    this.followed.add(stop);
    void this.run(principalId, taskId, options, tell, stop)
      .catch(() => undefined)
      .finally(() => {
        options.until?.removeEventListener('abort', release);
        this.followed.delete(stop);
        options.ended?.();
      });
    return true;
  }

  onModuleDestroy(): void {
    for (const stop of this.followed) stop.abort();
    this.followed.clear();
  }

  private async run(principalId: string, taskId: string, options: WatchOptions, tell: TellTask, stop: CallerDeparture): Promise<void> {
    let told = options.told ? stateKey(options.told) : undefined;
    for await (const state of this.tasks.follow(taskId, principalId, stop, options.pollMs ?? (() => IDLE_LOOK_MS))) {
      const view = taskViewOf(state, this.config.executionRetentionMs);
      const key = stateKey(view);
      if (key === told) continue;
      told = key;
      await Promise.resolve(tell(state, view)).catch(() => undefined);
    }
  }
}

/** What a notification tells: the status and its message. */
function stateKey(view: Told): string {
  return `${view.status}\n${view.statusMessage ?? ''}`;
}
