import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, FIXTURES, startEverythingHttp, type RunningUpstream } from '../helpers/upstreams.js';

const FAULTY = join(FIXTURES, 'faulty-server.mjs');
const CHANGING = join(FIXTURES, 'changing-inventory-server.mjs');

describe('ExecuteTool through POST /api/v1/tools/{name}/invoke', () => {
  let h: Harness;
  let http: RunningUpstream;
  const dir = mkdtempSync(join(tmpdir(), 'toolplane-exec-'));
  // Plugins run sandboxed as an unprivileged user: the scratch directory they read and write is theirs to use.
  chmodSync(dir, 0o777);
  const cancelLog = join(dir, 'cancel.log');
  const inventory = join(dir, 'tools.json');

  const invoke = (name: string, body: unknown) => h.api.post(`/api/v1/tools/${encodeURIComponent(name)}/invoke`, body);
  const historyOf = (id: string) => h.sql('SELECT * FROM executions WHERE id = $1', [id]);

  beforeAll(async () => {
    h = await startHarness({ TOOLPLANE_MAX_RESULT_BYTES: String(1024 * 1024) });
    http = await startEverythingHttp('streamableHttp');
    writeFileSync(
      inventory,
      JSON.stringify([
        { name: 'strict', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, additionalProperties: false } },
        { name: 'writer', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false } },
        { name: 'going', inputSchema: { type: 'object' } },
      ]),
    );
    const sources = [
      { name: 'ev-t', transport: 'stdio', command: 'node', args: [EVERYTHING, 'stdio', SUITE_TAG] },
      { name: 'ev-s', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio', SUITE_TAG] },
      { name: 'ev-h', transport: 'streamable-http', url: http.url },
      { name: 'faulty', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [FAULTY, SUITE_TAG], env: { CANCEL_LOG: cancelLog }, sandbox: { writablePaths: [dir] }, maxConcurrency: 64 },
      { name: 'inv', transport: 'stdio', command: 'node', args: [CHANGING, SUITE_TAG], env: { INVENTORY_FILE: inventory }, sandbox: { readOnlyPaths: [dir] } },
      { name: 'inv-ro', transport: 'stdio', command: 'node', args: [CHANGING, SUITE_TAG], env: { INVENTORY_FILE: inventory }, sandbox: { readOnlyPaths: [dir] }, readOnly: true },
    ];
    for (const source of sources) {
      const created = await h.api.post('/api/v1/sources', { refreshIntervalSeconds: 0, ...source });
      expect(created.body).toMatchObject({ name: source.name, health: 'healthy' });
    }
  });

  afterAll(async () => {
    await h.close();
    await http.stop();
    rmSync(dir, { recursive: true, force: true });
    await expectNoSuiteProcesses();
  });

  describe.each(['ev-t', 'ev-s', 'ev-h'])('server-everything via %s', (source) => {
    it('echoes, adds, returns images and structured content', async () => {
      const echo = await invoke(`${source}__echo`, { arguments: { message: 'hello' } });
      expect(echo.status).toBe(200);
      expect(echo.body).toMatchObject({ status: 'succeeded', isError: false, channel: 'rest', attempts: 1, result: { content: [{ type: 'text', text: 'Echo: hello' }], truncated: false } });
      expect(echo.body.caller).toMatchObject({ principalId: 'admin' });

      const sum = await invoke(`${source}__get-sum`, { arguments: { a: 2, b: 40 } });
      expect(JSON.stringify(sum.body.result.content)).toContain('42');

      const image = await invoke(`${source}__get-tiny-image`, {});
      expect(image.body.result.content).toContainEqual(expect.objectContaining({ type: 'image', mimeType: 'image/png', data: expect.any(String) }));

      const structured = await invoke(`${source}__get-structured-content`, { arguments: { location: 'New York' } });
      expect(structured.body.status).toBe('succeeded');
      expect(structured.body.result.structuredContent).toEqual(expect.objectContaining({ temperature: expect.any(Number) }));

      const [row] = await historyOf(echo.body.id);
      expect(row).toMatchObject({ status: 'succeeded', qualified_name: `${source}__echo`, channel: 'rest' });
      // Execution ids are UUIDv7 carrying the call's start, so the history's id indexes grow at their right edge.
      expect(echo.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(Number.parseInt(echo.body.id.slice(0, 8) + echo.body.id.slice(9, 13), 16)).toBe(Date.parse(echo.body.startedAt));
    });

    it('times out a long-running operation with 504 and records it', async () => {
      const slow = await invoke(`${source}__trigger-long-running-operation`, { arguments: { duration: 10, steps: 5 }, timeoutMs: 400 });
      expect(slow.status).toBe(504);
      expect(slow.body.error.code).toBe('TIMEOUT');
      expect(slow.body.execution).toMatchObject({ status: 'timeout' });
      expect(slow.body.execution.durationMs).toBeLessThan(3000);
      expect((await historyOf(slow.body.execution.id))[0].status).toBe('timeout');
    });
  });

  it('tells the upstream when a call times out (notifications/cancelled on stdio)', async () => {
    const slow = await invoke('faulty__slow', { arguments: { ms: 5000 }, timeoutMs: 300 });
    expect(slow.status).toBe(504);
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline && !readLog(cancelLog).includes('cancelled')) await new Promise((r) => setTimeout(r, 50));
    expect(readLog(cancelLog)).toMatch(/cancelled .* by notification/);
  });

  it('keeps a tool error as a 200 tool_error with its text', async () => {
    const failed = await invoke('faulty__fail', {});
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'tool_error', isError: true, result: { content: [{ type: 'text', text: 'it failed on purpose' }] } });
  });

  it('survives a crashing singleton: the call fails, the next one runs on a fresh process', async () => {
    expect((await invoke('faulty__count', {})).body.status).toBe('succeeded');
    const crash = await invoke('faulty__crash', {});
    expect(crash.status).toBe(502);
    expect(crash.body.execution.status).toBe('upstream_error');
    const after = await invoke('faulty__count', {});
    expect(after.body).toMatchObject({ status: 'succeeded', result: { content: [{ type: 'text', text: '1' }] } });
  });

  it('caps a flood of output and the process survives', async () => {
    const flood = await invoke('faulty__flood', { arguments: { bytes: 3 * 1024 * 1024 } });
    expect(flood.status).toBe(200);
    expect(flood.body.result.truncated).toBe(true);
    expect(flood.body.result.originalBytes).toBeGreaterThan(3 * 1024 * 1024);
    expect(Buffer.byteLength(JSON.stringify(flood.body.result.content))).toBeLessThanOrEqual(1024 * 1024);
    const [row] = await historyOf(flood.body.id);
    expect(Buffer.byteLength(JSON.stringify(row.result))).toBeLessThan(80 * 1024); // the history keeps less
    expect((await invoke('faulty__echo', { arguments: { message: 'still here' } })).body.status).toBe('succeeded');
  });

  it('answers 200 concurrent calls on one singleton, each with its own answer', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => invoke('faulty__echo', { arguments: { message: `call-${i}` } })));
    answers.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      expect(JSON.stringify(answer.body.result.content)).toContain(`call-${i}"`);
    });
  });

  it('never passes Toolplane settings to a plugin', async () => {
    for (const name of ['faulty__env', 'ev-t__get-env']) {
      const env = await invoke(name, {});
      const text = JSON.stringify(env.body.result.content);
      expect(text).not.toMatch(/DATABASE_URL|TOOLPLANE_/);
    }
  });

  const malformed: [string, string, unknown, number, string, string][] = [
    ['arguments a string', 'ev-s__echo', { arguments: 'hello' }, 400, 'invalid_arguments', 'INVALID_ARGUMENTS'],
    ['arguments an array', 'ev-s__echo', { arguments: [1, 2] }, 400, 'invalid_arguments', 'INVALID_ARGUMENTS'],
    ['arguments a number', 'ev-s__echo', { arguments: 42 }, 400, 'invalid_arguments', 'INVALID_ARGUMENTS'],
    ['wrong type', 'ev-s__get-sum', { arguments: { a: 'x', b: 1 } }, 400, 'invalid_arguments', 'INVALID_ARGUMENTS'],
    ['missing required', 'ev-s__get-sum', { arguments: { a: 1 } }, 400, 'invalid_arguments', 'INVALID_ARGUMENTS'],
    ['null arguments on a tool with a required field', 'ev-s__echo', { arguments: null }, 400, 'invalid_arguments', 'INVALID_ARGUMENTS'],
    ['extra property the schema forbids', 'inv__strict', { arguments: { q: 'a', extra: true } }, 400, 'invalid_arguments', 'INVALID_ARGUMENTS'],
    // Arguments one level deeper than allowed (65): a deeper body is refused before any call (BODY_TOO_DEEP, browser-edge spec).
    ['deep nesting', 'ev-s__echo', { arguments: { message: 'x', deep: nest(64) } }, 400, 'invalid_arguments', 'INVALID_ARGUMENTS'],
    ['unknown tool', 'nope__nothing', {}, 404, 'rejected', 'TOOL_NOT_FOUND'],
    ['a name no source could have', 'bad name\u0000', {}, 404, 'rejected', 'TOOL_NOT_FOUND'],
    ['negative timeout', 'ev-s__echo', { arguments: { message: 'x' }, timeoutMs: -1 }, 400, 'invalid_arguments', 'VALIDATION_FAILED'],
    ['huge timeout', 'ev-s__echo', { arguments: { message: 'x' }, timeoutMs: 1e12 }, 400, 'invalid_arguments', 'VALIDATION_FAILED'],
    ['timeout not a number', 'ev-s__echo', { arguments: { message: 'x' }, timeoutMs: 'soon' }, 400, 'invalid_arguments', 'VALIDATION_FAILED'],
    ['unknown body field', 'ev-s__echo', { arguments: { message: 'x' }, colour: 'red' }, 400, 'invalid_arguments', 'VALIDATION_FAILED'],
    ['inputResponses not an object', 'ev-s__echo', { arguments: { message: 'x' }, inputResponses: 'yes' }, 400, 'invalid_arguments', 'VALIDATION_FAILED'],
    ['requestState not a string', 'ev-s__echo', { arguments: { message: 'x' }, requestState: 7 }, 400, 'invalid_arguments', 'VALIDATION_FAILED'],
    ['body an array', 'ev-s__echo', [1], 400, 'invalid_arguments', 'VALIDATION_FAILED'],
    ['non-read-only tool on a read-only source', 'inv-ro__writer', {}, 403, 'rejected', 'READ_ONLY_SOURCE'],
    ['arguments a boolean', 'ev-s__echo', { arguments: true }, 400, 'invalid_arguments', 'INVALID_ARGUMENTS'],
    ['zero timeout', 'ev-s__echo', { arguments: { message: 'x' }, timeoutMs: 0 }, 400, 'invalid_arguments', 'VALIDATION_FAILED'],
    ['fractional timeout', 'ev-s__echo', { arguments: { message: 'x' }, timeoutMs: 1.5 }, 400, 'invalid_arguments', 'VALIDATION_FAILED'],
    ['several problems at once', 'ev-s__get-sum', { arguments: { a: 'one', b: [] } }, 400, 'invalid_arguments', 'INVALID_ARGUMENTS'],
  ];

  it('has at least 20 malformed invocations', () => {
    expect(malformed.length).toBeGreaterThanOrEqual(20);
  });

  it.each(malformed)('%s', async (_name, tool, body, status, executionStatus, code) => {
    const response = await invoke(tool, body);
    expect({ status: response.status, code: response.body.error?.code, executionStatus: response.body.execution?.status }).toEqual({ status, code, executionStatus });
    expect(Array.isArray(response.body.error.details)).toBe(true);
    const [row] = await historyOf(response.body.execution.id);
    expect(row.status).toBe(executionStatus);
    if (_name === 'several problems at once') {
      expect(response.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['arguments.a', 'arguments.b']);
    }
  });

  it('answers a huge string without trouble', async () => {
    const big = 'y'.repeat(600 * 1024);
    const response = await invoke('ev-s__echo', { arguments: { message: big } });
    expect(response.body.status).toBe('succeeded');
  });

  it('refuses disabled and deprecated tools, and disabled sources, and records each', async () => {
    await h.api.patch('/api/v1/tools/ev-s__get-env', { enabled: false });
    const disabled = await invoke('ev-s__get-env', {});
    expect([disabled.status, disabled.body.error.code]).toEqual([403, 'TOOL_DISABLED']);

    writeFileSync(inventory, JSON.stringify([{ name: 'strict', inputSchema: { type: 'object' } }]));
    await h.api.post('/api/v1/sources/inv/refresh');
    const gone = await invoke('inv__going', {});
    expect([gone.status, gone.body.error.code]).toEqual([403, 'TOOL_DEPRECATED']);

    await h.api.patch('/api/v1/sources/ev-t', { enabled: false });
    const off = await invoke('ev-t__echo', { arguments: { message: 'x' } });
    expect([off.status, off.body.error.code]).toEqual([403, 'SOURCE_DISABLED']);
    for (const response of [disabled, gone, off]) expect((await historyOf(response.body.execution.id))[0].status).toBe('rejected');
  });

  it('does not record a body that is not JSON at all', async () => {
    const before = (await h.sql('SELECT count(*)::int AS n FROM executions'))[0].n;
    const response = await h.api.request('POST', '/api/v1/tools/ev-s__echo/invoke', undefined, { raw: '{oops' });
    expect([response.status, response.body.error.code]).toEqual([400, 'INVALID_JSON']);
    expect((await h.sql('SELECT count(*)::int AS n FROM executions'))[0].n).toBe(before);
  });

  it('redacts secrets in recorded arguments', async () => {
    const response = await invoke('ev-s__echo', { arguments: { message: 'hi', apiKey: 'sk-live-123' } });
    const [row] = await historyOf(response.body.id);
    expect(JSON.stringify(row.arguments)).not.toContain('sk-live-123');
    expect(row.arguments).toEqual({ message: 'hi', apiKey: '[redacted]' });
  });
});

function nest(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = { inner: value };
  return value;
}

function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
