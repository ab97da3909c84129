import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { CallerDeparture } from '../../../shared/caller-signal.js';
import { CallTasks, TASK_POLL_MS } from '../../execution/application/call-tasks.js';
import type { TaskState } from '../../executions/application/task-state.js';
import { McpGatewayServer } from '../mcp-gateway-server.js';
import { taskViewOf } from './task-answers.js';
import { toTaskV1, type McpTaskView } from './task-wire.js';

/** Tasks followed at most per process; a task started past it is not followed (its caller polls, as it may anyway). */
const MAX_FOLLOWED = 1_000;
/**
 * How often a followed task is looked at while it waits for a decision, or while nobody listens on
 * its session here: a change in this process wakes the follower at once, one elsewhere is heard
 * this late at most.
 */
const IDLE_LOOK_MS = 5_000;

/**
 * The 2025-11-25 `notifications/tasks/status`: a task started on a session is followed until it
 * ends, and each change of its status (or of its status message: held for approval, running again)
 * is told to the session's standalone stream, if this process holds one. Optional in the protocol:
 * a caller that has no stream open then, or whose stream another process holds, polls `tasks/get`.
 * A task that waits for a decision, or whose session nobody listens on here, is looked at less often.
 */
@Injectable()
export class TaskStatusNotifier implements OnModuleDestroy {
  private readonly followed = new Set<CallerDeparture>();

  constructor(
    @Inject(CallTasks) private readonly tasks: CallTasks,
    @Inject(McpGatewayServer) private readonly gateway: McpGatewayServer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Follows a task whose caller was just answered (`answered`: the status it was told) on the session `sessionId`. */
  follow(sessionId: string, principalId: string, taskId: string, answered: Told): void {
    if (this.followed.size >= MAX_FOLLOWED) return;
    const stop = new CallerDeparture();
    this.followed.add(stop);
    void this.run(sessionId, principalId, taskId, answered, stop)
      .catch(() => undefined)
      .finally(() => this.followed.delete(stop));
  }

  onModuleDestroy(): void {
    for (const stop of this.followed) stop.abort();
    this.followed.clear();
  }

  private async run(sessionId: string, principalId: string, taskId: string, answered: Told, stop: CallerDeparture): Promise<void> {
    let told = stateKey(answered);
    const pollMs = (state: TaskState) => (state.status === 'pending_approval' || !this.gateway.isListening(sessionId, principalId) ? IDLE_LOOK_MS : (state.task?.pollIntervalMs ?? TASK_POLL_MS));
    for await (const state of this.tasks.follow(taskId, principalId, stop, pollMs)) {
      const view = taskViewOf(state, this.config.executionRetentionMs);
      const key = stateKey(view);
      if (key === told) continue;
      told = key;
      await this.gateway.notifySession(sessionId, principalId, { method: 'notifications/tasks/status', params: { ...toTaskV1(view) } });
    }
  }
}

type Told = Pick<McpTaskView, 'status' | 'statusMessage'>;

/** What a notification tells: the status and its message. */
function stateKey(view: Told): string {
  return `${view.status}\n${view.statusMessage ?? ''}`;
}
