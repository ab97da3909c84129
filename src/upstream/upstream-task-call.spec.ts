import { ProtocolError } from '@modelcontextprotocol/client';
import { Deadline } from './deadline.js';
import { runUpstreamTask, withoutTaskId, type StartedTaskCall, type TaskCallOutcome, type TaskCallStart, type UpstreamTaskCalls } from './upstream-task-call.js';
import { UpstreamError } from './upstream-error.js';

const TASK_ID = 'upstream-task-7f3a';
const START: TaskCallStart = { name: 'research', arguments: { topic: 'x' }, meta: { progressToken: 't' }, preference: 'require', requestTimeoutMs: 1000 };

/** An upstream that takes a call as a task (or answers at once) and ends it when the test says. */
class FakeTaskCalls implements UpstreamTaskCalls {
  readonly cancels: string[] = [];
  closed = 0;
  private finish!: (outcome: TaskCallOutcome) => void;
  private readonly outcome = new Promise<TaskCallOutcome>((resolve) => (this.finish = resolve));

  constructor(
    /** null: the upstream answers at once. */
    private readonly id: string | null = TASK_ID,
    private readonly creation: Promise<void> = Promise.resolve(),
  ) {}

  end(outcome: TaskCallOutcome): void {
    this.finish(outcome);
  }

  async start(): Promise<StartedTaskCall> {
    await this.creation;
    return {
      taskId: this.id ?? undefined,
      settle: (signal) =>
        new Promise<TaskCallOutcome>((resolve, reject) => {
          signal.addEventListener('abort', () => reject(new Error('stopped waiting')), { once: true });
          void this.outcome.then(resolve);
        }),
      cancel: async () => {
        this.cancels.push(this.id!);
      },
      close: async () => {
        this.closed++;
      },
    };
  }
}

describe('runUpstreamTask', () => {
  it('answers the result of a completed task and tells the upstream task id to onCreated only', async () => {
    const calls = new FakeTaskCalls();
    const created: string[] = [];
    const deadline = new Deadline(5000);
    const running = runUpstreamTask(calls, START, deadline, (id) => created.push(id));
    calls.end({ status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } });
    await expect(running).resolves.toEqual({ content: [{ type: 'text', text: 'done' }] });
    expect(created).toEqual([TASK_ID]);
    expect(calls.cancels).toEqual([]);
    expect(calls.closed).toBe(1);
    deadline.dispose();
  });

  it('answers an upstream that answered at once without a task', async () => {
    const calls = new FakeTaskCalls(null);
    const created: string[] = [];
    const deadline = new Deadline(5000);
    const running = runUpstreamTask(calls, START, deadline, (id) => created.push(id));
    calls.end({ status: 'completed', result: { content: [] } });
    await expect(running).resolves.toEqual({ content: [] });
    expect(created).toEqual([]);
    deadline.dispose();
  });

  it('sends tasks/cancel when the caller leaves, and fails as cancelled', async () => {
    const calls = new FakeTaskCalls();
    const caller = new AbortController();
    const deadline = new Deadline(5000, caller.signal);
    const running = runUpstreamTask(calls, START, deadline);
    await new Promise((resolve) => setTimeout(resolve, 10));
    caller.abort();
    await expect(running).rejects.toMatchObject({ kind: 'aborted' });
    expect(calls.cancels).toEqual([TASK_ID]);
    deadline.dispose();
  });

  it('holds the whole task to the deadline: when it passes, the task is cancelled upstream and the call timed out', async () => {
    const calls = new FakeTaskCalls();
    const deadline = new Deadline(30);
    await expect(runUpstreamTask(calls, START, deadline)).rejects.toMatchObject({ kind: 'timeout' });
    expect(calls.cancels).toEqual([TASK_ID]);
    deadline.dispose();
  });

  it('cancels a task created after the caller already left', async () => {
    let create!: () => void;
    const calls = new FakeTaskCalls(TASK_ID, new Promise<void>((resolve) => (create = resolve)));
    const caller = new AbortController();
    const deadline = new Deadline(5000, caller.signal);
    const running = runUpstreamTask(calls, START, deadline);
    caller.abort();
    await expect(running).rejects.toMatchObject({ kind: 'aborted' });
    create();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls.cancels).toEqual([TASK_ID]);
    expect(calls.closed).toBe(1);
    deadline.dispose();
  });

  it('fails a task the upstream failed as a protocol failure with its code, the task id hidden everywhere', async () => {
    const calls = new FakeTaskCalls();
    const deadline = new Deadline(5000);
    const running = runUpstreamTask(calls, START, deadline);
    calls.end({ status: 'failed', message: `task ${TASK_ID} ran out of disk`, code: -32000, data: { task: TASK_ID, nested: [TASK_ID] } });
    const error = await running.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).kind).toBe('protocol');
    const cause = (error as UpstreamError).cause as ProtocolError;
    expect(cause).toBeInstanceOf(ProtocolError);
    expect(cause.code).toBe(-32000);
    expect(JSON.stringify({ message: (error as Error).message, cause: cause.message, data: cause.data })).not.toContain(TASK_ID);
    expect((error as Error).message).toContain('[upstream task] ran out of disk');
    deadline.dispose();
  });

  it('fails a task the upstream cancelled by itself, without sending tasks/cancel', async () => {
    const calls = new FakeTaskCalls();
    const deadline = new Deadline(5000);
    const running = runUpstreamTask(calls, START, deadline);
    calls.end({ status: 'cancelled' });
    await expect(running).rejects.toMatchObject({ kind: 'protocol', message: 'the upstream cancelled the task of research' });
    expect(calls.cancels).toEqual([]);
    deadline.dispose();
  });
});

describe('withoutTaskId', () => {
  it('hides the id in messages, causes and JSON-RPC data, and leaves other errors as they are', () => {
    const plain = new Error('nothing to hide');
    expect(withoutTaskId(plain, TASK_ID)).toBe(plain);
    const nested = new UpstreamError('http', `polling ${TASK_ID} failed`, { httpStatus: 502, cause: new ProtocolError(-32602, `no task ${TASK_ID}`, { id: TASK_ID }) });
    const hidden = withoutTaskId(nested, TASK_ID) as UpstreamError;
    expect(hidden.httpStatus).toBe(502);
    expect(hidden.message).toBe('polling [upstream task] failed');
    expect((hidden.cause as ProtocolError).message).not.toContain(TASK_ID);
    expect((hidden.cause as ProtocolError).data).toEqual({ id: '[upstream task]' });
  });
});
