import type { CommandBus } from '@nestjs/cqrs';
import { loadConfig } from '../../../config/app-config.js';
import { CallerDeparture } from '../../../shared/caller-signal.js';
import { TaskChanges } from '../../../shared/task-changes.js';
import { CallTasks } from '../../execution/application/call-tasks.js';
import { ExecuteToolCommand } from '../../execution/application/execute-tool/execute-tool.command.js';
import { ExecuteToolHarness } from '../../execution/testing/execute-tool-harness.js';
import { aRoute } from '../../execution/testing/routes.js';
import type { ExecutionView } from '../../executions/application/execution-view.js';
import type { ExecutionRecord } from '../../executions/domain/execution.js';
import { InMemoryExecutionReads } from '../../executions/testing/in-memory-execution-reads.js';
import { until } from '../../../shared/testing/until.js';
import type { McpGatewayServer } from '../mcp-gateway-server.js';
import { MAX_FOLLOWED, TaskStatusNotifier } from './task-status-notifier.js';
import type { McpTaskView } from './task-wire.js';

const SLOW = 'lab__research';
const ALICE = { principalId: 'key-alice', principalName: 'alice' };
const BOB = { principalId: 'key-bob', principalName: 'bob' };

/** The notifier over CallTasks on the pipeline's harness, with the changes its tasks announce. */
function setUp() {
  const harness = new ExecuteToolHarness().withTool(aRoute(SLOW));
  const reads = new InMemoryExecutionReads();
  const record = harness.recorder.record.bind(harness.recorder);
  harness.recorder.record = async (execution: ExecutionRecord) => {
    await record(execution);
    reads.record(viewOf(execution));
  };
  const bus = { execute: (command: ExecuteToolCommand) => harness.handler.execute(command) } as unknown as CommandBus;
  const changes = new TaskChanges();
  const config = { ...loadConfig({}), executionRetentionMs: null };
  const tasks = new CallTasks(bus, harness.tasks, reads, harness.clock, config, undefined, changes);
  // watch() tells its own listener: the gateway (2025-era sessions) is not reached.
  const notifier = new TaskStatusNotifier(tasks, {} as McpGatewayServer, config);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  harness.invoker.next(async () => {
    await gate;
    return { kind: 'result' as const, isError: false, content: [{ type: 'text', text: 'done' }], truncated: false, originalBytes: 30 };
  });
  const start = async (caller = ALICE) => (await tasks.start(new ExecuteToolCommand({ qualifiedName: SLOW, arguments: { message: 'tides' } }, caller, 'mcp'))).task!.id;
  return { harness, changes, notifier, start, release };
}

function listener() {
  const told: Pick<McpTaskView, 'status' | 'statusMessage'>[] = [];
  let ended = false;
  return { told, tell: (_state: unknown, view: McpTaskView) => void told.push({ status: view.status, ...(view.statusMessage ? { statusMessage: view.statusMessage } : {}) }), ended: () => (ended = true), hasEnded: () => ended };
}

describe('TaskStatusNotifier.watch', () => {
  it('tells the state at once, then each change as it is announced, until the task ends', async () => {
    const f = setUp();
    const id = await f.start();
    const l = listener();
    expect(f.notifier.watch(ALICE.principalId, id, { ended: l.ended }, l.tell)).toBe(true);
    await until(() => l.told.length === 1, 2_000);
    expect(l.told).toEqual([{ status: 'working' }]);

    // Held for approval by another process: its announcement wakes the watch long before a look would (5 s).
    await f.harness.tasks.update(id, { status: 'pending_approval', statusMessage: 'waiting for approval' });
    f.changes.announce(id);
    await until(() => l.told.length === 2, 1_000);
    expect(l.told[1]).toEqual({ status: 'working', statusMessage: 'waiting for approval' });

    await f.harness.tasks.update(id, { status: 'working', statusMessage: null });
    f.release();
    await until(() => l.hasEnded(), 2_000);
    expect(l.told.at(-1)).toEqual({ status: 'completed' });
    expect([f.notifier.followedCount, f.changes.followedCount]).toEqual([0, 0]);
  });

  it('tells nothing unless a change is announced or a look finds it', async () => {
    const f = setUp();
    const id = await f.start();
    const l = listener();
    f.notifier.watch(ALICE.principalId, id, { told: { status: 'working' } }, l.tell);
    await f.harness.tasks.update(id, { status: 'pending_approval', statusMessage: 'waiting for approval' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(l.told).toEqual([]);
    f.changes.heardAll();
    await until(() => l.told.length === 1, 1_000);
    f.release();
    await until(() => l.told.at(-1)?.status === 'completed', 2_000);
  });

  it("never tells another principal's task: the watch ends at its first look", async () => {
    const f = setUp();
    const id = await f.start(BOB);
    const l = listener();
    expect(f.notifier.watch(ALICE.principalId, id, { ended: l.ended }, l.tell)).toBe(true);
    await until(() => l.hasEnded(), 2_000);
    f.changes.announce(id);
    f.release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(l.told).toEqual([]);
    expect([f.notifier.followedCount, f.changes.followedCount]).toEqual([0, 0]);
  });

  it('ends a watch whose listener went away, and lets go of everything it held', async () => {
    const f = setUp();
    const id = await f.start();
    const gone = new CallerDeparture();
    const l = listener();
    f.notifier.watch(ALICE.principalId, id, { until: gone, ended: l.ended }, l.tell);
    await until(() => l.told.length === 1, 2_000);
    gone.abort();
    await until(() => l.hasEnded(), 2_000);
    expect([f.notifier.followedCount, f.changes.followedCount]).toEqual([0, 0]);
    expect(f.notifier.watch(ALICE.principalId, id, { until: gone }, l.tell)).toBe(false);
    f.release();
  });

  it(`follows at most ${MAX_FOLLOWED} tasks at once`, async () => {
    const f = setUp();
    const id = await f.start();
    const gone = new CallerDeparture();
    const accepted = Array.from({ length: MAX_FOLLOWED + 5 }, () => f.notifier.watch(ALICE.principalId, id, { until: gone, told: { status: 'working' } }, () => undefined));
    expect(accepted.filter(Boolean)).toHaveLength(MAX_FOLLOWED);
    gone.abort();
    await until(() => f.notifier.followedCount === 0, 2_000);
    expect(f.changes.followedCount).toBe(0);
    f.release();
  });
});

function viewOf(record: ExecutionRecord): ExecutionView {
  return { ...record, startedAt: record.startedAt.toISOString(), traceId: record.traceId ?? null, group: record.group ?? null, interceptors: record.interceptors ?? [] };
}
