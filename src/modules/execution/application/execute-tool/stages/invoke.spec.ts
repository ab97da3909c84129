import { CallerDeparture } from '../../../../../shared/caller-signal.js';
import { ExecuteToolHarness, type CallOptions } from '../../../testing/execute-tool-harness.js';
import { aRoute } from '../../../testing/routes.js';
import type { ToolRoute } from '../../tool-route.js';
import type { ExecuteToolInput } from '../execute-tool.command.js';

/** A call through the stages before invoke, ready to be sent. */
async function readyCall(harness: ExecuteToolHarness, route: ToolRoute, input: Partial<ExecuteToolInput> = {}, options: CallOptions = {}) {
  const call = harness.newCall({ qualifiedName: route.tool.qualifiedName, ...input }, route, options);
  expect((await harness.stages.prepareArguments.run(call)) ?? (await harness.stages.guard.run(call)) ?? (await harness.stages.locateUpstream.run(call))).toBeUndefined();
  return call;
}

describe('InvokeStage', () => {
  const route = aRoute('everything__echo', { tool: { outputSchema: { type: 'object' } } });

  it('sends the prepared arguments within the deadline, and keeps what the tool answered', async () => {
    const harness = new ExecuteToolHarness({ config: { maxResultBytes: 4096 } }).withTool(route);
    harness.invoker.answers([{ type: 'text', text: 'oops' }], { isError: true, structuredContent: { n: 1 }, meta: { 'vendor/x': 1 } });
    const call = await readyCall(harness, route, { inputResponses: { a: {} }, requestState: 'state', clientCapabilities: { sampling: {} } });
    expect(await harness.stages.invoke.run(call)).toBeUndefined();
    expect(harness.invoker.requests[0]).toMatchObject({
      target: call.target,
      toolName: 'echo',
      arguments: { message: 'hello' },
      timeoutMs: 30_000,
      signalTimesOut: true,
      maxResultBytes: 4096,
      definition: { inputSchema: route.tool.inputSchema, outputSchema: { type: 'object' } },
      inputResponses: { a: {} },
      requestState: 'state',
      clientCapabilities: { sampling: {} },
    });
    expect(harness.invoker.requests[0]!.signal).toBe(call.pass!.signal);
    expect(call.outcome).toEqual({
      status: 'tool_error',
      isError: true,
      error: null,
      result: { content: [{ type: 'text', text: 'oops' }], structuredContent: { n: 1 }, meta: { 'vendor/x': 1 }, truncated: false, originalBytes: 38 },
    });
    expect([call.attempts, call.upstreamMs! >= 0, call.measuredResult]).toEqual([1, true, call.outcome!.result]);
    call.pass!.release();
  });

  it.each([
    ['required', false, { required: true, declared: true }],
    ['required', true, { required: true, declared: true }],
    ['optional', true, { required: false, declared: true }],
    ['optional', false, undefined],
    ['forbidden', true, { required: false, declared: false }],
    ['forbidden', false, undefined],
  ] as const)('calls a tool whose taskSupport is %s, a task asked for: %s, with task %j upstream', async (taskSupport, asTask, task) => {
    const tasked = aRoute('tasks__research', { tool: { taskSupport } });
    const harness = new ExecuteToolHarness().withTool(tasked);
    harness.invoker.answers([{ type: 'text', text: 'done' }]);
    const call = await readyCall(harness, tasked, { asTask });
    expect(await harness.stages.invoke.run(call)).toBeUndefined();
    expect(harness.invoker.requests[0]!.task).toEqual(task && { ...task, onCreated: expect.any(Function) });
    call.pass!.release();
  });

  it("keeps the upstream's task id on the call's task row, and only there", async () => {
    const tasked = aRoute('tasks__research', { tool: { taskSupport: 'required' } });
    const harness = new ExecuteToolHarness().withTool(tasked);
    harness.invoker.answers([{ type: 'text', text: 'done' }]);
    const call = await readyCall(harness, tasked, { asTask: true });
    const now = new Date();
    await harness.tasks.create({ id: call.id, principalId: 'p', principalName: 'p', qualifiedName: 'tasks__research', channel: 'rest', status: 'working', statusMessage: null, createdAt: now, updatedAt: now, ttlMs: null, pollIntervalMs: 1000, cancelRequested: false, upstreamTaskId: null, approvalId: null, inputRequests: null, sourceId: null, sourceName: null, group: null });
    expect(await harness.stages.invoke.run(call)).toBeUndefined();
    harness.invoker.requests[0]!.task!.onCreated!('upstream-7');
    await new Promise((resolve) => setImmediate(resolve));
    expect((await harness.tasks.get(call.id))?.upstreamTaskId).toBe('upstream-7');
    expect(JSON.stringify(call.outcome)).not.toContain('upstream-7');
    call.pass!.release();
  });

  it('retries a read-only or idempotent tool after transport failures, within the deadline', async () => {
    const readOnly = aRoute('everything__read', { tool: { annotations: { idempotentHint: true } } });
    const harness = new ExecuteToolHarness().withTool(readOnly);
    harness.invoker.failWith('transport', 'reset');
    const call = await readyCall(harness, readOnly);
    expect(await harness.stages.invoke.run(call)).toBeUndefined();
    expect([call.attempts, call.outcome?.status]).toEqual([2, 'succeeded']);

    // The jittered backoff (here 25 ms) would end after the 1 ms deadline, so no second attempt.
    const random = Math.random;
    Math.random = () => 0.5;
    try {
      harness.invoker.failWith('transport', 'reset');
      const late = await readyCall(harness, readOnly, { timeoutMs: 1 });
      expect((await harness.stages.invoke.run(late))?.error.code).toBe('UPSTREAM_UNAVAILABLE');
      expect(late.attempts).toBe(1);
    } finally {
      Math.random = random;
    }
  });

  it('refuses when no result came, and tells the circuit only of transport failures and timeouts', async () => {
    const harness = new ExecuteToolHarness().withTool(route);
    const breaker = harness.circuits.forSource(route.source.id, route.source.circuitBreaker);
    const failed = async (fail: () => void, options: CallOptions = {}) => {
      fail();
      const call = await readyCall(harness, route, { timeoutMs: 700 }, options);
      const refusal = await harness.stages.invoke.run(call);
      call.pass!.release();
      return [refusal?.status, refusal?.error.code, breaker.snapshot(harness.clock.now().getTime()).consecutiveFailures];
    };
    expect(await failed(() => harness.invoker.failWith('protocol', 'Invalid params', -32602))).toEqual(['upstream_error', 'UPSTREAM_PROTOCOL_ERROR', 0]);
    const gone = new CallerDeparture();
    expect(await failed(() => (gone.abort(), harness.invoker.failWith('cancelled', 'aborted')), { signal: gone })).toEqual(['cancelled', 'CANCELLED', 0]);
    expect(await failed(() => harness.invoker.failWith('cancelled', 'aborted'))).toEqual(['timeout', 'TIMEOUT', 1]);
    expect(await failed(() => harness.invoker.next(() => Promise.reject(new Error('socket hang up'))))).toEqual(['upstream_error', 'UPSTREAM_UNAVAILABLE', 2]);
  });

  it("keeps an upstream's JSON-RPC error data only when it is small", async () => {
    const harness = new ExecuteToolHarness().withTool(route);
    harness.invoker.failWith('protocol', 'small', -32001, { why: 'x' }).failWith('protocol', 'large', -32001, { why: 'x'.repeat(9000) }).failWith('protocol', 'no code');
    const errors = [];
    for (let i = 0; i < 3; i++) {
      const call = await readyCall(harness, route);
      errors.push((await harness.stages.invoke.run(call))?.error);
      call.pass!.release();
    }
    expect(errors.map((error) => [error?.upstream, error?.details])).toEqual([
      [{ code: -32001, data: { why: 'x' } }, [{ path: 'rpcCode', message: '-32001' }]],
      [{ code: -32001 }, [{ path: 'rpcCode', message: '-32001' }]],
      [undefined, undefined],
    ]);
  });

  it('answers input_required with the requests and the state to echo', async () => {
    const harness = new ExecuteToolHarness().withTool(route);
    harness.invoker.next(() => ({ kind: 'input_required', inputRequests: { r: { method: 'roots/list', params: {} } } }));
    const call = await readyCall(harness, route);
    await harness.stages.invoke.run(call);
    expect(call.outcome).toEqual({
      status: 'input_required',
      isError: false,
      error: null,
      result: { content: [], truncated: false, originalBytes: 0, inputRequests: { r: { method: 'roots/list', params: {} } }, requestState: undefined },
    });
    expect(call.measuredResult).toBeUndefined();
    call.pass!.release();
  });
});
