import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { RequestScopedHttpTransport } from '../../src/upstream/http/request-scoped-http-transport.js';
import { McpToolExecutor } from '../../src/upstream/mcp-tool-executor.js';
import { liveStdioProcessIds } from '../../src/upstream/stdio/process-registry.js';
import { TransportFactory } from '../../src/upstream/transport-factory.js';
import { InvocationFailure, type InvocationOutcome, type InvocationRequest, type InputRequest, type ProgressUpdate, type UpstreamLogMessage } from '../../src/modules/execution/domain/tool-invoker.port.js';
import type { UpstreamTarget } from '../../src/modules/sources/domain/upstream.js';
import {
  closedPort,
  eventually,
  isRunning,
  paths,
  processTag,
  processesMatching,
  remoteTarget,
  scratchDir,
  startHttpServer,
  stdioTarget,
  type RunningServer,
  type Scratch,
} from './mcp-test-support.js';

const node = process.execPath;
const MiB = 1024 * 1024;

type ToolResult = Extract<InvocationOutcome, { kind: 'result' }>;

describe('McpToolExecutor', () => {
  let factory: TransportFactory;
  let executor: McpToolExecutor;
  let scratch: Scratch;
  let tag: string;
  let servers: RunningServer[];
  let cleanups: (() => Promise<void>)[];

  beforeEach(() => {
    factory = new TransportFactory();
    executor = new McpToolExecutor(factory);
    scratch = scratchDir();
    tag = processTag();
    servers = [];
    cleanups = [];
  });

  afterEach(async () => {
    await factory.closeAll();
    await Promise.all(servers.map((server) => server.stop()));
    await Promise.all(cleanups.map((cleanup) => cleanup()));
    scratch.remove();
    expect(liveStdioProcessIds()).toEqual([]);
    expect(await eventually(() => processesMatching(tag).length === 0)).toBe(true);
  });

  function invoke(target: UpstreamTarget, toolName: string, args: Record<string, unknown> = {}, extra: Partial<InvocationRequest> = {}) {
    return executor.invoke({ target, toolName, arguments: args, timeoutMs: 15_000, maxResultBytes: MiB, ...extra });
  }

  async function call(target: UpstreamTarget, toolName: string, args: Record<string, unknown> = {}, extra: Partial<InvocationRequest> = {}) {
    return asResult(await invoke(target, toolName, args, extra));
  }

  async function start(args: string[], env: Record<string, string> = {}): Promise<RunningServer> {
    const server = await startHttpServer([...args, tag], env);
    servers.push(server);
    return server;
  }

  function faulty(overrides: Partial<UpstreamTarget> = {}): UpstreamTarget {
    return stdioTarget(node, [paths.faulty, tag], { lifecycle: 'singleton', ...overrides });
  }

  /** The pooled connection's HTTP transport (the use sends nothing). */
  function httpTransportOf(target: UpstreamTarget): Promise<RequestScopedHttpTransport> {
    return factory.withClient(target, async ({ connection }) => connection.transport as RequestScopedHttpTransport, { timeoutMs: 5000 });
  }

  describe.each([
    ['transient stdio', 'stdio-transient'],
    ['singleton stdio', 'stdio-singleton'],
    ['Streamable HTTP', 'http'],
  ] as const)('server-everything over %s', (_label, kind) => {
    async function everything(): Promise<UpstreamTarget> {
      if (kind === 'http') {
        const server = await start([paths.everything, 'streamableHttp']);
        return remoteTarget('streamable-http', `http://127.0.0.1:${server.port}/mcp`);
      }
      return stdioTarget(node, [paths.everything, 'stdio', tag], { lifecycle: kind === 'stdio-singleton' ? 'singleton' : 'transient' });
    }

    test('answers are kept as the tool sent them: text, image, structuredContent', async () => {
      const target = await everything();

      expect(await call(target, 'echo', { message: 'hello ✓' })).toEqual({
        kind: 'result',
        isError: false,
        content: [{ type: 'text', text: 'Echo: hello ✓' }],
        truncated: false,
        originalBytes: JSON.stringify([{ type: 'text', text: 'Echo: hello ✓' }]).length + 2,
      });
      expect((await call(target, 'get-sum', { a: 2, b: 40 })).content).toEqual([{ type: 'text', text: 'The sum of 2 and 40 is 42.' }]);

      const image = await call(target, 'get-tiny-image');
      expect(image.content).toHaveLength(3);
      expect(image.content[1]).toEqual({ type: 'image', mimeType: 'image/png', data: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) });
      expect(Buffer.from((image.content[1] as { data: string }).data, 'base64').subarray(1, 4).toString()).toBe('PNG');

      const weather = await call(target, 'get-structured-content', { location: 'Chicago' });
      expect(weather.structuredContent).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
      expect(weather.content).toEqual([{ type: 'text', text: JSON.stringify(weather.structuredContent) }]);
      expect(weather.isError).toBe(false);
    });

    test('progress updates reach onProgress', async () => {
      const target = await everything();
      const updates: ProgressUpdate[] = [];
      const result = await call(target, 'trigger-long-running-operation', { duration: 0.3, steps: 3 }, { onProgress: (update) => updates.push(update) });
      expect(result.content).toEqual([{ type: 'text', text: 'Long running operation completed. Duration: 0.3 seconds, Steps: 3.' }]);
      // The SDK dispatches notifications a few microtasks later than responses, so a progress
      // notification sent right before the result can miss the call; the earlier ones arrive.
      expect(updates.length).toBeGreaterThanOrEqual(2);
      expect(updates).toEqual([1, 2, 3].slice(0, updates.length).map((progress) => ({ progress, total: 3 })));
    });

    test('a timeout fails the call as "timeout" and ends the upstream request', async () => {
      const target = await everything();
      if (kind === 'stdio-singleton') await call(target, 'echo', { message: 'warm up' });
      const pids = liveStdioProcessIds();
      const startedAt = Date.now();

      // A transient source starts its process within the budget: 3 s leaves a loaded CI runner room
      // to reach the call (700 ms ran out while connecting there), which is what must time out.
      const error = await failure(invoke(target, 'trigger-long-running-operation', { duration: 10, steps: 2 }, { timeoutMs: 3_000 }));
      expect(error.kind).toBe('timeout');
      expect(error.message).toBe('timed out after 3000 ms calling tool trigger-long-running-operation');
      expect(Date.now() - startedAt).toBeLessThan(5000);

      if (kind === 'stdio-transient') expect(processesMatching(tag)).toEqual([]);
      if (kind === 'stdio-singleton') expect(liveStdioProcessIds()).toEqual(pids);
      if (kind === 'http') expect((await httpTransportOf(target)).openRequestCount).toBe(0);
      // The connection (pooled or not) is usable right away.
      expect((await call(target, 'echo', { message: 'again' })).content).toEqual([{ type: 'text', text: 'Echo: again' }]);
    });

    test('an unknown tool: this (SDK v1) server answers with an isError result, recorded as such', async () => {
      const target = await everything();
      expect(await call(target, 'no-such-tool')).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'MCP error -32602: Tool no-such-tool not found' }],
      });
    });
  });

  describe('cancellation reaches the upstream', () => {
    describe.each([
      ['2026-07-28', undefined],
      ['2025', 'legacy'],
    ] as const)('over stdio, %s era', (_label, era) => {
      test.each(['transient', 'singleton'] as const)('%s: a timeout sends notifications/cancelled', async (lifecycle) => {
        const cancelLog = scratch.file('cancel.log');
        const target = faulty({ lifecycle, env: { CANCEL_LOG: cancelLog }, ...(era ? { era } : {}) });

        // The budget covers starting the process and connecting too: 2 s leaves a loaded CI runner
        // room to reach the call, which is what must time out.
        const error = await failure(invoke(target, 'slow', { ms: 20_000 }, { timeoutMs: 2_000 }));
        expect(error.kind).toBe('timeout');
        expect(error.message).toBe('timed out after 2000 ms calling tool slow');
        expect(await eventually(() => scratch.lines('cancel.log').length === 1)).toBe(true);
        expect(scratch.lines('cancel.log')[0]).toMatch(/^cancelled toolplane-\d+ by notification$/);

        if (lifecycle === 'transient') expect(await eventually(() => processesMatching(tag).length === 0)).toBe(true);
        else {
          const before = liveStdioProcessIds();
          expect(before).toHaveLength(1);
          expect((await call(target, 'count')).content).toEqual([{ type: 'text', text: '2' }]);
          expect(liveStdioProcessIds()).toEqual(before);
        }
      });

      test('the caller aborting is a "cancelled" failure, sent upstream as well', async () => {
        const cancelLog = scratch.file('cancel.log');
        const target = faulty({ env: { CANCEL_LOG: cancelLog }, ...(era ? { era } : {}) });
        const controller = new AbortController();

        // Aborts once the tool is at work (its first progress update).
        const error = await failure(invoke(target, 'slow', { ms: 20_000, steps: 200 }, { signal: controller.signal, onProgress: () => controller.abort() }));
        expect(error.kind).toBe('cancelled');
        expect(error.message).toBe('cancelled while calling tool slow');
        expect(await eventually(() => scratch.lines('cancel.log').length === 1)).toBe(true);
        expect(scratch.lines('cancel.log')[0]).toMatch(/^cancelled toolplane-\d+ by notification$/);
      });
    });

    test('2026-07-28 over HTTP: the request stream is closed', async () => {
      const cancelLog = scratch.file('cancel.log');
      const server = await start([paths.modern, 'http', '--port', '{port}'], { EXTRA_TOOLS: '1', CANCEL_LOG: cancelLog });
      const target = remoteTarget('streamable-http', `http://127.0.0.1:${server.port}/mcp`);
      // The pooled connection keeps one request open: its subscriptions/listen stream (the server declares tools.listChanged).
      const listening = (await httpTransportOf(target)).openRequestCount;
      expect(listening).toBe(1);

      const error = await failure(invoke(target, 'slow', { ms: 20_000 }, { timeoutMs: 500 }));
      expect(error.kind).toBe('timeout');
      expect(await eventually(() => scratch.lines('cancel.log').length === 1)).toBe(true);
      expect(scratch.lines('cancel.log')[0]).toMatch(/^cancelled \S+ by disconnect$/);
      expect((await httpTransportOf(target)).openRequestCount).toBe(listening);
    });

    test('progress over a 2026-07-28 HTTP connection: every update, in order, before the result', async () => {
      const server = await start([paths.modern, 'http', '--port', '{port}'], { EXTRA_TOOLS: '1' });
      const target = remoteTarget('streamable-http', `http://127.0.0.1:${server.port}/mcp`);
      const updates: ProgressUpdate[] = [];
      const result = await call(target, 'slow', { ms: 150, steps: 3 }, { onProgress: (update) => updates.push(update) });
      expect(result.content).toEqual([{ type: 'text', text: 'waited 150 ms' }]);
      expect(updates).toEqual([1, 2, 3].map((progress) => ({ progress, total: 3, message: `step ${progress} of 3` })));
    });

    test('2025 era over HTTP: notifications/cancelled is posted and the request stream closed', async () => {
      const fake = await fakeLegacyHttpServer();
      cleanups.push(fake.close);
      const target = remoteTarget('streamable-http', fake.url, { era: 'legacy' });

      const error = await failure(invoke(target, 'hang', {}, { timeoutMs: 400 }));
      expect(error.kind).toBe('timeout');
      expect(await eventually(() => fake.cancelled.length === 1 && fake.closedStreams.length === 1)).toBe(true);
      expect(fake.cancelled).toEqual(fake.closedStreams);
      expect((await httpTransportOf(target)).openRequestCount).toBe(0);
      expect((await call(target, 'ok')).content).toEqual([{ type: 'text', text: 'ok' }]);
    });
  });

  describe('the faulty fixture', () => {
    test('progress over a 2026-07-28 stdio connection', async () => {
      const updates: ProgressUpdate[] = [];
      const result = await call(faulty(), 'slow', { ms: 300, steps: 3 }, { onProgress: (update) => updates.push(update) });
      expect(result.content).toEqual([{ type: 'text', text: 'waited 300 ms' }]);
      expect(updates).toEqual([
        { progress: 1, total: 3, message: 'step 1 of 3' },
        { progress: 2, total: 3, message: 'step 2 of 3' },
      ]);
    });

    test('a singleton that crashes mid-call: transport failure, then a restarted process answers', async () => {
      const target = faulty();
      expect((await call(target, 'count')).content).toEqual([{ type: 'text', text: '1' }]);
      const [firstPid] = liveStdioProcessIds();

      const error = await failure(invoke(target, 'crash'));
      expect(error.kind).toBe('transport');
      expect(error.message).toBe('process exited with code 7: crashing on purpose');
      expect(isRunning(firstPid!)).toBe(false);
      expect(factory.restartState(target.sourceId)).toMatchObject({ failures: 1 });

      expect((await call(target, 'count')).content).toEqual([{ type: 'text', text: '1' }]);
      const [secondPid] = liveStdioProcessIds();
      expect(secondPid).not.toBe(firstPid);
      // A successful use resets the backoff.
      expect(factory.restartState(target.sourceId)).toBeUndefined();
    });

    test('failure messages never show env values', async () => {
      const target = faulty({ env: { API_TOKEN: 'tok-5f1e2d3c4b', CRASH_DETAIL: 'upstream rejected tok-5f1e2d3c4b' } });
      const error = await failure(invoke(target, 'crash'));
      expect(error.kind).toBe('transport');
      expect(error.message).toMatch(/^process exited with code 7: crashing on purpose: /);
      expect(error.message).not.toContain('tok-5f1e2d3c4b');
      // The declared variables do reach the process (with the allowlisted ones).
      const keys = JSON.parse(((await call(target, 'env')).content[0] as { text: string }).text) as string[];
      expect(keys).toEqual(expect.arrayContaining(['API_TOKEN', 'CRASH_DETAIL', 'PATH']));
    });

    test('a 10 MiB answer fails clearly, memory stays bounded and the singleton lives on', async () => {
      const target = faulty();
      await call(target, 'echo', { message: 'warm up' });
      const pids = liveStdioProcessIds();

      const { outcome, growth } = await measurePeakMemory(() => invoke(target, 'flood', { bytes: 10 * MiB }, { maxResultBytes: MiB }));
      const error = outcome.error as InvocationFailure;
      expect(error).toBeInstanceOf(InvocationFailure);
      expect(error.kind).toBe('protocol');
      expect(error.rpcCode).toBeUndefined();
      expect(error.message).toBe('the answer of flood is too large: dropped a 10 MiB message from the server: larger than the 4 MiB limit');
      expect(growth).toBeLessThan(20 * MiB);

      expect((await call(target, 'echo', { message: 'still here' })).content).toEqual([{ type: 'text', text: 'still here' }]);
      expect(liveStdioProcessIds()).toEqual(pids);
    });

    test('an answer over maxResultBytes is truncated with a marker', async () => {
      const target = faulty();
      const result = await call(target, 'flood', { bytes: 3 * MiB }, { maxResultBytes: MiB });
      expect(result.truncated).toBe(true);
      expect(result.originalBytes).toBe(3 * MiB + JSON.stringify([{ type: 'text', text: '' }]).length);
      expect(result.content).toHaveLength(2);
      const [text, marker] = result.content as { type: string; text: string }[];
      expect(text!.text).toMatch(/^x+$/);
      expect(text!.text.length).toBeGreaterThan(MiB - 200);
      expect(marker).toEqual({ type: 'text', text: `[Toolplane: result truncated from ${result.originalBytes} bytes to ${text!.text.length + 27} bytes]` });
      expect(JSON.stringify(result.content).length).toBeLessThanOrEqual(MiB);
    });

    test('a tool-level error is a result with isError, not a failure', async () => {
      expect(await call(faulty({ lifecycle: 'transient' }), 'fail')).toMatchObject({
        kind: 'result',
        isError: true,
        content: [{ type: 'text', text: 'it failed on purpose' }],
      });
    });

    test('an unknown tool is a protocol failure with the JSON-RPC code', async () => {
      const error = await failure(invoke(faulty(), 'no-such-tool'));
      expect(error).toMatchObject({ kind: 'protocol', rpcCode: -32602 });
      expect(error.message).toBe('server returned an error while calling tool no-such-tool: Tool no-such-tool not found (code -32602)');
    });

    test('200 concurrent calls on one singleton each get their own answer', async () => {
      const target = faulty();
      const messages = Array.from({ length: 200 }, (_, i) => `message ${i} ${'·'.repeat(i % 7)}`);
      const results = await Promise.all(messages.map((message) => call(target, 'echo', { message })));
      expect(results.map((result) => (result.content[0] as { text: string }).text)).toEqual(messages);
      expect(processesMatching(tag)).toHaveLength(1);
      expect((await call(target, 'count')).content).toEqual([{ type: 'text', text: '201' }]);
    });

    test('a crash-looping singleton is restarted with exponential backoff', async () => {
      factory = new TransportFactory({ pool: { restartBackoff: { initialMs: 300, maxMs: 1000 } } });
      executor = new McpToolExecutor(factory);
      const target = stdioTarget(node, [paths.crashing, tag], { lifecycle: 'singleton', env: { CRASH_AT: 'start' } });

      expect((await failure(invoke(target, 'anything'))).kind).toBe('transport');
      expect(factory.restartState(target.sourceId)).toMatchObject({ failures: 1 });

      // Within the backoff and with less budget than the wait: fails at once, nothing is spawned.
      const fast = await failure(invoke(target, 'anything', {}, { timeoutMs: 100 }));
      expect(fast.kind).toBe('transport');
      expect(fast.message).toMatch(/^.+ failed 1 time in a row; the next attempt to reconnect is in \d+ ms$/);
      expect(factory.restartState(target.sourceId)).toMatchObject({ failures: 1 });

      const delays: number[] = [];
      for (const expected of [2, 3, 4]) {
        const waitMs = factory.restartState(target.sourceId)!.waitMs;
        const startedAt = Date.now();
        expect((await failure(invoke(target, 'anything'))).message).toBe('process exited with code 3: fatal: cannot open the widget database');
        expect(Date.now() - startedAt).toBeGreaterThanOrEqual(waitMs - 20);
        expect(factory.restartState(target.sourceId)).toMatchObject({ failures: expected });
        delays.push(factory.restartState(target.sourceId)!.waitMs);
      }
      // 600, 1000 (capped), 1000 — minus the time the failing attempt itself took.
      expect(delays[0]).toBeGreaterThan(450);
      expect(delays[0]).toBeLessThanOrEqual(600);
      expect(delays[1]).toBeGreaterThan(850);
      expect(delays[2]).toBeGreaterThan(850);
      expect(delays[2]).toBeLessThanOrEqual(1000);
    });

    test('an idle pooled connection is closed after idleTimeoutMs', async () => {
      factory = new TransportFactory({ pool: { idleTimeoutMs: 300 } });
      executor = new McpToolExecutor(factory);
      const target = faulty();
      await call(target, 'echo', { message: 'one' });
      const [pid] = liveStdioProcessIds();

      // Uses keep it alive.
      for (let i = 0; i < 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        await call(target, 'echo', { message: `again ${i}` });
      }
      expect(liveStdioProcessIds()).toEqual([pid]);

      expect(await eventually(() => liveStdioProcessIds().length === 0, 3000)).toBe(true);
      expect(isRunning(pid!)).toBe(false);
      expect(factory.pooledSourceIds()).toEqual([]);
      expect((await call(target, 'count')).content).toEqual([{ type: 'text', text: '1' }]);
    });

    test('input responses cannot be sent on a 2025-era connection', async () => {
      const error = await failure(invoke(faulty({ era: 'legacy' }), 'echo', { message: 'x' }, { requestState: 'state' }));
      expect(error.kind).toBe('protocol');
      expect(error.message).toBe(
        'cannot continue echo with input responses: the server speaks a 2025 protocol revision, which has no input_required round trips',
      );
    });
  });

  describe('2026-07-28 multi round-trip', () => {
    const EXPECTED_STATE = `v1 {"action":"deploy"} \u2028 ✓ \t "tail"`;

    test.each(['stdio', 'http'] as const)('over %s: input_required comes back, the continuation finishes the call', async (transport) => {
      let target: UpstreamTarget;
      if (transport === 'http') {
        const server = await start([paths.modern, 'http', '--port', '{port}'], { EXTRA_TOOLS: '1' });
        target = remoteTarget('streamable-http', `http://127.0.0.1:${server.port}/mcp`);
      } else {
        target = stdioTarget(node, [paths.modern, 'stdio', tag], { lifecycle: 'singleton', env: { EXTRA_TOOLS: '1' } });
      }

      const first = await invoke(target, 'confirm', { action: 'deploy' });
      expect(first).toEqual({
        kind: 'input_required',
        inputRequests: {
          confirm: {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              message: 'Really deploy?',
              requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
            },
          },
        },
        requestState: EXPECTED_STATE,
      });
      if (first.kind !== 'input_required') throw new Error('unreachable');

      const answer = { confirm: { action: 'accept', content: { confirm: true } } };
      const done = await call(target, 'confirm', { action: 'deploy' }, { inputResponses: answer, requestState: first.requestState });
      expect(done).toMatchObject({ isError: false, content: [{ type: 'text', text: 'deploy: done' }] });

      // The state is echoed byte for byte: the server notices any change.
      const altered = await call(target, 'confirm', { action: 'deploy' }, { inputResponses: answer, requestState: `${EXPECTED_STATE} ` });
      expect(altered).toMatchObject({ isError: true });
    });
  });

  describe("the upstream's log messages", () => {
    /** Calls chatty with a log subscription at info; answers what the subscription heard. */
    async function chatty(target: UpstreamTarget, text: string): Promise<UpstreamLogMessage[]> {
      const heard: UpstreamLogMessage[] = [];
      const result = await call(target, 'chatty', { text }, { log: { level: 'info', onMessage: (message) => heard.push(message) } });
      expect(result.content).toEqual([{ type: 'text', text: `logged ${text}` }]);
      return heard;
    }
    const expected = (text: string) => [
      { level: 'info', logger: 'chatty', data: `info: ${text}` },
      { level: 'warning', logger: 'chatty', data: `warning: ${text}` },
    ];

    test('over 2026-07-28 HTTP each call hears its own, however many run at once', async () => {
      const server = await start([paths.modern, 'http', '--port', '{port}'], { EXTRA_TOOLS: '1' });
      const target = remoteTarget('streamable-http', `http://127.0.0.1:${server.port}/mcp`);
      const texts = ['a', 'b', 'c', 'd', 'e'];
      const heard = await Promise.all(texts.map((text) => chatty(target, text)));
      expect(heard).toEqual(texts.map(expected));
    });

    test('a transient stdio process serves one call: everything it logs is that call’s', async () => {
      const target = stdioTarget(node, [paths.modern, 'stdio', tag], { env: { EXTRA_TOOLS: '1' } });
      expect(await chatty(target, 'alone')).toEqual(expected('alone'));
    });

    test('a singleton 2026-07-28 stdio connection relays them while one call listens, and never to the wrong call', async () => {
      const target = stdioTarget(node, [paths.modern, 'stdio', tag], { lifecycle: 'singleton', env: { EXTRA_TOOLS: '1' } });
      expect(await chatty(target, 'single')).toEqual(expected('single'));
      // Concurrent calls: nothing on stdio says whose a message is, so a call hears its own or none.
      const texts = ['p', 'q', 'r', 's'];
      const heard = await Promise.all(texts.map((text) => chatty(target, text)));
      heard.forEach((messages, index) => expect(messages.every((message) => String(message.data).endsWith(`: ${texts[index]}`))).toBe(true));
    });

    test('a call without a subscription asks for none (a 2026-07-28 server then logs nothing)', async () => {
      const target = stdioTarget(node, [paths.modern, 'stdio', tag], { lifecycle: 'singleton', env: { EXTRA_TOOLS: '1' } });
      expect((await call(target, 'chatty', { text: 'unheard' })).content).toEqual([{ type: 'text', text: 'logged unheard' }]);
    });
  });

  describe("a 2025-era server's requests for input", () => {
    const answer = { role: 'assistant', model: 'executor-e2e', content: { type: 'text', text: 'forty-two' } };
    const ask = { prompt: 'the answer', maxTokens: 5 };

    test.each([
      ['Streamable HTTP, on the call’s own stream', 'http'],
      ['a transient stdio process', 'stdio'],
    ])('over %s: the caller answers, and the tool gets its answer', async (_case, transport) => {
      const target =
        transport === 'http'
          ? remoteTarget('streamable-http', `http://127.0.0.1:${(await start([paths.everything, 'streamableHttp'])).port}/mcp`)
          : stdioTarget(node, [paths.everything, 'stdio', tag]);
      const asked: InputRequest[] = [];
      const result = await call(target, 'trigger-sampling-request', ask, { onInputRequest: async (request) => (asked.push(request), answer) });
      expect(result.isError).toBe(false);
      expect(JSON.stringify(result.content)).toContain('forty-two');
      expect(asked).toEqual([{ method: 'sampling/createMessage', params: expect.objectContaining({ maxTokens: 5, messages: expect.any(Array) }) }]);
    });

    test('without a caller to ask, the server gets -32021 and says so in its result', async () => {
      const server = await start([paths.everything, 'streamableHttp']);
      const result = await call(remoteTarget('streamable-http', `http://127.0.0.1:${server.port}/mcp`), 'trigger-sampling-request', ask);
      expect(JSON.stringify(result.content)).toContain('Cannot relay sampling/createMessage through Toolplane: the caller of this tool cannot be asked');
    });

    test('a shared stdio connection puts the request to the only call in flight, and refuses while several run', async () => {
      const target = stdioTarget(node, [paths.everything, 'stdio', tag], { lifecycle: 'singleton' });
      const alone = await call(target, 'trigger-sampling-request', ask, { onInputRequest: async () => answer });
      expect(JSON.stringify(alone.content)).toContain('forty-two');
      // A slow call in flight next to it: nothing on stdio says which call asks, so the request is refused.
      const slow = invoke(target, 'trigger-long-running-operation', { duration: 1, steps: 1 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const crowded = await call(target, 'trigger-sampling-request', ask, { onInputRequest: async () => answer });
      expect(JSON.stringify(crowded.content)).toContain('several tool calls are under way on this connection');
      await slow;
    });
  });

  describe('over HTTP', () => {
    test('the lean echo server answers both eras', async () => {
      const server = await start([paths.httpEcho, '--port', '{port}']);
      const url = `http://127.0.0.1:${server.port}/mcp`;
      for (const target of [remoteTarget('streamable-http', url), remoteTarget('streamable-http', url, { era: 'legacy' })]) {
        expect((await call(target, 'echo', { message: 'ping' })).content).toEqual([{ type: 'text', text: 'ping' }]);
      }
      const modern = remoteTarget('streamable-http', url);
      const eras = await factory.withClient(modern, async ({ connection }) => connection.protocol.era, { timeoutMs: 5000 });
      expect(eras).toBe('modern');
    });

    test('2026-07-28 x-mcp-header parameters are mirrored into Mcp-Param-* headers', async () => {
      const server = await start([paths.modern, 'http', '--port', '{port}'], { EXTRA_TOOLS: '1' });
      const target = remoteTarget('streamable-http', `http://127.0.0.1:${server.port}/mcp`);
      const definition = { inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } }, required: ['region'] } };
      const expected = [{ type: 'text', text: JSON.stringify({ region: 'eu-west', header: 'eu-west' }) }];

      expect((await call(target, 'where', { region: 'eu-west' }, { definition })).content).toEqual(expected);
      // Without the definition the server refuses the header-less call; the definition is looked up once.
      expect((await call(target, 'where', { region: 'eu-west' })).content).toEqual(expected);
    });

    test('connection refused is a transport failure', async () => {
      const target = remoteTarget('streamable-http', `http://127.0.0.1:${await closedPort()}/mcp`);
      const error = await failure(invoke(target, 'echo', { message: 'x' }, { timeoutMs: 5000 }));
      expect(error.kind).toBe('transport');
      expect(error.message).toMatch(/^connection refused to http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    });

    test('HTTP 500, a broken stream and a stream ended without an answer are transport failures', async () => {
      const fake = await fakeLegacyHttpServer();
      cleanups.push(fake.close);
      const target = remoteTarget('streamable-http', fake.url, { era: 'legacy', headers: { authorization: 'Bearer sk-secret-header-value' } });

      const status = await failure(invoke(target, 'http-500'));
      expect(status.kind).toBe('transport');
      expect(status.message).toBe(`HTTP 500 from ${fake.url}`);

      const expectedMessages: Record<string, string> = {
        'broken-stream': `connection to ${fake.url} was reset`,
        'ended-stream': `${fake.url} ended the response stream without answering while calling tool ended-stream`,
      };
      for (const [tool, expected] of Object.entries(expectedMessages)) {
        const startedAt = Date.now();
        const broken = await failure(invoke(target, tool, {}, { timeoutMs: 10_000 }));
        expect(broken.kind).toBe('transport');
        expect(broken.message).toBe(expected);
        expect(Date.now() - startedAt).toBeLessThan(3000);
      }
      expect(fake.seenAuthorization.every((value) => value === 'Bearer sk-secret-header-value')).toBe(true);
      expect(fake.seenExchangeHeader).toBe(false);
      expect((await call(target, 'ok')).content).toEqual([{ type: 'text', text: 'ok' }]);
    });

    test('an oversized SSE message is dropped without buffering it', async () => {
      const fake = await fakeLegacyHttpServer();
      cleanups.push(fake.close);
      const target = remoteTarget('streamable-http', fake.url, { era: 'legacy' });

      const { outcome, growth } = await measurePeakMemory(() => invoke(target, 'huge', {}, { maxResultBytes: MiB }));
      const error = outcome.error as InvocationFailure;
      expect(error).toBeInstanceOf(InvocationFailure);
      expect(error.kind).toBe('protocol');
      expect(error.message).toBe('the answer of huge is too large: dropped a message from the server: larger than the 4 MiB limit');
      expect(growth).toBeLessThan(20 * MiB);
      expect(await eventually(() => fake.closedStreams.length === 1)).toBe(true);
      expect(fake.hugeBytesSent).toBeLessThan(12 * MiB);
      expect((await call(target, 'ok')).content).toEqual([{ type: 'text', text: 'ok' }]);
    });
  });
});

function asResult(outcome: InvocationOutcome): ToolResult {
  if (outcome.kind !== 'result') throw new Error(`expected a result, got ${JSON.stringify(outcome)}`);
  return outcome;
}

async function failure(promise: Promise<unknown>): Promise<InvocationFailure> {
  const error = await promise.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value).slice(0, 300)}`);
    },
    (error: unknown) => error,
  );
  if (!(error instanceof InvocationFailure)) throw error;
  return error;
}

/** Runs `work` while sampling heap + array buffers; reports the peak growth over the start. */
async function measurePeakMemory<T>(work: () => Promise<T>): Promise<{ outcome: { value?: T; error?: unknown }; growth: number }> {
  const sample = () => {
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };
  const base = sample();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, sample())), 1);
  try {
    const value = await work();
    return { outcome: { value }, growth: Math.max(peak, sample()) - base };
  } catch (error) {
    return { outcome: { error }, growth: Math.max(peak, sample()) - base };
  } finally {
    clearInterval(timer);
  }
}

interface FakeLegacyServer {
  url: string;
  /** Request ids named by the notifications/cancelled the server received. */
  cancelled: unknown[];
  /** Ids of the `hang`/`huge` requests whose response stream the client closed. */
  closedStreams: unknown[];
  seenAuthorization: (string | undefined)[];
  seenExchangeHeader: boolean;
  hugeBytesSent: number;
  close(): Promise<void>;
}

/**
 * A hand-written 2025-era Streamable HTTP server (sessionful, SSE answers) whose tools misbehave:
 * `hang` never answers, `http-500`, `broken-stream` (connection dropped mid-stream), `ended-stream`
 * (stream closed without an answer), `huge` (an endless SSE event), anything else answers "ok".
 */
async function fakeLegacyHttpServer(): Promise<FakeLegacyServer> {
  const state: FakeLegacyServer = {
    url: '',
    cancelled: [],
    closedStreams: [],
    seenAuthorization: [],
    seenExchangeHeader: false,
    hugeBytesSent: 0,
    close: async () => undefined,
  };
  const sse = (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
  };
  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    state.seenAuthorization.push(req.headers.authorization);
    if (Object.keys(req.headers).some((name) => name.startsWith('x-toolplane'))) state.seenExchangeHeader = true;
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const message = JSON.parse(body) as { id?: number; method: string; params?: Record<string, any> };
    const reply = (result: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'fake-session' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    };
    switch (message.method) {
      case 'initialize':
        return reply({ protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'fake-legacy', version: '1' } });
      case 'notifications/initialized':
        res.writeHead(202).end();
        return;
      case 'notifications/cancelled':
        state.cancelled.push(message.params?.requestId);
        res.writeHead(202).end();
        return;
      case 'tools/call':
        break;
      default:
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'method not found' } }));
        return;
    }
    const name = message.params?.name as string;
    switch (name) {
      case 'hang':
        sse(res);
        res.on('close', () => state.closedStreams.push(message.id));
        return;
      case 'http-500':
        res.writeHead(500).end('internal trouble');
        return;
      case 'broken-stream':
        sse(res);
        res.write(': working on it\n\n', () => setTimeout(() => res.socket?.destroy(), 50));
        return;
      case 'ended-stream':
        sse(res);
        res.end(': nothing to say\n\n');
        return;
      case 'huge': {
        sse(res);
        res.on('close', () => state.closedStreams.push(message.id));
        res.write(`event: message\ndata: {"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"type":"text","text":"`);
        const chunk = 'x'.repeat(64 * 1024);
        const pump = () => {
          while (!res.destroyed && state.hugeBytesSent < 64 * MiB) {
            state.hugeBytesSent += chunk.length;
            if (!res.write(chunk)) {
              res.once('drain', pump);
              return;
            }
          }
          if (!res.destroyed) res.end('"}]}}\n\n');
        };
        pump();
        return;
      }
      default:
        sse(res);
        res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'ok' }] } })}\n\n`);
    }
  };
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handle(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  state.url = `http://127.0.0.1:${address.port}/mcp`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
