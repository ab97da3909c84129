import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING } from '../helpers/upstreams.js';

/** One structured log line per call at info: who called what, how it ended, how long it took, under its request's id. */
describe('call log lines', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    expect((await h.api.post('/api/v1/sources', { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'] })).status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  const callLines = () =>
    h.process
      .logs()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.context === 'calls');

  it('writes one line per call, with the request id, the principal and the outcome, and never the arguments or result', async () => {
    const ok = await h.api.request('POST', '/api/v1/tools/ev__echo/invoke', { arguments: { message: 'secret-looking-argument-41' } }, { headers: { 'x-request-id': 'call-7' } });
    expect(ok.status).toBe(200);
    const refused = await h.api.request('POST', '/api/v1/tools/ev__echo/invoke', { arguments: { message: 5 } }, { headers: { 'x-request-id': 'call-8' } });
    expect(refused.status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = callLines();
    expect(lines.find((line) => line.requestId === 'call-7')).toEqual({
      level: 30,
      time: expect.any(String),
      service: 'toolplane',
      context: 'calls',
      requestId: 'call-7',
      msg: 'call ended',
      executionId: ok.body.id,
      tool: 'ev__echo',
      source: 'ev',
      channel: 'rest',
      status: 'succeeded',
      durationMs: expect.any(Number),
      principal: 'admin',
      // The caller's client, as its User-Agent names it.
      client: 'node',
    });
    expect(lines.find((line) => line.requestId === 'call-8')).toMatchObject({ status: 'invalid_arguments', code: 'INVALID_ARGUMENTS', executionId: refused.body.execution.id });
    expect(h.process.logs()).not.toContain('secret-looking-argument-41');
    expect(h.process.logs()).not.toContain('Echo: secret');
  });

  it('names the request of a call made over MCP', async () => {
    const legacy = await h.api.request(
      'POST',
      '/mcp',
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ev__echo', arguments: { message: 'over mcp' } } },
      { headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', 'x-request-id': 'mcp-call-9' } },
    );
    expect(legacy.status).toBe(200);
    expect(legacy.headers.get('x-request-id')).toBe('mcp-call-9');
    const executionId = legacy.headers.get('toolplane-execution-id');
    expect(executionId).toMatch(/^[0-9a-f-]{36}$/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const line = callLines().find((candidate) => candidate.requestId === 'mcp-call-9');
    expect(line).toMatchObject({ msg: 'call ended', tool: 'ev__echo', channel: 'mcp', status: 'succeeded', principal: 'admin' });
    expect(line!.executionId).toBe(executionId);
    // Once: the line is not also given the id by the request context.
    expect(h.process.logs().split('\n').filter((text) => text.includes('"mcp-call-9"'))).toHaveLength(1);
  });
});
