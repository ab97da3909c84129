import type { CommandBus } from '@nestjs/cqrs';
import { loadConfig } from '../../../config/app-config.js';
import { CallerDeparture } from '../../../shared/caller-signal.js';
import type { ExecutionView } from '../../executions/application/execution-view.js';
import type { ExecutionRecord } from '../../executions/domain/execution.js';
import { InMemoryExecutionReads } from '../../executions/testing/in-memory-execution-reads.js';
import { InvocationFailure, type InvocationRequest } from '../domain/tool-invoker.port.js';
import { ExecuteToolHarness } from '../testing/execute-tool-harness.js';
import { aRoute } from '../testing/routes.js';
import { CallTasks, TASK_POLL_MS } from './call-tasks.js';
import { ExecuteToolCommand, type ExecuteToolInput } from './execute-tool/execute-tool.command.js';

const SLOW = 'lab__research';
const ALICE = { principalId: 'key-alice', principalName: 'alice' };
const BOB = { principalId: 'key-bob', principalName: 'bob' };

/** CallTasks over the pipeline's harness: its commands run the real handler, its records are read back as the history does. */
function setUp(retentionMs: number | null = null) {
  const harness = new ExecuteToolHarness().withTool(aRoute(SLOW));
  const reads = new InMemoryExecutionReads();
  const recorder = harness.recorder;
  const record = recorder.record.bind(recorder);
  recorder.record = async (execution: ExecutionRecord) => {
    await record(execution);
    reads.record(viewOf(execution));
  };
  const bus = { execute: (command: ExecuteToolCommand) => harness.handler.execute(command) } as unknown as CommandBus;
  const tasks = new CallTasks(bus, harness.tasks, reads, harness.clock, { ...loadConfig({}), executionRetentionMs: retentionMs });
  return { harness, tasks, reads };
}

function command(input: Partial<ExecuteToolInput> = {}, caller = ALICE, signal?: CallerDeparture): ExecuteToolCommand {
  return new ExecuteToolCommand({ qualifiedName: SLOW, arguments: { message: 'tides' }, ...input }, caller, 'mcp', signal);
}

/** An upstream that answers only when told to, and says when it was cancelled. */
function gated(harness: ExecuteToolHarness) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let cancelled = false;
  harness.invoker.next(async (request) => {
    request.onProgress?.({ progress: 1, total: 2, message: 'reading' });
    await Promise.race([gate, new Promise<void>((resolve) => request.signal?.addEventListener('abort', () => ((cancelled = true), resolve())))]);
    if (cancelled) throw new InvocationFailure('cancelled', 'the caller cancelled the call');
    return { kind: 'result' as const, isError: false, content: [{ type: 'text', text: 'done' }], truncated: false, originalBytes: 30 };
  });
  return { release, wasCancelled: () => cancelled };
}

describe('CallTasks', () => {
  it("waits for its caller's input on the task: awaiting_input with the open requests, then working and done once answered", async () => {
    const { harness, tasks } = setUp();
    harness.invoker.next(async (request) => {
      const answer = await request.onInputRequest!({ method: 'elicitation/create', params: { message: 'Delete it?' } });
      return { kind: 'result' as const, isError: false, content: [{ type: 'text', text: `answered ${JSON.stringify(answer)}` }], truncated: false, originalBytes: 30 };
    });
    const id = (await tasks.start(command())).task!.id;
    let state = await tasks.state(id, ALICE.principalId);
    for (let look = 0; state?.status !== 'awaiting_input' && look < 50; look += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      state = await tasks.state(id, ALICE.principalId);
    }
    const open = state!.task!.inputRequests!;
    expect(Object.values(open)).toEqual([{ method: 'elicitation/create', params: { message: 'Delete it?' } }]);
    // Another principal cannot answer it; answers naming nothing open are ignored.
    expect(await tasks.answerInput(id, BOB.principalId, { [Object.keys(open)[0]!]: { action: 'decline' } })).toBeUndefined();
    await tasks.answerInput(id, ALICE.principalId, { other: { action: 'decline' } });
    expect((await tasks.state(id, ALICE.principalId))?.status).toBe('awaiting_input');
    await tasks.answerInput(id, ALICE.principalId, { [Object.keys(open)[0]!]: { action: 'accept', content: { confirm: true } } });
    const record = await tasks.awaitFinal(id, ALICE.principalId);
    expect(record.status).toBe('succeeded');
    expect(JSON.stringify(record.result)).toContain('answered {\\"action\\":\\"accept\\",\\"content\\":{\\"confirm\\":true}}');
  });

  it('leaves answers for a task running in another process on its row, which that process takes', async () => {
    const { harness, tasks } = setUp();
    const other = new CallTasks({ execute: () => Promise.reject(new Error('not here')) } as unknown as CommandBus, harness.tasks, new InMemoryExecutionReads(), harness.clock, loadConfig({}));
    harness.invoker.next(async (request) => {
      await request.onInputRequest!({ method: 'elicitation/create', params: { message: 'Name?' } });
      return { kind: 'result' as const, isError: false, content: [{ type: 'text', text: 'done' }], truncated: false, originalBytes: 4 };
    });
    const id = (await tasks.start(command())).task!.id;
    for (let look = 0; harness.tasks.rows.get(id)?.status !== 'awaiting_input' && look < 50; look += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    const [key] = Object.keys(harness.tasks.rows.get(id)!.inputRequests!);
    await other.answerInput(id, ALICE.principalId, { [key!]: { action: 'accept', content: { name: 'Ada' } }, stray: { action: 'decline' } });
    expect(harness.tasks.responses.get(id)).toEqual({ [key!]: { action: 'accept', content: { name: 'Ada' } } });
    const record = await tasks.awaitFinal(id, ALICE.principalId);
    expect(record.status).toBe('succeeded');
    expect(harness.tasks.responses.has(id)).toBe(false);
  }, 10_000);

  it('runs a task detached: working until its final record, which its principal alone can see', async () => {
    const { harness, tasks } = setUp();
    const upstream = gated(harness);
    const started = await tasks.start(command());
    const id = started.task!.id;
    expect(started).toMatchObject({ status: 'working', final: false });
    expect((await tasks.state(id, ALICE.principalId))?.status).toBe('working');
    expect(await tasks.state(id, BOB.principalId)).toBeUndefined();
    upstream.release();
    const record = await tasks.awaitFinal(id, ALICE.principalId);
    expect([record.id, record.status]).toEqual([id, 'succeeded']);
    expect(await tasks.state(id, ALICE.principalId)).toMatchObject({ status: 'succeeded', final: true });
    // Its start is recorded even though nothing says the tool writes: a restart leaves it interrupted, not unknown.
    expect(harness.recorder.started.map((started) => started.id)).toEqual([id]);
  });

  it('tells followers the progress and the end of a task running here', async () => {
    const { harness, tasks } = setUp();
    const upstream = gated(harness);
    const started = await tasks.start(command());
    const events = tasks.events(started.task!.id)!;
    const seen: unknown[] = [];
    const following = (async () => {
      for await (const event of events) seen.push(event);
    })();
    upstream.release();
    await following;
    expect(seen).toEqual([
      { kind: 'progress', progress: 1, total: 2, message: 'reading' },
      { kind: 'status', status: 'succeeded' },
    ]);
    // Once it ended there is nothing to follow.
    expect(tasks.events(started.task!.id)).toBeUndefined();
  });

  it('follows a task: its state at once, then its final one as soon as it ends here; nothing for another principal, and nothing once stopped', async () => {
    const { harness, tasks } = setUp();
    const upstream = gated(harness);
    const id = (await tasks.start(command())).task!.id;
    const seen: string[] = [];
    const following = (async () => {
      for await (const state of tasks.follow(id, ALICE.principalId, new CallerDeparture())) seen.push(state.status);
    })();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toEqual(['working']);
    const started = performance.now();
    upstream.release();
    await following;
    expect(seen).toEqual(['working', 'succeeded']);
    // Woken by the end, not by the next poll.
    expect(performance.now() - started).toBeLessThan(TASK_POLL_MS / 2);

    const others: string[] = [];
    for await (const state of tasks.follow(id, BOB.principalId, new CallerDeparture())) others.push(state.status);
    expect(others).toEqual([]);
    const stop = new CallerDeparture();
    stop.abort();
    for await (const state of tasks.follow(id, ALICE.principalId, stop)) others.push(state.status);
    expect(others).toEqual([]);
  });

  it('wakes a wait for the final record at once when the task ends while its state is being read', async () => {
    const { harness, tasks, reads } = setUp();
    const upstream = gated(harness);
    const started = await tasks.start(command());
    const id = started.task!.id;
    // The read sees no record yet; the task then ends (and says so) before the read answers.
    const get = reads.get.bind(reads);
    let stale = true;
    reads.get = async (asked: string) => {
      const view = await get(asked);
      if (!stale) return view;
      stale = false;
      upstream.release();
      while (tasks.events(id) !== undefined) await new Promise((resolve) => setImmediate(resolve));
      return view;
    };
    const began = Date.now();
    const record = await tasks.awaitFinal(id, ALICE.principalId);
    expect(record.status).toBe('succeeded');
    expect(stale).toBe(false);
    // Not the next poll, TASK_POLL_MS later.
    expect(Date.now() - began).toBeLessThan(TASK_POLL_MS / 2);
  });

  it('cancels a running task: the upstream is told and the record says cancelled; another principal cannot', async () => {
    const { harness, tasks } = setUp();
    const upstream = gated(harness);
    const started = await tasks.start(command());
    const id = started.task!.id;
    await new Promise((resolve) => setImmediate(resolve));
    expect(await tasks.cancel(id, BOB.principalId)).toBeUndefined();
    expect(upstream.wasCancelled()).toBe(false);
    await tasks.cancel(id, ALICE.principalId);
    const record = await tasks.awaitFinal(id, ALICE.principalId);
    expect(upstream.wasCancelled()).toBe(true);
    expect(record.status).toBe('cancelled');
  });

  it('answers the result of a call that ends in time, and a task for one that outlives the threshold; the caller leaving then no longer cancels it', async () => {
    const { harness, tasks } = setUp();
    const quick = await tasks.runOrTask(command(), { taskAfterMs: 5_000 });
    expect('executed' in quick && quick.executed.record.status).toBe('succeeded');

    const upstream = gated(harness);
    const caller = new CallerDeparture();
    const slow = await tasks.runOrTask(command({}, ALICE, caller), { taskAfterMs: 20 });
    expect('task' in slow && slow.task.status).toBe('working');
    const id = 'task' in slow ? slow.task.task!.id : '';
    caller.abort();
    upstream.release();
    expect((await tasks.awaitFinal(id, ALICE.principalId)).status).toBe('succeeded');
    expect(upstream.wasCancelled()).toBe(false);
  });

  it('whenUpstreamTask: answers a round of input in the request, and becomes a task when the upstream makes one, its id on the row only', async () => {
    const { harness, tasks } = setUp();
    harness.withTool(aRoute(SLOW, { tool: { taskSupport: 'required' } }));
    harness.invoker.next(async () => ({ kind: 'input_required' as const, inputRequests: { user_name: { method: 'elicitation/create', params: { message: 'Name?' } } }, requestState: 'round-1' }));
    const asked = await tasks.runOrTask(command(), { whenUpstreamTask: true });
    expect('executed' in asked && asked.executed.record.status).toBe('input_required');

    const upstream = gated(harness);
    let sent: InvocationRequest | undefined;
    const invoke = harness.invoker.invoke.bind(harness.invoker);
    harness.invoker.invoke = async (request) => {
      sent = request;
      request.task?.onCreated?.('upstream-task-7');
      return invoke(request);
    };
    const caller = new CallerDeparture();
    const became = await tasks.runOrTask(command({ inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } }, requestState: 'round-1' }, ALICE, caller), { whenUpstreamTask: true });
    expect('task' in became && became.task.status).toBe('working');
    const id = 'task' in became ? became.task.task!.id : '';
    expect(sent?.inputResponses).toEqual({ user_name: { action: 'accept', content: { name: 'Alice' } } });
    expect(sent?.requestState).toBe('round-1');
    expect((await harness.tasks.get(id))?.upstreamTaskId).toBe('upstream-task-7');
    // A task now: the caller leaving does not cancel it.
    caller.abort();
    upstream.release();
    const final = await tasks.awaitFinal(id, ALICE.principalId);
    expect(final.status).toBe('succeeded');
    expect(JSON.stringify(final)).not.toContain('upstream-task-7');
    expect(upstream.wasCancelled()).toBe(false);
  });

  it('keeps a task no longer than execution retention, however long its caller asked', async () => {
    const { tasks } = setUp(60_000);
    const started = await tasks.start(command(), { ttlMs: 86_400_000 });
    expect(started.task!.ttlMs).toBe(60_000);
    const { tasks: unbounded } = setUp(null);
    expect((await unbounded.start(command(), { ttlMs: 5_000 })).task!.ttlMs).toBe(5_000);
  });

  it('lists a principal’s tasks, newest first, with where each stands', async () => {
    const { tasks } = setUp();
    const first = await tasks.start(command());
    await tasks.awaitFinal(first.task!.id, ALICE.principalId);
    const second = await tasks.start(command({}, BOB));
    await tasks.awaitFinal(second.task!.id, BOB.principalId);
    const listed = await tasks.list(ALICE.principalId, undefined, 10);
    expect(listed.map((state) => [state.task!.id, state.status])).toEqual([[first.task!.id, 'succeeded']]);
  });

  it('survives a detached task whose call throws (its record cannot be written at shutdown): nothing is left unhandled', async () => {
    const { harness } = setUp();
    const closed = new Error('Toolplane is shutting down; the call was not recorded.');
    const bus = { execute: () => Promise.reject(closed) } as unknown as CommandBus;
    const tasks = new CallTasks(bus, harness.tasks, new InMemoryExecutionReads(), harness.clock, loadConfig({}));
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const started = await tasks.start(command());
      await tasks.resume(command({ executionId: started.task!.id }));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});

describe('CallTasks.submit', () => {
  it('answers the task once the call is accepted to run: its row stored then, naming the source, and the call goes on', async () => {
    const { harness, tasks } = setUp();
    const upstream = gated(harness);
    const submitted = await tasks.submit(command());
    if (!('task' in submitted)) throw new Error('expected a task');
    const id = submitted.task.task!.id;
    expect(submitted.task).toMatchObject({ status: 'working', final: false });
    expect(await harness.tasks.get(id)).toMatchObject({ status: 'working', qualifiedName: SLOW, sourceName: 'lab' });
    upstream.release();
    expect((await tasks.awaitFinal(id, ALICE.principalId)).status).toBe('succeeded');
  });

  it('answers a call refused before it would run with its refusal: recorded, no task, nothing sent', async () => {
    const { harness, tasks } = setUp();
    const unknown = await tasks.submit(command({ qualifiedName: 'lab__nothing' }));
    harness.buckets.taken.push('principal:key-alice');
    const limited = await tasks.submit(command({ rateLimitPerMinute: 1 }));
    for (const [submitted, code] of [
      [unknown, 'TOOL_NOT_FOUND'],
      [limited, 'RATE_LIMITED'],
    ] as const) {
      if (!('executed' in submitted)) throw new Error(`expected ${code}`);
      expect(submitted.executed.record.error?.code).toBe(code);
      expect(await harness.tasks.get(submitted.executed.record.id)).toBeUndefined();
    }
    expect(harness.invoker.requests).toHaveLength(0);
    expect(harness.tasks.rows.size).toBe(0);
  });
});

describe('CallTasks.resume', () => {
  it('runs a held call again once, whoever asks: the second ask finds it taken', async () => {
    const { harness, tasks } = setUp();
    const id = '00000000-0000-4000-8000-00000000a001';
    const now = harness.clock.now();
    await harness.tasks.create({ id, principalId: ALICE.principalId, principalName: 'alice', qualifiedName: SLOW, channel: 'mcp', status: 'pending_approval', statusMessage: 'Waiting for approval.', createdAt: now, updatedAt: now, ttlMs: null, pollIntervalMs: 5000, cancelRequested: false, upstreamTaskId: null, approvalId: null, inputRequests: null, sourceId: null, sourceName: null, group: null });
    const asks = await Promise.all([tasks.resume(command({ executionId: id })), tasks.resume(command({ executionId: id }))]);
    expect(asks.sort()).toEqual([false, true]);
    expect((await tasks.awaitFinal(id, ALICE.principalId)).status).toBe('succeeded');
    expect(harness.invoker.requests).toHaveLength(1);
    expect(await tasks.resume(command({ executionId: id }))).toBe(false);
  });
});

function viewOf(record: ExecutionRecord): ExecutionView {
  return { ...record, startedAt: record.startedAt.toISOString(), traceId: record.traceId ?? null, group: record.group ?? null, interceptors: record.interceptors ?? [] };
}
