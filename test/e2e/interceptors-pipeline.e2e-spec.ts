import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, FIXTURES } from '../helpers/upstreams.js';

const MODERN = '2026-07-28';
const EXECUTION = 'dev.toolplane/execution';
const WITH_EXECUTION = { [EXECUTION]: true };
const ARGUMENTS_ECHO = join(FIXTURES, 'arguments-echo-server.mjs');

type Mode = 'modern' | 'legacy';

/**
 * Interceptors in the one call pipeline, end to end: created through the REST API, run on every
 * entry point (REST invoke, `/mcp`, `/mcp/sources/{name}`, `/mcp/groups/{name}`, the gateway's
 * call_tool; a modern client's stateless calls take the fast path, a 2025-era session the SDK's
 * server), against real upstreams (server-everything, and a fixture that answers the arguments it
 * received), with their runs on the record, in the metrics, and a webhook that never answers.
 */
describe('interceptors in the call pipeline', () => {
  let h: Harness;
  let silent: Server;
  let silentUrl: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    h = await startHarness();
    for (const [name, args] of [
      ['ev', [EVERYTHING, 'stdio', SUITE_TAG]],
      ['args', [ARGUMENTS_ECHO, SUITE_TAG]],
    ] as const) {
      const created = await h.api.post('/api/v1/sources', { name, transport: 'stdio', lifecycle: 'singleton', command: 'node', args, refreshIntervalSeconds: 0 });
      expect([created.status, created.body.health]).toEqual([201, 'healthy']);
    }
    expect((await h.api.post('/api/v1/groups', { name: 'support', include: ['args__arguments', 'ev__echo'] })).status).toBe(201);
    const interceptors = [
      { name: 'no-etc', kind: 'deny', scope: { source: 'args' }, rules: [{ argument: 'path', pathUnder: '/etc', message: 'Paths under /etc are off limits.' }] },
      { name: 'mask-emails', kind: 'redact', scope: { tools: ['ev__echo'] }, detect: ['email'] },
      { name: 'support-limit', kind: 'defaults', scope: { group: 'support', tools: ['args__*'] }, arguments: { limit: 5 } },
    ];
    for (const interceptor of interceptors) expect((await h.api.post('/api/v1/interceptors', interceptor)).status).toBe(201);
    // A webhook that takes the request and never answers.
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}/decide`;
  }, 90_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    silent?.closeAllConnections();
    await new Promise((resolve) => silent?.close(resolve));
    await h?.close();
    await expectNoSuiteProcesses();
  });

  const connect = async (path: string, mode: Mode) => {
    const client = new Client({ name: 'interceptors-e2e', version: '1' }, { versionNegotiation: { mode: mode === 'modern' ? { pin: MODERN } : 'legacy' } });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${h.adminKey}` } } }));
    return client;
  };
  const recordOf = async (result: any) => (await h.api.get(`/api/v1/executions/${result._meta[EXECUTION].id}`)).body;
  const textOf = (result: any) => (result.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('\n');
  const runs = (record: any) => record.interceptors.map((run: any) => `${run.name}:${run.phase}:${run.decision}`);

  describe('a deny', () => {
    it('refuses a REST invoke with 403 INTERCEPTOR_DENIED naming the interceptor, and records it as rejected with the run; nothing reaches the upstream', async () => {
      const denied = await h.api.post('/api/v1/tools/args__arguments/invoke', { arguments: { path: '/etc/../etc/passwd' } });
      expect(denied.status).toBe(403);
      expect(denied.body.error).toMatchObject({ code: 'INTERCEPTOR_DENIED', message: 'Interceptor "no-etc" refused the call: Paths under /etc are off limits.' });
      const record = (await h.api.get(`/api/v1/executions/${denied.body.execution.id}`)).body;
      expect(record).toMatchObject({ status: 'rejected', attempts: 0, result: null, error: { code: 'INTERCEPTOR_DENIED' } });
      expect(record.interceptors).toEqual([{ name: 'no-etc', kind: 'deny', phase: 'pre', decision: 'deny', message: 'Paths under /etc are off limits.', durationMs: expect.any(Number) }]);

      const allowed = await h.api.post('/api/v1/tools/args__arguments/invoke', { arguments: { path: '/tmp/a' } });
      expect(allowed.status).toBe(200);
      expect(allowed.body.result.structuredContent.received).toEqual({ path: '/tmp/a' });
      expect(runs(allowed.body)).toEqual(['no-etc:pre:allow']);
    });

    it.each<Mode>(['modern', 'legacy'])('is an isError result the model can read on /mcp, /mcp/sources/{name}, /mcp/groups/{name} and the gateway (%s)', async (mode) => {
      const calls: [path: string, name: string, args: Record<string, unknown>][] = [
        ['/mcp', 'args__arguments', { path: '/etc/shadow' }],
        ['/mcp/sources/args', 'arguments', { path: '/etc/shadow' }],
        ['/mcp/groups/support', 'arguments', { path: '/etc/shadow' }],
        ['/mcp/gateway', 'call_tool', { name: 'args__arguments', arguments: { path: '/etc/shadow' } }],
      ];
      for (const [path, name, args] of calls) {
        const client = await connect(path, mode);
        const result: any = await client.callTool({ _meta: WITH_EXECUTION, name, arguments: args });
        expect([path, result.isError]).toEqual([path, true]);
        expect(textOf(result)).toBe('[INTERCEPTOR_DENIED] Interceptor "no-etc" refused the call: Paths under /etc are off limits.\n- arguments.path: Paths under /etc are off limits.');
        const record = await recordOf(result);
        expect(record).toMatchObject({ qualifiedName: 'args__arguments', channel: 'mcp', status: 'rejected', attempts: 0, error: { code: 'INTERCEPTOR_DENIED' } });
        expect(record.interceptors.at(-1)).toMatchObject({ name: 'no-etc', decision: 'deny' });
      }
    });
  });

  describe('a group-only interceptor', () => {
    it('adds its default only to calls through its group, and the record shows the arguments as sent', async () => {
      const outside = await h.api.post('/api/v1/tools/args__arguments/invoke', { arguments: {} });
      expect(outside.body.result.structuredContent.received).toEqual({});
      const through = await h.api.post('/api/v1/groups/support/tools/arguments/invoke', { arguments: {} });
      expect(through.status).toBe(200);
      expect(through.body.result.structuredContent.received).toEqual({ limit: 5 });
      expect(through.body.arguments).toEqual({ limit: 5 });
      expect(runs(through.body)).toEqual(['no-etc:pre:allow', 'support-limit:pre:modify']);
      const client = await connect('/mcp/groups/support', 'modern');
      const result: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'arguments', arguments: {} });
      expect(result.structuredContent.received).toEqual({ limit: 5 });
      expect(await recordOf(result)).toMatchObject({ group: 'support', arguments: { limit: 5 } });
    });
  });

  describe('a post modify', () => {
    it.each<Mode>(['modern', 'legacy'])('masks what the tool answered on every way in, and the record lists the run with its counts (%s)', async (mode) => {
      const message = 'write to ada.lovelace@example.com today';
      const rest = await h.api.post('/api/v1/tools/ev__echo/invoke', { arguments: { message } });
      expect(rest.status).toBe(200);
      expect(rest.body.result.content).toEqual([{ type: 'text', text: 'Echo: write to [email] today' }]);
      expect(rest.body.interceptors).toEqual([{ name: 'mask-emails', kind: 'redact', phase: 'post', decision: 'modify', changes: expect.objectContaining({ counts: { email: 1 } }), durationMs: expect.any(Number) }]);
      const stored = (await h.api.get(`/api/v1/executions/${rest.body.id}`)).body;
      expect(stored.result.content).toEqual(rest.body.result.content);
      expect(stored.interceptors).toEqual(rest.body.interceptors);

      for (const [path, name, args] of [
        ['/mcp', 'ev__echo', { message }],
        ['/mcp/sources/ev', 'echo', { message }],
        ['/mcp/groups/support', 'echo', { message }],
        ['/mcp/gateway', 'call_tool', { name: 'ev__echo', arguments: { message } }],
      ] as const) {
        const client = await connect(path, mode);
        const result: any = await client.callTool({ _meta: WITH_EXECUTION, name, arguments: args });
        expect([path, textOf(result)]).toEqual([path, 'Echo: write to [email] today']);
        const record = await recordOf(result);
        expect(record.result.content).toEqual([{ type: 'text', text: 'Echo: write to [email] today' }]);
        expect(runs(record)).toEqual(['mask-emails:post:modify']);
      }
    });
  });

  describe('a webhook that never answers', () => {
    it('fails its run at timeoutMs: onError deny refuses the call (503 INTERCEPTOR_FAILED), onError allow lets it through; both recorded as errors', async () => {
      expect((await h.api.put('/api/v1/secrets/SLOW_HOOK_KEY', { value: 'slow-hook-signing-key' })).status).toBeLessThan(300);
      const hook = { name: 'slow-hook', kind: 'webhook', phase: 'pre', url: silentUrl, signingSecret: 'SLOW_HOOK_KEY', timeoutMs: 300, onError: 'deny', scope: { tools: ['ev__get-sum'] } };
      expect((await h.api.post('/api/v1/interceptors', hook)).status).toBe(201);

      const refused = await h.api.post('/api/v1/tools/ev__get-sum/invoke', { arguments: { a: 2, b: 3 } });
      expect(refused.status).toBe(503);
      expect(refused.body.error).toMatchObject({ code: 'INTERCEPTOR_FAILED', retryable: true });
      expect(refused.body.error.message).toContain('Interceptor "slow-hook" failed');
      expect(refused.body.error.message).toContain('timed out after 300 ms');
      expect(refused.body.execution).toMatchObject({ status: 'rejected', attempts: 0 });
      expect(refused.body.execution.interceptors).toEqual([
        { name: 'slow-hook', kind: 'webhook', phase: 'pre', decision: 'error', onError: 'deny', failure: expect.stringContaining('timed out after 300 ms'), durationMs: expect.any(Number) },
      ]);
      expect(refused.body.execution.interceptors[0].durationMs).toBeGreaterThanOrEqual(290);

      const client = await connect('/mcp', 'modern');
      const overMcp: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'ev__get-sum', arguments: { a: 2, b: 3 } });
      expect(overMcp.isError).toBe(true);
      expect(textOf(overMcp)).toContain('[INTERCEPTOR_FAILED] Interceptor "slow-hook" failed');

      expect((await h.api.patch('/api/v1/interceptors/slow-hook', { onError: 'allow' })).status).toBe(200);
      const through = await h.api.post('/api/v1/tools/ev__get-sum/invoke', { arguments: { a: 2, b: 3 } });
      expect(through.status).toBe(200);
      expect(JSON.stringify(through.body.result.content)).toContain('5');
      expect(through.body.interceptors).toEqual([expect.objectContaining({ name: 'slow-hook', decision: 'error', onError: 'allow' })]);
    }, 30_000);
  });

  it('counts every decision by interceptor, phase and decision in the metrics', async () => {
    const text = await (await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${h.adminKey}` } })).text();
    const count = (labels: string) => Number(text.split('\n').find((line) => line.startsWith(`toolplane_interceptor_decisions_total{${labels}} `))?.split(' ')[1] ?? 0);
    expect(count('interceptor="no-etc",phase="pre",decision="deny"')).toBeGreaterThanOrEqual(9);
    expect(count('interceptor="mask-emails",phase="post",decision="modify"')).toBeGreaterThanOrEqual(10);
    expect(count('interceptor="slow-hook",phase="pre",decision="error"')).toBe(3);
    expect(text).toContain('toolplane_interceptor_duration_seconds_count{interceptor="slow-hook",phase="pre"} 3');
  });
});
