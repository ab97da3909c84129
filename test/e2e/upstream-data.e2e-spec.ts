import { join } from 'node:path';
import { mcpAnswer } from '../helpers/mcp-answer.js';
import { SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES, startHttpUpstream, type RunningUpstream } from '../helpers/upstreams.js';

/**
 * What an upstream sends is contained, and what it was given stays secret: tools with unstorable
 * names or text are skipped with a reason (the rest discovered, refresh answering 200), credential
 * query values of a source URL never appear in an answer or an audit event, a plugin's stderr is
 * logged with the source's secrets replaced, and a dry run is audited with its arguments.
 */
const SECRET_VALUE = 'stderr-secret-7c1e4b9a0d';
const URL_KEY = 'url-key-5f2a9c8e31';

describe('upstream data and secrets', () => {
  let h: Harness;
  let echo: RunningUpstream;

  beforeAll(async () => {
    h = await startHarness();
    echo = await startHttpUpstream((port) => [join(FIXTURES, 'http-echo-server.mjs'), '--port', String(port), SUITE_TAG], '/mcp');
    expect((await h.api.put('/api/v1/secrets/plugin-token', { value: SECRET_VALUE })).status).toBe(201);
  });

  afterAll(async () => {
    await h?.close();
    await echo?.stop();
  });

  it('skips tools whose name or description cannot be stored, lists why, and discovers the rest', async () => {
    const registered = await h.api.post('/api/v1/sources', {
      name: 'odd',
      transport: 'stdio',
      lifecycle: 'singleton',
      command: process.execPath,
      args: [join(FIXTURES, 'hostile-server.mjs'), SUITE_TAG],
      env: { HOSTILE_TOOLS: 'nul_name,nul_description,nul_field,nul_field_name,echo_readonly' },
      refreshIntervalSeconds: 0,
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ health: 'healthy', toolCount: 1, lastError: null });
    expect(registered.body.skippedTools).toEqual([
      { name: 'nul\\u0000name', reason: 'its name holds a NUL character or a lone UTF-16 surrogate' },
      { name: 'nul_description', reason: 'its description holds a NUL character or a lone UTF-16 surrogate' },
      // Fields Toolplane does not know are kept as declared, so they are checked as well.
      { name: 'nul_field', reason: 'its futureField holds a NUL character or a lone UTF-16 surrogate' },
      { name: 'nul_field_name', reason: 'a field name holds a NUL character or a lone UTF-16 surrogate' },
    ]);
    const refreshed = await h.api.post('/api/v1/sources/odd/refresh');
    expect(refreshed.status).toBe(200);
    const call = await h.api.post('/api/v1/tools/odd__echo_readonly/invoke', { arguments: { a: 1 } });
    expect(call.status).toBe(200);
  });

  it('refuses a listing that is not a list of tools as a whole, with the reason', async () => {
    const registered = await h.api.post('/api/v1/sources', {
      name: 'shapeless',
      transport: 'stdio',
      lifecycle: 'singleton',
      command: process.execPath,
      args: [join(FIXTURES, 'hostile-server.mjs'), SUITE_TAG],
      env: { HOSTILE_TOOLS: 'no_schema,echo_readonly' },
      refreshIntervalSeconds: 0,
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ health: 'unhealthy', toolCount: 0, lastError: expect.stringContaining('tools/list answered a result that is not a list of tools') });
  });

  it("passes on a result's own _meta to MCP callers, without the protocol's reserved keys, and none over 16 KiB", async () => {
    const registered = await h.api.post('/api/v1/sources', {
      name: 'metas',
      transport: 'stdio',
      lifecycle: 'singleton',
      command: process.execPath,
      args: [join(FIXTURES, 'hostile-server.mjs'), SUITE_TAG],
      env: { HOSTILE_TOOLS: 'result_meta,big_result_meta' },
      refreshIntervalSeconds: 0,
    });
    expect(registered.status).toBe(201);
    const call = async (name: string) => {
      const response = await fetch(`${h.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization: `Bearer ${h.adminKey}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }),
      });
      return mcpAnswer(await response.text()).result;
    };
    expect(await call('metas__result_meta')).toEqual({ content: [{ type: 'text', text: 'ok' }], _meta: { 'example.com/trace': 'abc' } });
    expect(await call('metas__big_result_meta')).toEqual({ content: [{ type: 'text', text: 'ok' }] });
  });

  it('ignores answers a plugin sends to calls nobody made, and keeps answering the real ones', async () => {
    const registered = await h.api.post('/api/v1/sources', {
      name: 'forger',
      transport: 'stdio',
      lifecycle: 'singleton',
      command: process.execPath,
      args: [join(FIXTURES, 'hostile-server.mjs'), SUITE_TAG],
      env: { HOSTILE_TOOLS: 'forged_answers' },
      refreshIntervalSeconds: 0,
    });
    expect(registered.status).toBe(201);
    for (let i = 0; i < 3; i++) {
      const call = await h.api.post('/api/v1/tools/forger__forged_answers/invoke', { arguments: {} });
      expect(call.status).toBe(200);
      // Toolplane's calls go out under string ids: the answer is to this call's own.
      expect(call.body.result.content).toEqual([{ type: 'text', text: 'real answer to string' }]);
    }
    expect((await h.api.get('/api/v1/sources/forger')).body.health).toBe('healthy');
  });

  it('masks credential query values of a source URL in every answer and audit event, and still connects with them', async () => {
    const url = `${echo.url}?api_key=${URL_KEY}&region=eu`;
    const registered = await h.api.post('/api/v1/sources', { name: 'keyed', transport: 'streamable-http', url, refreshIntervalSeconds: 0 });
    expect(registered.status).toBe(201);
    expect(registered.body.health).toBe('healthy');
    const masked = `${echo.url}?api_key=***&region=eu`;
    expect(registered.body.url).toBe(masked);
    expect((await h.api.get('/api/v1/sources/keyed')).body.url).toBe(masked);
    const listed = await h.api.get('/api/v1/sources');
    expect(listed.body.items.find((source: { name: string }) => source.name === 'keyed').url).toBe(masked);
    const validated = await h.api.post('/api/v1/sources/validate', { name: 'keyed-2', transport: 'streamable-http', url });
    expect(validated.body.resolved.url).toBe(masked);
    const audit = await h.api.get('/api/v1/audit-events?limit=100');
    expect(JSON.stringify(audit.body)).not.toContain(URL_KEY);
    expect(JSON.stringify(audit.body)).toContain(masked);
    const call = await h.api.post('/api/v1/tools/keyed__echo/invoke', { arguments: { message: 'through the keyed URL' } });
    expect(call.status).toBe(200);
  });

  it('audits a dry run like a registration, with its arguments as written', async () => {
    const args = [join(FIXTURES, 'hostile-server.mjs'), '--token=${secret:plugin-token}', SUITE_TAG];
    const validated = await h.api.post('/api/v1/sources/validate', { name: 'dry', transport: 'stdio', command: process.execPath, args, env: { HOSTILE_TOOLS: 'echo_readonly' } });
    expect(validated.status).toBe(200);
    const events = await h.api.get('/api/v1/audit-events?limit=100');
    const event = events.body.items.find((item: { action: string; targetName: string }) => item.action === 'source.validated' && item.targetName === 'dry');
    expect(event).toMatchObject({ actor: expect.any(String), details: { transport: 'stdio', command: process.execPath, args, valid: validated.body.valid } });
    const registered = await h.api.get('/api/v1/audit-events?limit=100');
    const registration = registered.body.items.find((item: { action: string; targetName: string }) => item.action === 'source.registered' && item.targetName === 'odd');
    expect(registration.details.args).toEqual([join(FIXTURES, 'hostile-server.mjs'), SUITE_TAG]);
    expect(JSON.stringify(events.body)).not.toContain(SECRET_VALUE);
  });

  it("logs a plugin's stderr with the source's secrets replaced, even at debug level", async () => {
    const registered = await h.api.post('/api/v1/sources', {
      name: 'noisy',
      transport: 'stdio',
      lifecycle: 'singleton',
      command: process.execPath,
      args: [join(FIXTURES, 'hostile-server.mjs'), SUITE_TAG],
      env: { HOSTILE_TOOLS: 'stderr_env', PLUGIN_TOKEN: '${secret:plugin-token}' },
      refreshIntervalSeconds: 0,
    });
    expect(registered.status).toBe(201);
    const call = await h.api.post('/api/v1/tools/noisy__stderr_env/invoke', { arguments: { name: 'PLUGIN_TOKEN' } });
    expect(call.status).toBe(200);
    const deadline = Date.now() + 5000;
    while (!h.process.logs().includes('the value is [secret:plugin-token]') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(h.process.logs()).toContain('the value is [secret:plugin-token]');
    expect(h.process.logs()).not.toContain(SECRET_VALUE);
  });
});
