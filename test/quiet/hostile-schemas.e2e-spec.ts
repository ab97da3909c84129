import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES, ROOT, startHttpUpstream, type RunningUpstream } from '../helpers/upstreams.js';

/**
 * An upstream whose schemas are built to hurt (the hand-written hostile fixture): catastrophic
 * patterns are matched in linear time, schemas over a limit or that cannot be compiled make their
 * tools unusable (kept with the reason, refused when called, offered to no agent), and Toolplane
 * keeps answering `/health/live` quickly while all of it runs.
 */
const HOSTILE_TOOLS = 'catastrophic_pattern,catastrophic_keys,huge_schema,deep_schema,wide_schema,unique_list,ref_loop,ref_missing,echo_readonly';
const UNUSABLE = ['deep_schema', 'huge_schema', 'ref_loop', 'ref_missing'];
const HEALTH_BUDGET_MS = 250;
/**
 * The longest hold of the event loop allowed (Toolplane's own measurement, which warns past
 * TOOLPLANE_LOOP_STALL_WARN_MS). Before the linear patterns, limits and the worker thread, one
 * hostile call held it 9 s and discovering the 3.4 MB listing 50–150 ms.
 */
const LOOP_BUDGET_MS = 50;

describe('hostile upstream schemas', () => {
  let h: Harness;
  let registrationMs: number;
  let healthDuringRegistration: number[];
  /** Where the log stood when the hostile source was registered: stalls are looked for after it. */
  let logStart: number;

  /** Probes /health/live every 20 ms until `work` settles; answers each probe's latency. */
  const healthWhile = async <T>(work: Promise<T>): Promise<{ value: T; latencies: number[] }> => {
    const latencies: number[] = [];
    let done = false;
    const settled = work.finally(() => (done = true));
    while (!done) {
      const started = performance.now();
      const response = await fetch(`${h.url}/health/live`);
      expect(response.status).toBe(200);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { value: await settled, latencies };
  };

  beforeAll(async () => {
    h = await startHarness({ TOOLPLANE_LOOP_STALL_WARN_MS: String(LOOP_BUDGET_MS) });
    // Start-up itself (module wiring, migrations) may hold the loop: let its window pass first.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    logStart = h.process.logs().length;
    const started = performance.now();
    const { value: registered, latencies } = await healthWhile(
      h.api.post('/api/v1/sources', {
        name: 'hostile',
        transport: 'stdio',
        lifecycle: 'singleton',
        command: process.execPath,
        args: [join(FIXTURES, 'hostile-server.mjs')],
        // 2,000 schema levels (4,000 JSON levels): deep enough to overflow a recursive validator.
        env: { HOSTILE_TOOLS, HOSTILE_DEPTH: '2000' },
        refreshIntervalSeconds: 0,
      }),
    );
    registrationMs = performance.now() - started;
    if (process.env.TOOLPLANE_TEST_REPORT) console.log(`registration ${Math.round(registrationMs)} ms, slowest /health/live ${Math.round(Math.max(...latencies))} ms`);
    healthDuringRegistration = latencies;
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ health: 'healthy', toolCount: 9 });
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await remote?.stop();
  });

  let remote: RunningUpstream | undefined;

  it('discovers a 3.4 MB listing without stalling the other requests', () => {
    expect(healthDuringRegistration.length).toBeGreaterThan(0);
    expect(Math.max(...healthDuringRegistration)).toBeLessThan(HEALTH_BUDGET_MS);
    expect(registrationMs).toBeLessThan(15_000);
  });

  it('discovers the same listing from a remote upstream (streamable HTTP, answered as SSE) with the same verdicts', async () => {
    // mcp-proxy serves the hand-written stdio fixture over streamable HTTP, byte for byte.
    remote = await startHttpUpstream(
      (port) => [join(ROOT, 'node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs'), '--port', String(port), '--host', '127.0.0.1', '--server', 'stream', '--', process.execPath, join(FIXTURES, 'hostile-server.mjs')],
      '/mcp',
      { HOSTILE_TOOLS: 'huge_schema,wide_schema,ref_loop,echo_readonly' },
    );
    const { value: registered, latencies } = await healthWhile(
      h.api.post('/api/v1/sources', { name: 'remote-hostile', transport: 'streamable-http', url: remote.url, refreshIntervalSeconds: 0 }),
    );
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ health: 'healthy', toolCount: 4 });
    expect(Math.max(...latencies)).toBeLessThan(HEALTH_BUDGET_MS);
    const tools = await h.api.get('/api/v1/tools?source=remote-hostile&includeDisabledSources=true');
    const verdicts = Object.fromEntries(tools.body.items.map((tool: { name: string; unusableReason: string | null }) => [tool.name, tool.unusableReason]));
    expect(verdicts).toEqual({
      huge_schema: 'its inputSchema is larger than 131072 bytes',
      ref_loop: expect.stringMatching(/^its inputSchema cannot be compiled: /),
      wide_schema: null,
      echo_readonly: null,
    });
    const call = await h.api.post('/api/v1/tools/remote-hostile__wide_schema/invoke', { arguments: { p0: 'aaa0' } });
    expect(call.status).toBe(200);
  });

  it('keeps each unusable tool with the reason, and only a stub of a schema over the size limit', async () => {
    const reasons: Record<string, string | null> = {};
    for (const name of [...UNUSABLE, 'catastrophic_pattern', 'catastrophic_keys']) {
      const tool = await h.api.get(`/api/v1/tools/hostile__${name}`);
      expect(tool.status).toBe(200);
      reasons[name] = tool.body.unusableReason;
    }
    expect(reasons).toEqual({
      deep_schema: 'its inputSchema nests deeper than 32 levels',
      huge_schema: 'its inputSchema is larger than 131072 bytes',
      ref_loop: expect.stringMatching(/^its inputSchema cannot be compiled: /),
      ref_missing: expect.stringMatching(/^its inputSchema cannot be compiled: .*missing/),
      catastrophic_pattern: null,
      catastrophic_keys: null,
    });
    const huge = await h.api.get('/api/v1/tools/hostile__huge_schema');
    expect(huge.body.inputSchema).toEqual({ type: 'object' });
    const [row] = await h.sql<{ bytes: number }>("SELECT max(pg_column_size(definition))::int AS bytes FROM source_tools WHERE qualified_name = ANY($1)", [UNUSABLE.map((name) => `hostile__${name}`)]);
    expect(row.bytes).toBeLessThan(4096);
  });

  it('refuses calls to an unusable tool with 409 TOOL_UNUSABLE, recorded as rejected', async () => {
    for (const name of UNUSABLE) {
      const response = await h.api.post(`/api/v1/tools/hostile__${name}/invoke`, { arguments: {} });
      expect({ name, status: response.status, code: response.body.error?.code }).toEqual({ name, status: 409, code: 'TOOL_UNUSABLE' });
      expect(response.body.error.message).toContain(`hostile__${name} cannot be called: its inputSchema`);
    }
    const rows = await h.sql<{ status: string; code: string }>(
      "SELECT status, error->>'code' AS code FROM executions WHERE qualified_name = 'hostile__ref_loop'",
    );
    expect(rows).toEqual([{ status: 'rejected', code: 'TOOL_UNUSABLE' }]);
  });

  it('offers unusable tools to no agent: not in the catalog, MCP tools/list or the LLM formats; shown to an admin who asks', async () => {
    const agentView = await h.api.get('/api/v1/tools?source=hostile');
    const names = agentView.body.items.map((tool: { name: string }) => tool.name).sort();
    expect(names).toEqual(['catastrophic_keys', 'catastrophic_pattern', 'echo_readonly', 'unique_list', 'wide_schema']);
    const openai = await h.api.get('/api/v1/tools?source=hostile&format=openai');
    expect(openai.body.items.map((tool: { function: { name: string } }) => tool.function.name).sort()).toEqual([
      'hostile__catastrophic_keys',
      'hostile__catastrophic_pattern',
      'hostile__echo_readonly',
      'hostile__unique_list',
      'hostile__wide_schema',
    ]);
    const wide = await h.api.get('/api/v1/tools?source=hostile&includeDisabledSources=true');
    const unusable = wide.body.items.filter((tool: { unusableReason: string | null }) => tool.unusableReason !== null).map((tool: { name: string }) => tool.name);
    expect(unusable.sort()).toEqual(UNUSABLE);

    const client = new Client({ name: 'hostile-schemas', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.adminKey}` } } }));
    try {
      const listed = await client.listTools();
      const hostile = listed.tools.map((tool) => tool.name).filter((name) => name.startsWith('hostile__'));
      expect(hostile.sort()).toEqual(['hostile__catastrophic_keys', 'hostile__catastrophic_pattern', 'hostile__echo_readonly', 'hostile__unique_list', 'hostile__wide_schema']);
      const refused = await client.callTool({ name: 'hostile__ref_missing', arguments: {}, _meta: { 'dev.toolplane/execution': true } });
      expect(refused.isError).toBe(true);
      expect((refused._meta as Record<string, { code?: string }>)['dev.toolplane/execution'].code).toBe('TOOL_UNUSABLE');
    } finally {
      await client.close();
    }
  });

  it('matches catastrophic patterns in linear time: many hostile calls at once, /health/live still quick', async () => {
    const hostileText = 'a'.repeat(200_000) + '!';
    const calls = Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? h.api.post('/api/v1/tools/hostile__catastrophic_pattern/invoke', { arguments: { text: hostileText } })
          : h.api.post('/api/v1/tools/hostile__catastrophic_keys/invoke', { arguments: { [hostileText]: 'x', aaa: 1 } }),
      ),
    );
    const { value: answers, latencies } = await healthWhile(calls);
    for (const answer of answers) expect({ status: answer.status, code: answer.body.error?.code }).toEqual({ status: 400, code: 'INVALID_ARGUMENTS' });
    expect(Math.max(...latencies)).toBeLessThan(HEALTH_BUDGET_MS);

    const fine = await h.api.post('/api/v1/tools/hostile__catastrophic_pattern/invoke', { arguments: { text: 'aaaa' } });
    expect(fine.status).toBe(200);
  });

  it('checks arguments against a schema at the limits, and 6,600 objects (a body of nearly the most values accepted) for uniqueness, /health/live still quick', async () => {
    const wideArgs = { p0: 'aaa0', p49: 'a@example.com', p50: '2026-11-25T08:00:00Z' };
    const list = Array.from({ length: 6_600 }, (_, i) => ({ k: i, v: 'x' }));
    // One after the other: each input alone must not hold the loop (requests that arrive together
    // are handled back to back, so their holds add up).
    const sequentially = async () => {
      const answers = [];
      for (const [tool, args] of [
        ['wide_schema', wideArgs],
        ['wide_schema', { ...wideArgs, p49: 'not mail' }],
        ['unique_list', { list }],
        ['unique_list', { list: [...list, { v: 'x', k: 5 }] }],
      ] as const) {
        answers.push(await h.api.post(`/api/v1/tools/hostile__${tool}/invoke`, { arguments: args }));
      }
      return answers;
    };
    const { value: answers, latencies } = await healthWhile(sequentially());
    expect(answers.map((answer) => ({ status: answer.status, code: answer.body.error?.code }))).toEqual([
      { status: 200, code: undefined },
      { status: 400, code: 'INVALID_ARGUMENTS' },
      { status: 200, code: undefined },
      { status: 400, code: 'INVALID_ARGUMENTS' },
    ]);
    expect(answers[1].body.error.details).toEqual([{ path: 'arguments.p49', message: 'must match format "email"' }]);
    expect(answers[3].body.error.details).toEqual([{ path: 'arguments.list', message: 'must NOT have duplicate items' }]);
    // The echo (twice the arguments: text and structuredContent) came back whole.
    expect(answers[2].body.result.structuredContent.list).toHaveLength(6_600);
    expect(Math.max(...latencies)).toBeLessThan(HEALTH_BUDGET_MS);
  });

  /** Toolplane's own warnings since `from` in the log of `process`. */
  const stallsIn = (logs: string, from: number) =>
    logs
      .slice(from)
      .split('\n')
      .filter((line) => line.includes('the event loop was held for'))
      .map((line) => /held for (\d+) ms/.exec(line)?.[1] + ' ms');

  /**
   * The hostile inputs of this suite again, in a fresh Toolplane (so the first compile and the
   * first discovery happen again): registrations of the stdio and the remote hostile sources, the
   * first call of the schema at the limits, the body of the most values, the catastrophic patterns.
   */
  const rerun = async (): Promise<string[]> => {
    const fresh = await startHarness({ TOOLPLANE_LOOP_STALL_WARN_MS: String(LOOP_BUDGET_MS) });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      const from = fresh.process.logs().length;
      const args = [join(FIXTURES, 'hostile-server.mjs')];
      expect((await fresh.api.post('/api/v1/sources', { name: 'hostile', transport: 'stdio', lifecycle: 'singleton', command: process.execPath, args, env: { HOSTILE_TOOLS, HOSTILE_DEPTH: '2000' }, refreshIntervalSeconds: 0 })).status).toBe(201);
      expect((await fresh.api.post('/api/v1/sources', { name: 'remote-hostile', transport: 'streamable-http', url: remote!.url, refreshIntervalSeconds: 0 })).status).toBe(201);
      expect((await fresh.api.post('/api/v1/tools/hostile__wide_schema/invoke', { arguments: { p0: 'aaa0' } })).status).toBe(200);
      const list = Array.from({ length: 6_600 }, (_, i) => ({ k: i, v: 'x' }));
      expect((await fresh.api.post('/api/v1/tools/hostile__unique_list/invoke', { arguments: { list } })).status).toBe(200);
      const hostileText = 'a'.repeat(200_000) + '!';
      await Promise.all(Array.from({ length: 20 }, () => fresh.api.post('/api/v1/tools/hostile__catastrophic_pattern/invoke', { arguments: { text: hostileText } })));
      await new Promise((resolve) => setTimeout(resolve, 1200));
      return stallsIn(fresh.process.logs(), from);
    } finally {
      await fresh.close();
    }
  };

  it(`never held the event loop longer than ${LOOP_BUDGET_MS} ms per input (Toolplane's own measurement, best of three runs)`, async () => {
    // The watch reports each second's longest hold: let the last window close.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    // The wall clock also counts the moments the machine's scheduler gives the cores to someone
    // else (a 2-core CI runner): a hold of Toolplane's own shows in every run, such a pause in one.
    const runs = [stallsIn(h.process.logs(), logStart)];
    while (runs.at(-1)!.length > 0 && runs.length < 3) runs.push(await rerun());
    if (process.env.TOOLPLANE_TEST_REPORT) console.log(`event-loop warnings per run: ${JSON.stringify(runs)}`);
    expect(runs.at(-1)).toEqual([]);
  }, 180_000);
});
