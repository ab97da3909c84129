import { CallerDeparture } from '../../../../shared/caller-signal.js';
import { httpStatusOf } from '../../interface/execution-http-status.js';
import type { ExecutionRecord } from '../../../executions/domain/execution.js';
import { InvocationFailure } from '../../domain/tool-invoker.port.js';
import { captureLogs, type LogLine } from '../../testing/captured-log.js';
import { ExecuteToolHarness } from '../../testing/execute-tool-harness.js';
import { aRoute } from '../../testing/routes.js';
import type { ToolRoute } from '../tool-route.js';
import type { ExecuteToolInput } from './execute-tool.command.js';
import { refuse } from './outcome.js';
import type { CallInterceptors, CallStage } from './stages/call-stage.js';

const ECHO = 'everything__echo';
const SECRET = { name: 'API_TOKEN', value: 's3cr3t-v4lue-0f-the-source' };

describe('ExecuteToolHandler', () => {
  let logs: { lines: LogLine[]; restore: () => void };
  beforeEach(() => (logs = captureLogs()));
  afterEach(() => logs.restore());

  describe('refuses for the first reason that applies, in the order of its stages', () => {
    /**
     * Every fault applied at once, then taken away one by one: each call answers the next fault's
     * code (its execution status and HTTP status as today), the last one succeeds.
     */
    it('from the request itself to the upstream', async () => {
      const harness = new ExecuteToolHarness({ config: { sourceQueueLimit: 0 } });
      const route = aRoute(ECHO, { source: { maxConcurrency: 1 } });
      harness.targets.add({ ...harnessTarget(route) });
      const input: Partial<ExecuteToolInput> & { qualifiedName: string } = { qualifiedName: ECHO, arguments: { message: 'hi' } };
      const slots: (() => void)[] = [];
      const faults: [code: string, status: string, http: number, apply: () => void | Promise<void>, clear: () => void][] = [
        ['VALIDATION_FAILED', 'invalid_arguments', 400, () => void (input.shapeProblems = [{ path: 'timeoutMs', message: 'must be positive' }]), () => delete input.shapeProblems],
        ['SHUTTING_DOWN', 'rejected', 503, () => void (harness.inFlight.draining = true), () => (harness.inFlight.draining = false)],
        ['TOOL_NOT_FOUND', 'rejected', 404, () => undefined, () => (harness.addToCatalog(route), harness.catalogChanged())],
        ['TOOL_NOT_ALLOWED', 'rejected', 403, () => void (input.scope = { sources: ['memory'] }), () => delete input.scope],
        ['RATE_LIMITED', 'rejected', 429, () => void (input.rateLimitPerMinute = 1, harness.buckets.taken.push('principal:key-1')), () => delete input.rateLimitPerMinute],
        ['TOOL_DEPRECATED', 'rejected', 403, () => void (route.tool.status = 'deprecated'), () => (route.tool.status = 'active')],
        ['SOURCE_DISABLED', 'rejected', 403, () => void (route.source.enabled = false), () => (route.source.enabled = true)],
        ['TOOL_DISABLED', 'rejected', 403, () => void (route.tool.enabled = false), () => (route.tool.enabled = true)],
        ['TOOL_UNUSABLE', 'rejected', 409, () => void (route.tool.unusableReason = 'its inputSchema is too deep'), () => (route.tool.unusableReason = null)],
        ['READ_ONLY_SOURCE', 'rejected', 403, () => void (route.source.readOnly = true), () => (route.source.readOnly = false)],
        ['INVALID_ARGUMENTS', 'invalid_arguments', 400, () => void (input.arguments = ['not', 'an', 'object']), () => (input.arguments = nested(70))],
        ['INVALID_ARGUMENTS', 'invalid_arguments', 400, () => undefined, () => (input.arguments = { message: 'a\u0000b' })],
        ['UNSTORABLE_ARGUMENTS', 'invalid_arguments', 400, () => undefined, () => (input.arguments = { text: 'no message' })],
        ['TOOL_UNUSABLE', 'rejected', 409, () => void (harness.validator.answer = () => ({ unusable: 'its inputSchema could not be compiled' })), () => (harness.validator.answer = undefined)],
        ['INVALID_ARGUMENTS', 'invalid_arguments', 400, () => undefined, () => (input.arguments = { message: 'hi' })],
        ['CIRCUIT_OPEN', 'circuit_open', 503, () => openCircuit(harness, route), () => harness.circuits.forget(route.source.id)],
        ['CONCURRENCY_LIMIT', 'rejected', 429, async () => void slots.push(await harness.bulkheads.forSource(route.source.id, 1).acquire()), () => slots.pop()!()],
        ['TOOL_NOT_FOUND', 'rejected', 404, () => void harness.targets.targets.delete(route.source.id), () => harness.targets.add(harnessTarget(route))],
        ['RECORD_UNAVAILABLE', 'rejected', 503, () => void (harness.recorder.startFailure = new Error('disk full')), () => (harness.recorder.startFailure = undefined)],
      ];
      for (const [, , , apply] of faults) await apply();
      const answered: string[] = [];
      for (const [code, status, http, , clear] of faults) {
        const { record } = await harness.call(input);
        expect([record.error?.code, record.status, httpStatusOf(record)]).toEqual([code, status, http]);
        answered.push(code);
        clear();
        // Routes and target resolutions are cached: a change shows at once only after the catalog changed.
        harness.catalogChanged(route.source.id);
      }
      expect((await harness.call(input)).record.status).toBe('succeeded');
      // Nothing was sent before the last call, and only the calls past the started record's stage were started.
      expect(harness.invoker.requests).toHaveLength(1);
      expect(harness.recorder.records).toHaveLength(faults.length + 1);
      expect(answered).toHaveLength(faults.length);
    });

    it('an upstream that fails: TIMEOUT, CANCELLED, UPSTREAM_PROTOCOL_ERROR, UPSTREAM_UNAVAILABLE', async () => {
      const harness = new ExecuteToolHarness().withTool(aRoute(ECHO, { source: { circuitBreaker: { failureThreshold: 100, resetTimeoutMs: 1000 } } }));
      const call = async (fail: () => void, signal?: CallerDeparture) => {
        fail();
        const { record } = await harness.call({ qualifiedName: ECHO, timeoutMs: 1500 }, { signal });
        return [record.error?.code, record.status, httpStatusOf(record), record.error?.retryable, record.attempts];
      };
      // An abort is a timeout unless the caller left.
      expect(await call(() => harness.invoker.failWith('cancelled', 'aborted'))).toEqual(['TIMEOUT', 'timeout', 504, true, 1]);
      expect(await call(() => harness.invoker.failWith('timeout', 'late'))).toEqual(['TIMEOUT', 'timeout', 504, true, 1]);
      const gone = new CallerDeparture();
      expect(await call(() => (gone.abort(), harness.invoker.failWith('cancelled', 'aborted')), gone)).toEqual(['CANCELLED', 'cancelled', 499, false, 1]);
      expect(await call(() => harness.invoker.failWith('protocol', 'Unknown tool', -32602, { tool: 'echo' }))).toEqual(['UPSTREAM_PROTOCOL_ERROR', 'upstream_error', 502, false, 1]);
      expect(await call(() => harness.invoker.failWith('transport', 'the process died'))).toEqual(['UPSTREAM_UNAVAILABLE', 'upstream_error', 502, true, 1]);
      expect(harness.recorder.records[0]!.error!.message).toBe('The tool did not answer within 1500 ms; the call was cancelled upstream.');
      expect(harness.recorder.records[3]!.error).toEqual({
        code: 'UPSTREAM_PROTOCOL_ERROR',
        message: 'The upstream refused the call: Unknown tool',
        retryable: false,
        details: [{ path: 'rpcCode', message: '-32602' }],
        upstream: { code: -32602, data: { tool: 'echo' } },
      });
    });

    it('an error no stage expected is recorded as INTERNAL_ERROR', async () => {
      const harness = new ExecuteToolHarness();
      harness.reader.failure = new Error('the database is gone');
      const { record } = await harness.call({ qualifiedName: ECHO });
      expect(record).toMatchObject({ status: 'upstream_error', toolId: null, error: { code: 'INTERNAL_ERROR', message: 'the database is gone', retryable: false } });
      expect(httpStatusOf(record)).toBe(500);
      expect(harness.recorder.records).toHaveLength(1);
    });
  });

  describe('retries', () => {
    it('retries a read-only tool on transport failures, at most 3 attempts', async () => {
      const harness = new ExecuteToolHarness().withTool(aRoute(ECHO, { tool: { annotations: { readOnlyHint: true } } }));
      harness.invoker.failWith('transport', 'reset').failWith('transport', 'reset');
      const first = await harness.call({ qualifiedName: ECHO });
      expect([first.record.status, first.record.attempts]).toEqual(['succeeded', 3]);
      harness.invoker.failWith('transport', 'reset').failWith('transport', 'reset').failWith('transport', 'reset');
      const second = await harness.call({ qualifiedName: ECHO });
      expect([second.record.error?.code, second.record.attempts]).toEqual(['UPSTREAM_UNAVAILABLE', 3]);
      expect(harness.invoker.requests).toHaveLength(6);
    });

    it('does not retry a tool that may have side effects, nor a protocol error or a timeout', async () => {
      const harness = new ExecuteToolHarness().withTool(aRoute(ECHO)).withTool(aRoute('everything__read', { tool: { annotations: { idempotentHint: true } } }));
      harness.invoker.failWith('transport', 'reset');
      expect((await harness.call({ qualifiedName: ECHO })).record.attempts).toBe(1);
      harness.invoker.failWith('protocol', 'Invalid params', -32602).failWith('timeout', 'late');
      expect((await harness.call({ qualifiedName: 'everything__read' })).record.attempts).toBe(1);
      expect((await harness.call({ qualifiedName: 'everything__read' })).record.attempts).toBe(1);
      expect(harness.invoker.requests).toHaveLength(3);
    });
  });

  it('answers input_required with what the upstream asks for and its state', async () => {
    const harness = new ExecuteToolHarness().withTool(aRoute(ECHO));
    harness.invoker.next(() => ({ kind: 'input_required', inputRequests: { name: { method: 'elicitation/create', params: {} } }, requestState: 'opaque' }));
    const { record } = await harness.call({ qualifiedName: ECHO, inputResponses: {}, requestState: 'before' });
    expect(record).toMatchObject({ status: 'input_required', isError: false, error: null, result: { content: [], inputRequests: { name: { method: 'elicitation/create' } }, requestState: 'opaque' } });
    expect(httpStatusOf(record)).toBe(200);
    expect(harness.invoker.requests[0]).toMatchObject({ inputResponses: {}, requestState: 'before' });
  });

  describe('the record', () => {
    it('is durable before the call answers, and the call counts as under way until then', async () => {
      const harness = new ExecuteToolHarness().withTool(aRoute(ECHO));
      let written!: () => void;
      const record = harness.recorder.record.bind(harness.recorder);
      harness.recorder.record = (execution: ExecutionRecord) => new Promise<void>((resolve) => (written = () => void record(execution).then(resolve)));
      let answered = false;
      const call = harness.call({ qualifiedName: ECHO }).then((executed) => ((answered = true), executed));
      await waitFor(() => written !== undefined);
      expect([answered, harness.inFlight.size]).toEqual([false, 1]);
      written();
      const { record: answer } = await call;
      expect(harness.inFlight.size).toBe(0);
      expect(harness.recorder.records).toEqual([answer]);
    });

    it('fails the call when it cannot be written', async () => {
      const harness = new ExecuteToolHarness().withTool(aRoute(ECHO));
      harness.recorder.failure = new Error('no disk');
      await expect(harness.call({ qualifiedName: ECHO })).rejects.toThrow('no disk');
      expect(harness.inFlight.size).toBe(0);
      expect(harness.metrics.calls).toHaveLength(0);
    });

    it('puts a call to a tool that is not read-only on the record before it is sent, a read-only one not', async () => {
      const harness = new ExecuteToolHarness().withTool(aRoute(ECHO)).withTool(aRoute('everything__read', { tool: { annotations: { readOnlyHint: true } } }));
      const { record } = await harness.call({ qualifiedName: ECHO, arguments: { message: 'hi', apiToken: 'do-not-store' }, executionId: 'chosen-id' });
      expect(harness.timeline).toEqual(['started', 'invoked', 'recorded succeeded']);
      expect(harness.recorder.started).toEqual([
        expect.objectContaining({ id: 'chosen-id', toolId: record.toolId, status: 'interrupted', attempts: 1, durationMs: 0, result: null, arguments: { message: 'hi', apiToken: '[redacted]' } }),
      ]);
      expect(record).toMatchObject({ id: 'chosen-id', arguments: { message: 'hi', apiToken: '[redacted]' } });
      harness.timeline.length = 0;
      await harness.call({ qualifiedName: 'everything__read' });
      expect(harness.timeline).toEqual(['invoked', 'recorded succeeded']);
    });

    it('names the tool, its source and definition, the caller and channel, and how long the call took', async () => {
      const route = aRoute(ECHO, { tool: { outputSchema: { type: 'object' } } });
      const harness = new ExecuteToolHarness().withTool(route);
      harness.invoker.answers([{ type: 'text', text: 'Echo: hi' }], { structuredContent: { echoed: 'hi' }, meta: { 'vendor/trace': 'x' } });
      const executed = await harness.call({ qualifiedName: ECHO }, { channel: 'mcp', caller: { principalId: 'p', principalName: 'n', clientName: 'claude' } });
      expect(executed.outputSchema).toEqual({ type: 'object' });
      expect(executed.record).toMatchObject({
        toolId: route.tool.id,
        qualifiedName: ECHO,
        sourceId: route.source.id,
        sourceName: 'everything',
        definitionHash: route.tool.definitionHash,
        caller: { principalId: 'p', clientName: 'claude' },
        channel: 'mcp',
        status: 'succeeded',
        isError: false,
        error: null,
        result: { content: [{ type: 'text', text: 'Echo: hi' }], structuredContent: { echoed: 'hi' }, meta: { 'vendor/trace': 'x' }, truncated: false },
        attempts: 1,
        traceId: null,
      });
      expect(executed.record.durationMs).toBeGreaterThanOrEqual(0);
    });

    it('keeps a capped copy of a large result; the caller gets it whole', async () => {
      const harness = new ExecuteToolHarness({ config: { storedResultBytes: 1024 } }).withTool(aRoute(ECHO));
      harness.invoker.answers([{ type: 'text', text: 'x'.repeat(5000) }]);
      const { record } = await harness.call({ qualifiedName: ECHO });
      expect(record.result).toMatchObject({ truncated: false, originalBytes: 5027 });
      expect(harness.recorder.records[0]!.result).toMatchObject({ truncated: true, originalBytes: 5027 });
      expect(JSON.stringify(harness.recorder.records[0]!.result!.content).length).toBeLessThanOrEqual(1024);
    });
  });

  describe("the source's secrets", () => {
    it('are scrubbed from the result, the error, progress, log messages and requests for input', async () => {
      const harness = new ExecuteToolHarness().withTool(aRoute(ECHO), [SECRET]);
      const heard: unknown[] = [];
      harness.invoker.next(async (request) => {
        request.onProgress!({ progress: 1, message: `using ${SECRET.value}` });
        request.log!.onMessage({ level: 'info', data: { header: SECRET.value } });
        await request.onInputRequest!({ method: 'elicitation/create', params: { message: SECRET.value } });
        return { kind: 'result', isError: false, content: [{ type: 'text', text: `token=${SECRET.value}` }], truncated: false, originalBytes: 60 };
      });
      const listeners = {
        onProgress: (update: unknown) => void heard.push(update),
        log: { level: 'debug' as const, onMessage: (message: unknown) => void heard.push(message) },
        onInputRequest: async (request: unknown) => (heard.push(request), {}),
      };
      const { record } = await harness.call({ qualifiedName: ECHO }, { listeners });
      expect(record.result!.content).toEqual([{ type: 'text', text: 'token=[secret:API_TOKEN]' }]);
      expect(harness.recorder.records[0]!.result!.content).toEqual([{ type: 'text', text: 'token=[secret:API_TOKEN]' }]);
      expect(heard).toEqual([
        { progress: 1, message: 'using [secret:API_TOKEN]' },
        { level: 'info', data: { header: '[secret:API_TOKEN]' } },
        { method: 'elicitation/create', params: { message: '[secret:API_TOKEN]' } },
      ]);

      harness.invoker.failWith('transport', `connect failed with ${SECRET.value}`);
      const failed = await harness.call({ qualifiedName: ECHO });
      expect(failed.record.error!.message).toBe('The upstream failed: connect failed with [secret:API_TOKEN]');
      expect(JSON.stringify(harness.recorder.records)).not.toContain(SECRET.value);
    });
  });

  it('tells the metrics and the call log how every call ended', async () => {
    const harness = new ExecuteToolHarness().withTool(aRoute(ECHO));
    await harness.call({ qualifiedName: ECHO, requestId: 'req-1' }, { caller: { principalId: 'key-1', principalName: 'agent', clientName: 'cli' } });
    await harness.call({ qualifiedName: 'nothing__here' });
    expect(harness.metrics.calls).toEqual([
      { source: 'everything', tool: ECHO, channel: 'rest', status: 'succeeded', seconds: expect.any(Number), upstreamSeconds: expect.any(Number) },
      { source: null, tool: null, channel: 'rest', status: 'rejected', seconds: expect.any(Number), upstreamSeconds: null },
    ]);
    const [first, second] = harness.recorder.records;
    expect(logs.lines.filter(({ context }) => context === 'calls').map(({ message, context }) => [message, context])).toEqual([
      [
        { requestId: 'req-1', msg: 'call ended', executionId: first!.id, tool: ECHO, source: 'everything', channel: 'rest', status: 'succeeded', durationMs: first!.durationMs, principal: 'key-1', client: 'cli' },
        'calls',
      ],
      [
        { msg: 'call ended', executionId: second!.id, tool: 'nothing__here', source: null, channel: 'rest', status: 'rejected', code: 'TOOL_NOT_FOUND', durationMs: second!.durationMs, principal: 'key-1' },
        'calls',
      ],
    ]);
  });

  describe('the circuit', () => {
    it('opens after the failures of its threshold and lets one trial through once its reset time passed', async () => {
      const route = aRoute(ECHO, { source: { circuitBreaker: { failureThreshold: 2, resetTimeoutMs: 1000 } } });
      const harness = new ExecuteToolHarness().withTool(route);
      harness.invoker.failWith('timeout', 'late').failWith('transport', 'died');
      await harness.call({ qualifiedName: ECHO });
      await harness.call({ qualifiedName: ECHO });
      const refused = (await harness.call({ qualifiedName: ECHO })).record;
      expect([refused.error?.code, refused.error?.retryAfterMs]).toEqual(['CIRCUIT_OPEN', 1000]);
      harness.clock.advance(1000);
      expect((await harness.call({ qualifiedName: ECHO })).record.status).toBe('succeeded');
      expect((await harness.call({ qualifiedName: ECHO })).record.status).toBe('succeeded');
    });

    it("gives a half-open circuit's trial back when the call fails in a way no stage expected", async () => {
      const route = aRoute(ECHO, { source: { circuitBreaker: { failureThreshold: 1, resetTimeoutMs: 1000 } } });
      const harness = new ExecuteToolHarness().withTool(route);
      harness.invoker.failWith('transport', 'the process died');
      expect((await harness.call({ qualifiedName: ECHO })).record.error?.code).toBe('UPSTREAM_UNAVAILABLE');
      harness.clock.advance(1000);
      harness.catalogChanged();
      harness.targets.failure = new Error('the secret is gone');
      expect((await harness.call({ qualifiedName: ECHO })).record.error?.code).toBe('INTERNAL_ERROR');
      harness.targets.failure = undefined;
      expect((await harness.call({ qualifiedName: ECHO })).record.status).toBe('succeeded');
    });
  });

  describe('the interceptors’ seam', () => {
    it('runs pre stages on the prepared arguments, before anything is admitted or started; a refusal there is recorded', async () => {
      const seen: unknown[] = [];
      const pre: CallStage = {
        run: (call) => {
          seen.push({ args: call.arguments, pass: call.pass, timeline: [...harness.timeline] });
          return call.arguments!.message === 'deny' ? refuse('rejected', 'INTERCEPTED', 'denied by a stage') : undefined;
        },
      };
      const route = aRoute(ECHO, { tool: { inputSchema: { type: 'object', properties: { message: { type: 'string' }, note: { type: 'string' } }, required: ['message'] } } });
      const harness = new ExecuteToolHarness({ interceptors: { pre: [pre], post: [] } satisfies CallInterceptors }).withTool(route);
      await harness.call({ qualifiedName: ECHO, arguments: { message: 'hi', note: null } });
      const denied = await harness.call({ qualifiedName: ECHO, arguments: { message: 'deny' } });
      expect(seen).toEqual([
        { args: { message: 'hi' }, pass: undefined, timeline: [] },
        { args: { message: 'deny' }, pass: undefined, timeline: ['started', 'invoked', 'recorded succeeded'] },
      ]);
      expect(denied.record.error?.code).toBe('INTERCEPTED');
      expect(harness.invoker.requests).toHaveLength(1);
      expect(harness.recorder.started).toHaveLength(1);
    });

    it('runs post stages on what the upstream answered, before it is scrubbed and recorded, and only then', async () => {
      const post: CallStage = {
        run: (call) => {
          call.outcome = { ...call.outcome!, result: { ...call.outcome!.result!, content: [{ type: 'text', text: `changed, with ${SECRET.value}` }] } };
          return undefined;
        },
      };
      const harness = new ExecuteToolHarness({ interceptors: { pre: [], post: [post] } }).withTool(aRoute(ECHO), [SECRET]);
      const { record } = await harness.call({ qualifiedName: ECHO });
      expect(record.result!.content).toEqual([{ type: 'text', text: 'changed, with [secret:API_TOKEN]' }]);
      expect(harness.recorder.records[0]!.result!.content).toEqual(record.result!.content);
      harness.invoker.failWith('protocol', 'no');
      expect((await harness.call({ qualifiedName: ECHO })).record.result).toBeNull();
    });
  });

  it('frees the slot and the deadline of every call, however it ends', async () => {
    const route = aRoute(ECHO, { source: { maxConcurrency: 1 } });
    const harness = new ExecuteToolHarness({ config: { sourceQueueLimit: 0 } }).withTool(route);
    harness.invoker.failWith('transport', 'died').next(() => Promise.reject(new InvocationFailure('protocol', 'no')));
    harness.recorder.startFailure = new Error('full');
    await harness.call({ qualifiedName: ECHO });
    harness.recorder.startFailure = undefined;
    await harness.call({ qualifiedName: ECHO });
    await harness.call({ qualifiedName: ECHO });
    await harness.call({ qualifiedName: ECHO });
    expect(harness.bulkheads.forSource(route.source.id, 1).inFlight).toBe(0);
    expect(harness.recorder.records.map((record) => record.error?.code ?? record.status)).toEqual(['RECORD_UNAVAILABLE', 'UPSTREAM_UNAVAILABLE', 'UPSTREAM_PROTOCOL_ERROR', 'succeeded']);
  });
});

function harnessTarget(route: ToolRoute) {
  return { sourceId: route.source.id, sourceName: route.source.name, transport: 'stdio' as const, lifecycle: 'singleton' as const, command: 'node', args: [], env: {}, headers: {}, secrets: [] };
}

function openCircuit(harness: ExecuteToolHarness, route: ToolRoute): void {
  const breaker = harness.circuits.forSource(route.source.id, route.source.circuitBreaker);
  for (let i = 0; i < route.source.circuitBreaker.failureThreshold; i++) breaker.onFailure(false, harness.clock.now().getTime());
}

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { message: 'deep' };
  for (let i = 0; i < depth; i++) value = { message: 'hi', inner: value };
  return value;
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}
