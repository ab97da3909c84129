import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { BackgroundPass } from '../../../shared/background-pass.js';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { CallerDeparture, type CallerSignal } from '../../../shared/caller-signal.js';
import { TaskChanges } from '../../../shared/task-changes.js';
import { timeOrderedId } from '../../../shared/time-ordered-id.js';
import { Clock } from '../../../shared/unit-of-work.js';
import { ExecutionReads } from '../../executions/application/execution-reads.js';
import { taskStateOf, type TaskState } from '../../executions/application/task-state.js';
import type { ExecutionView } from '../../executions/application/execution-view.js';
import { ExecutionTasks, type ExecutionTask, type ExecutionTaskPatch } from '../../executions/domain/execution-task.js';
import { isAtLeast, type CallListeners } from '../domain/tool-invoker.port.js';
import { ExecuteToolCommand, type AcceptedCall, type ExecutedCall, type OnAccepted } from './execute-tool/execute-tool.command.js';
import { HeldCalls } from './execute-tool/stages/call-stage.js';
import { TaskEvents, type TaskEvent } from './task-events.js';
import { PendingInput } from './task-input.js';

/** How often a caller is told to poll a task, and how often a running task looks for a cancellation asked elsewhere. */
export const TASK_POLL_MS = 1_000;

/** How often tasks past their ttl are looked for. */
const EXPIRY_SWEEP_MS = 600_000;

export interface TaskOptions {
  /** How long the task is kept after it was created, as the caller asked; bounded by execution retention. */
  ttlMs?: number;
}

interface Running {
  departure: LinkedDeparture;
  events: TaskEvents;
  input: PendingInput;
}

/**
 * Calls that outlive their request. The execution is the task: its id is the execution's, its
 * row (`execution_tasks`) says where it stands until ExecuteTool writes its final record, and both
 * are in PostgreSQL, so any replica answers for it and it survives a restart (a task sent upstream
 * when Toolplane stopped is recorded `interrupted`: a task's start is always recorded).
 *
 * A task runs in the process that started (or resumed) it, detached from the request that asked
 * for it; a cancellation asked of another replica reaches it through the row within TASK_POLL_MS.
 * Each change of a task's state here (held, running again, waiting for input or not, ended) is announced (TaskChanges): those
 * following it, in this process or another, look again at once.
 */
@Injectable()
export class CallTasks implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('tasks');
  private readonly running = new Map<string, Running>();
  private readonly expiry = new BackgroundPass(() => this.tasks.removeExpired(this.clock.now()));

  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(ExecutionTasks) private readonly tasks: ExecutionTasks,
    @Inject(ExecutionReads) private readonly reads: ExecutionReads,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(HeldCalls) private readonly held?: HeldCalls,
    @Optional() @Inject(TaskChanges) private readonly changes: TaskChanges = new TaskChanges(),
  ) {}

  /** Runs the call detached as a task: its row is stored (`working`) before this answers, and the call goes on in the background. */
  async start(command: ExecuteToolCommand, options: TaskOptions = {}): Promise<TaskState> {
    const id = command.input.executionId ?? timeOrderedId(this.clock.now().getTime());
    const task = this.newTask(id, command, options);
    await this.tasks.create(task);
    // Once resolved, the row names the tool and source the call goes to (the history's filters read them).
    this.detach(this.launch(command, id, undefined, (accepted) => this.tasks.update(id, routeOf(accepted))));
    return taskStateOf(task, undefined);
  }

  /**
   * Runs the call detached once it is accepted: answers its task when the call passed every check
   * and is about to be sent (its row stored then, `working`) or is held for approval; a call
   * refused before that answers its ExecutedCall (the refusal, recorded; no task was made).
   */
  async submit(command: ExecuteToolCommand, options: TaskOptions = {}): Promise<{ task: TaskState } | { executed: ExecutedCall }> {
    const id = command.input.executionId ?? timeOrderedId(this.clock.now().getTime());
    let acceptedAs!: (task: ExecutionTask) => void;
    const acceptance = new Promise<{ task: ExecutionTask }>((resolve) => (acceptedAs = (task) => resolve({ task })));
    const run = this.launch(command, id, undefined, async (accepted) => {
      const task = { ...this.newTask(id, command, options), ...routeOf(accepted) };
      await this.tasks.create(task);
      acceptedAs(task);
    });
    this.detach(run);
    const first = await Promise.race([run, acceptance]);
    if ('task' in first) return { task: taskStateOf(first.task, undefined) };
    return first.waiting ? { task: taskStateOf(first.waiting.task, undefined) } : { executed: first };
  }

  /**
   * Runs the call for a caller that can take a task: answers the ExecutedCall when it ends within
   * `taskAfterMs` (absent: however long it takes), or the task it became — because it waits for
   * approval, because the time passed first, or (`whenUpstreamTask`) because its upstream made it a
   * task of its own. Until then the call is the request's: an upstream that first asks for input in
   * rounds (2026-07-28 `input_required`) is answered in the request, and only the round that makes
   * a task upstream makes one here. From then on the call goes on detached from the caller.
   */
  async runOrTask(command: ExecuteToolCommand, options: TaskOptions & { taskAfterMs?: number; whenUpstreamTask?: boolean }): Promise<{ executed: ExecutedCall } | { task: TaskState }> {
    const id = command.input.executionId ?? timeOrderedId(this.clock.now().getTime());
    const caller = command.signal;
    let route: ExecutionTaskPatch | undefined;
    let stored = false;
    let upstreamTaskId: string | undefined;
    let becameUpstreamTask: (() => void) | undefined;
    const upstreamTask = options.whenUpstreamTask ? new Promise<'late'>((resolve) => (becameUpstreamTask = () => resolve('late'))) : undefined;
    const listeners = upstreamTask
      ? {
          ...command.listeners,
          onUpstreamTask: (taskId: string) => {
            upstreamTaskId = taskId;
            command.listeners.onUpstreamTask?.(taskId);
            becameUpstreamTask?.();
          },
        }
      : command.listeners;
    const running = this.launch(withListeners(command, listeners), id, caller, async (accepted) => {
      route = routeOf(accepted);
      if (stored) await this.tasks.update(id, route);
    });
    let timer: NodeJS.Timeout | undefined;
    const late = options.taskAfterMs === undefined ? undefined : new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), options.taskAfterMs)));
    const moments = [running, ...(late ? [late] : []), ...(upstreamTask ? [upstreamTask] : [])];
    const first = await (moments.length > 1 ? Promise.race(moments) : running).finally(() => clearTimeout(timer));
    if (first !== 'late') {
      if (!first.waiting) return { executed: first };
      return { task: taskStateOf(first.waiting.task, undefined) };
    }
    const task = { ...this.newTask(id, command, options), ...route, ...(upstreamTaskId !== undefined ? { upstreamTaskId } : {}) };
    await this.tasks.create(task);
    stored = true;
    // Known only now: the route, or the upstream's task id, arrived while the row was being written.
    const missed = { ...(route && task.sourceId === null ? route : {}), ...(upstreamTaskId !== undefined && task.upstreamTaskId === null ? { upstreamTaskId } : {}) };
    if (Object.keys(missed).length > 0) await this.tasks.update(id, missed);
    // A task now: the caller leaving no longer cancels it, and what it asks waits on the task.
    const now = this.running.get(id);
    now?.departure.detach();
    if (now?.input.size) await now.input.persist();
    return { task: (await this.stateOf(id)) ?? taskStateOf(task, undefined) };
  }

  /**
   * Runs a held call again after its decision: the same execution, its task `working` again.
   * Once only, whoever asks: a call another process (or an earlier request) took already is left
   * to it. Answers whether this one runs it.
   */
  async resume(command: ExecuteToolCommand): Promise<boolean> {
    const id = command.input.executionId!;
    if (!(await this.tasks.claimHeld(id))) return false;
    this.changes.announce(id);
    this.detach(this.launch(command, id));
    return true;
  }

  /** The task or execution as its principal sees it; undefined when there is none, it expired, or it is another principal's. */
  async state(id: string, principalId: string): Promise<TaskState | undefined> {
    const state = await this.stateOf(id);
    if (!state) return undefined;
    const owner = state.task?.principalId ?? state.record?.caller.principalId;
    if (owner !== principalId) return undefined;
    const task = state.task;
    if (task?.ttlMs != null && task.createdAt.getTime() + task.ttlMs < this.clock.now().getTime()) return undefined;
    return state;
  }

  /** Resolves with the final record once there is one (woken at once by an announced change, else by polling); rejects when `signal` aborts. */
  async awaitFinal(id: string, principalId: string, signal?: CallerSignal): Promise<ExecutionView> {
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      // Listening before looking: a task that ends while its state is read still wakes the wait.
      const look = this.nextLook(id, signal);
      try {
        const state = await this.state(id, principalId);
        if (!state) throw new Error(`no task ${id}`);
        if (state.final) return state.record!;
        await look.after(state.task?.pollIntervalMs ?? TASK_POLL_MS);
      } finally {
        look.stop();
      }
    }
  }

  /**
   * The task's state at each look until it is final (the last one yielded): at once when a change
   * of it is announced (here or by another process), else after `pollMs(state)` (by default the
   * task's poll interval; at most 5 s). Ends early, without an error, when `signal` aborts or the task is gone (expired,
   * unknown).
   */
  async *follow(id: string, principalId: string, signal: CallerSignal, pollMs?: (state: TaskState) => number): AsyncIterable<TaskState> {
    while (!signal.aborted) {
      const look = this.nextLook(id, signal);
      try {
        const state = await this.state(id, principalId);
        if (!state) return;
        yield state;
        if (state.final) return;
        await look.after(pollMs?.(state) ?? state.task?.pollIntervalMs ?? TASK_POLL_MS);
      } finally {
        look.stop();
      }
    }
  }

  /**
   * Asks for the task to be cancelled: a call running in this process is aborted at once (the
   * upstream is told); one running elsewhere sees the request within TASK_POLL_MS; a call waiting
   * for approval is withdrawn. Answers the state as it is now (undefined: no such task).
   */
  async cancel(id: string, principalId: string): Promise<TaskState | undefined> {
    const state = await this.state(id, principalId);
    if (!state || state.final || !state.task) return state;
    await this.tasks.requestCancel(id);
    const running = this.running.get(id);
    if (running) running.departure.abort(new DOMException('The task was cancelled.', 'AbortError'));
    // Parked already, or being parked now (then launch withdraws it once it is).
    if (state.task.status === 'pending_approval') await this.held?.withdraw(id);
    return (await this.stateOf(id)) ?? state;
  }

  /**
   * Answers what a task asked its caller (`tasks/update`, REST input): delivered at once to a call
   * running here, else left on the row for the process running it. Answers naming no open request
   * are ignored. Answers the state (undefined: no such task of this principal).
   */
  async answerInput(id: string, principalId: string, responses: Record<string, unknown>): Promise<TaskState | undefined> {
    const state = await this.state(id, principalId);
    if (!state || state.final || !state.task) return state;
    const running = this.running.get(id);
    // The answer is acknowledged once the row no longer lists the answered requests: a tasks/get
    // right after it, on any replica, sees them gone.
    if (running) {
      running.input.answer(responses);
      await running.input.written();
    } else {
      const open = state.task.inputRequests ?? {};
      const named = Object.fromEntries(Object.entries(responses).filter(([key]) => key in open));
      if (Object.keys(named).length > 0) {
        await this.tasks.putInputResponses(id, named);
        this.changes.announce(id);
      }
    }
    return (await this.stateOf(id)) ?? state;
  }

  /** The principal's tasks, newest first. */
  async list(principalId: string, after: string | undefined, limit: number): Promise<TaskState[]> {
    const tasks = await this.tasks.listByPrincipal(principalId, after, limit);
    const now = this.clock.now().getTime();
    const live = tasks.filter((task) => task.ttlMs === null || task.createdAt.getTime() + task.ttlMs >= now);
    return Promise.all(live.map(async (task) => taskStateOf(task, await this.reads.get(task.id))));
  }

  /** The events of a task running in this process, from now until it ends; undefined when it does not run here. */
  events(id: string): AsyncIterable<TaskEvent> | undefined {
    return this.running.get(id)?.events.follow();
  }

  /** Tasks past their ttl are forgotten now and then, by every replica (a DELETE is idempotent). */
  onApplicationBootstrap(): void {
    this.expiry.start(EXPIRY_SWEEP_MS, (error) => this.logger.warn(`forgetting expired tasks failed: ${String(error)}`), false);
  }

  onModuleDestroy(): Promise<void> {
    return this.expiry.stop();
  }

  private async stateOf(id: string): Promise<TaskState | undefined> {
    const [task, record] = await Promise.all([this.tasks.get(id), this.reads.get(id)]);
    if (!task && !record) return undefined;
    return taskStateOf(task, record);
  }

  /**
   * Runs the call under the task's own signal (a `caller` signal, while given, cancels it too) with
   * its events told to followers, and watches the row for a cancellation asked elsewhere.
   */
  private launch(command: ExecuteToolCommand, id: string, caller?: CallerSignal, onAccepted?: OnAccepted): Promise<ExecutedCall> {
    const departure = new LinkedDeparture(caller);
    const events = new TaskEvents();
    const input = new PendingInput(id, this.tasks, () => this.changes.announce(id));
    departure.addEventListener('abort', () => input.close(departure.reason));
    this.running.set(id, { departure, events, input });
    // A caller held open is asked itself; once the call is a task, its caller answers on the task.
    const asked = command.listeners.onInputRequest;
    const listeners = withEvents(command.listeners, events);
    listeners.onInputRequest = (request) => (asked && departure.linked ? asked(request) : input.ask(request));
    const detached = new ExecuteToolCommand({ ...command.input, executionId: id, asTask: true }, command.caller, command.channel, departure, listeners, onAccepted);
    const watch = setInterval(() => {
      this.tasks
        .get(id)
        .then(async (task) => {
          if (task?.cancelRequested) departure.abort(new DOMException('The task was cancelled.', 'AbortError'));
          // Answers given to another replica.
          else if (input.size > 0) {
            const answers = await this.tasks.takeInputResponses(id);
            if (answers) input.answer(answers);
          }
        })
        .catch(() => undefined);
    }, TASK_POLL_MS);
    watch.unref();
    const run = this.commands.execute(detached) as Promise<ExecutedCall>;
    return run
      .then(async (executed) => {
        // Cancelled while it was being held: its approval is withdrawn as soon as it exists.
        if (executed.waiting && departure.aborted) await this.held?.withdraw(id).catch(() => false);
        events.push(executed.waiting ? { kind: 'status', status: executed.waiting.task.status } : { kind: 'status', status: executed.record.status });
        return executed;
      })
      .catch((error: unknown) => {
        this.logger.error(`task ${id} failed: ${error instanceof Error ? error.message : String(error)}`);
        throw error;
      })
      .finally(() => {
        clearInterval(watch);
        input.close(new Error('The task ended.'));
        this.running.delete(id);
        events.end();
        // Ended, or held for a decision.
        this.changes.announce(id);
      });
  }

  /** A call nobody awaits: its failure is logged by launch, and must not end the process as an unhandled rejection. */
  private detach(run: Promise<ExecutedCall>): void {
    run.catch(() => undefined);
  }

  private newTask(id: string, command: ExecuteToolCommand, options: TaskOptions): ExecutionTask {
    const now = this.clock.now();
    return {
      id,
      principalId: command.caller.principalId,
      principalName: command.caller.principalName,
      qualifiedName: command.input.qualifiedName.slice(0, 200),
      channel: command.channel,
      status: 'working',
      statusMessage: null,
      createdAt: now,
      updatedAt: now,
      ttlMs: this.boundedTtl(options.ttlMs),
      pollIntervalMs: TASK_POLL_MS,
      cancelRequested: false,
      upstreamTaskId: null,
      approvalId: null,
      inputRequests: null,
      sourceId: null,
      sourceName: null,
      group: command.input.group?.slice(0, 200) ?? null,
    };
  }

  /** The caller's ttl within execution retention (the record, and so the result, is kept no longer); none asked: as long as the record is. */
  private boundedTtl(asked: number | undefined): number | null {
    const retention = this.config.executionRetentionMs;
    if (asked === undefined || !Number.isFinite(asked) || asked <= 0) return retention;
    return retention === null ? Math.floor(asked) : Math.min(Math.floor(asked), retention);
  }

  /**
   * The next look at a task, listening from now for a change of it and for `signal`: `after(pollMs)`
   * resolves on either, or once `pollMs` passed; `stop()` lets go of everything.
   */
  private nextLook(id: string, signal: CallerSignal | undefined): { after: (pollMs: number) => Promise<void>; stop: () => void } {
    let timer: NodeJS.Timeout | undefined;
    let woken = false;
    let wake: (() => void) | undefined;
    const done = () => {
      woken = true;
      wake?.();
    };
    const unlisten = this.changes.onChange(id, done);
    const stop = () => {
      clearTimeout(timer);
      unlisten();
      signal?.removeEventListener('abort', done);
    };
    signal?.addEventListener('abort', done, { once: true });
    const after = (pollMs: number) =>
      new Promise<void>((resolve) => {
        // A signal aborted already calls no listener added now.
        if (woken || signal?.aborted) return resolve();
        wake = resolve;
        timer = setTimeout(resolve, Math.min(Math.max(pollMs, 100), 5_000));
      });
    return { after, stop };
  }
}

/** What a task's row says of the tool and source an accepted call goes to. */
function routeOf(accepted: AcceptedCall): ExecutionTaskPatch {
  return { qualifiedName: accepted.qualifiedName.slice(0, 200), sourceId: accepted.sourceId, sourceName: accepted.sourceName, group: accepted.group };
}

/** A task's own signal: aborted by a cancellation, or by the caller while it stays linked (until the call becomes a task). */
class LinkedDeparture extends CallerDeparture {
  private readonly follow = () => this.abort(this.caller?.reason);

  constructor(private caller: CallerSignal | undefined) {
    super();
    if (caller?.aborted) this.abort(caller.reason);
    else caller?.addEventListener('abort', this.follow, { once: true });
  }

  /** Whether the caller is still there (its leaving would cancel the call). */
  get linked(): boolean {
    return this.caller !== undefined;
  }

  /** The caller leaving no longer cancels the call. */
  detach(): void {
    this.caller?.removeEventListener('abort', this.follow);
    this.caller = undefined;
  }
}

/** The call's own listeners (a caller held open hears them), and the task's followers. */
/** The same command with other listeners. */
function withListeners(command: ExecuteToolCommand, listeners: CallListeners): ExecuteToolCommand {
  return listeners === command.listeners ? command : new ExecuteToolCommand(command.input, command.caller, command.channel, command.signal, listeners, command.onAccepted);
}

function withEvents(listeners: CallListeners, events: TaskEvents): CallListeners {
  return {
    ...listeners,
    onProgress: (update) => {
      listeners.onProgress?.(update);
      events.push({ kind: 'progress', progress: update.progress, ...(update.total !== undefined ? { total: update.total } : {}), ...(update.message !== undefined ? { message: update.message } : {}) });
    },
    log: {
      // The level a caller held open listens at, else `info`: the upstream is asked for no more than someone may hear.
      level: listeners.log?.level ?? 'info',
      onMessage: (message) => {
        if (listeners.log && isAtLeast(message.level, listeners.log.level)) listeners.log.onMessage(message);
        events.push({ kind: 'log', level: message.level, data: message.data, ...(message.logger !== undefined ? { logger: message.logger } : {}) });
      },
    },
  };
}
