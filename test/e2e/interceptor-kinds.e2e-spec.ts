import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, FIXTURES } from '../helpers/upstreams.js';

const EXECUTION = 'dev.toolplane/execution';
const ARGUMENTS_ECHO = join(FIXTURES, 'arguments-echo-server.mjs');
const CARD = '4111 1111 1111 1111';
const EMAIL = 'grace.hopper@example.org';

/** A policy service whose answer each path fixes: what a careless or broken one sends. */
const ANSWERS: Record<string, (res: ServerResponse) => void> = {
  '/garbage': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"decision": allow'),
  '/fails': (res) => res.writeHead(500, { 'content-type': 'application/json' }).end('{"error": "down"}'),
  '/breaks-schema': (res) => json(res, { decision: 'modify', arguments: { a: 'two', b: 3 } }),
  '/hot': (res) => json(res, { decision: 'modify', result: { content: [{ type: 'text', text: '{"temperature":"hot"}' }], structuredContent: { temperature: 'hot' } } }),
};
const json = (res: ServerResponse, body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/**
 * The built-in kinds not covered by interceptors-pipeline.e2e-spec.ts, and a webhook that answers
 * garbage, fails, or answers a change the tool's schema refuses, each in the one call pipeline
 * against real upstreams (server-everything and a fixture that answers the arguments it received),
 * over REST invoke and `/mcp`, in the order the interceptors declare.
 */
describe('interceptor kinds in the call pipeline', () => {
  let h: Harness;
  let hook: Server;
  let hookUrl: string;
  let mcp: Client;

  beforeAll(async () => {
    h = await startHarness();
    for (const [name, args] of [
      ['ev', [EVERYTHING, 'stdio', SUITE_TAG]],
      ['fixed', [ARGUMENTS_ECHO, SUITE_TAG]],
      ['pii', [ARGUMENTS_ECHO, SUITE_TAG]],
    ] as const) {
      const created = await h.api.post('/api/v1/sources', { name, transport: 'stdio', lifecycle: 'singleton', command: 'node', args, refreshIntervalSeconds: 0 });
      expect([created.status, created.body.health]).toEqual([201, 'healthy']);
    }
    hook = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => (ANSWERS[req.url ?? ''] ?? ((r: ServerResponse) => json(r, { decision: 'allow' })))(res));
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}`;
    expect((await h.api.put('/api/v1/secrets/KINDS_HOOK_KEY', { value: 'kinds-hook-signing-key' })).status).toBeLessThan(300);
    mcp = new Client({ name: 'interceptor-kinds-e2e', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.adminKey}` } } }));
  }, 90_000);

  afterAll(async () => {
    await mcp?.close().catch(() => undefined);
    hook?.closeAllConnections();
    await new Promise((resolve) => hook?.close(resolve));
    await h?.close();
    await expectNoSuiteProcesses();
  });

  const create = async (interceptor: Record<string, unknown>) => {
    const created = await h.api.post('/api/v1/interceptors', interceptor);
    expect([created.status, created.body]).toEqual([201, expect.objectContaining({ name: interceptor.name })]);
  };
  const runs = (record: any) => record.interceptors.map((run: any) => `${run.name}:${run.decision}`);
  const callMcp = async (name: string, args: Record<string, unknown>) => {
    const result: any = await mcp.callTool({ _meta: { [EXECUTION]: true }, name, arguments: args });
    return { result, record: (await h.api.get(`/api/v1/executions/${result._meta[EXECUTION].id}`)).body };
  };

  it('lock, then defaults, then deny, in their order: a locked value is sent whatever the caller left out, another value is ARGUMENT_LOCKED', async () => {
    await create({ name: 'z-fixed-mode', kind: 'lock', order: 0, scope: { source: 'fixed' }, arguments: { mode: 'read' } });
    await create({ name: 'a-default-limit', kind: 'defaults', order: 10, scope: { source: 'fixed' }, arguments: { limit: 5 } });
    await create({ name: 'no-huge-limit', kind: 'deny', order: 20, scope: { source: 'fixed' }, rules: [{ argument: 'limit', range: { max: 100 }, message: 'At most 100 rows.' }] });

    const sent = await h.api.post('/api/v1/tools/fixed__arguments/invoke', { arguments: {} });
    expect(sent.status).toBe(200);
    expect(sent.body.result.structuredContent.received).toEqual({ mode: 'read', limit: 5 });
    expect(runs(sent.body)).toEqual(['z-fixed-mode:modify', 'a-default-limit:modify', 'no-huge-limit:allow']);
    expect(sent.body.arguments).toEqual({ mode: 'read', limit: 5 });

    const same = await h.api.post('/api/v1/tools/fixed__arguments/invoke', { arguments: { mode: 'read', limit: 7 } });
    expect(same.body.result.structuredContent.received).toEqual({ mode: 'read', limit: 7 });

    const other = await h.api.post('/api/v1/tools/fixed__arguments/invoke', { arguments: { mode: 'write' } });
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ code: 'ARGUMENT_LOCKED', details: [expect.objectContaining({ path: 'arguments.mode' })] });
    expect(other.body.error.message).toContain('z-fixed-mode');
    expect(other.body.execution).toMatchObject({ status: 'invalid_arguments', attempts: 0 });

    const huge = await callMcp('fixed__arguments', { limit: 1000 });
    expect(huge.result.isError).toBe(true);
    expect(huge.record).toMatchObject({ status: 'rejected', attempts: 0, error: { code: 'INTERCEPTOR_DENIED' } });
    expect(runs(huge.record)).toEqual(['z-fixed-mode:modify', 'a-default-limit:allow', 'no-huge-limit:deny']);
  });

  it('redact, then cap: planted card numbers and e-mail addresses masked in text and structured content, counted; the text cut with a notice the model sees', async () => {
    await create({ name: 'mask', kind: 'redact', phase: 'post', order: 0, scope: { source: 'pii' }, detect: ['email', 'card'] });
    await create({ name: 'short', kind: 'cap', phase: 'post', order: 10, scope: { source: 'pii' }, maxTextLength: 60 });
    const note = `card ${CARD} of ${EMAIL}`;

    const rest = await h.api.post('/api/v1/tools/pii__arguments/invoke', { arguments: { note } });
    expect(rest.status).toBe(200);
    const result = rest.body.result;
    expect(result.structuredContent.received).toEqual({ note: 'card [card] of [email]' });
    expect(JSON.stringify(result)).not.toContain('4111');
    expect(JSON.stringify(result)).not.toContain('grace.hopper');
    expect(result.content[0].text.length).toBeLessThanOrEqual(60);
    expect(result.content.at(-1).text).toContain('"short"');
    expect(result.truncated).toBe(true);
    expect(rest.body.interceptors).toEqual([
      expect.objectContaining({ name: 'mask', decision: 'modify', changes: expect.objectContaining({ counts: { email: 2, card: 2 } }) }),
      expect.objectContaining({ name: 'short', decision: 'modify', changes: expect.objectContaining({ truncated: true }) }),
    ]);
    const stored = (await h.api.get(`/api/v1/executions/${rest.body.id}`)).body;
    expect(JSON.stringify(stored.result)).not.toContain('4111');

    const overMcp = await callMcp('pii__arguments', { note });
    expect(overMcp.result.structuredContent.received).toEqual({ note: 'card [card] of [email]' });
    expect(JSON.stringify(overMcp.result)).not.toContain('grace.hopper');
    expect(runs(overMcp.record)).toEqual(['mask:modify', 'short:modify']);
  });

  it('output-schema after a webhook that changes the result: a mismatch is an error, or a warning on the record; a result that matches passes', async () => {
    await create({ name: 'a-hot', kind: 'webhook', phase: 'post', order: 0, scope: { tools: ['ev__get-structured-content'] }, url: `${hookUrl}/hot`, signingSecret: 'KINDS_HOOK_KEY' });
    await create({ name: 'b-shape', kind: 'output-schema', order: 10, scope: { tools: ['ev__get-structured-content'] } });
    const call = () => h.api.post('/api/v1/tools/ev__get-structured-content/invoke', { arguments: { location: 'Chicago' } });

    const broken = await call();
    expect(broken.status).toBe(403);
    expect(broken.body.error).toMatchObject({ code: 'INTERCEPTOR_DENIED' });
    expect(broken.body.error.message).toContain('b-shape');
    expect(broken.body.execution).toMatchObject({ status: 'rejected', attempts: 1 });
    expect(runs(broken.body.execution)).toEqual(['a-hot:modify', 'b-shape:deny']);

    expect((await h.api.patch('/api/v1/interceptors/b-shape', { onMismatch: 'warn' })).status).toBe(200);
    const warned = await call();
    expect(warned.status).toBe(200);
    expect(warned.body.result.structuredContent).toEqual({ temperature: 'hot' });
    expect(warned.body.interceptors[1]).toMatchObject({ name: 'b-shape', decision: 'allow', warning: expect.any(String) });

    expect((await h.api.patch('/api/v1/interceptors/a-hot', { enabled: false })).status).toBe(200);
    const real = await call();
    expect(real.status).toBe(200);
    expect(real.body.result.structuredContent).toMatchObject({ temperature: 36 });
    expect(runs(real.body)).toEqual(['b-shape:allow']);
    expect(real.body.interceptors[0].warning).toBeUndefined();
  });

  it('a webhook that answers garbage, fails, or answers arguments the schema refuses: onError deny refuses (503 INTERCEPTOR_FAILED), onError allow sends the arguments as they were', async () => {
    await create({ name: 'policy', kind: 'webhook', phase: 'pre', scope: { tools: ['ev__get-sum'] }, url: `${hookUrl}/garbage`, signingSecret: 'KINDS_HOOK_KEY' });
    const call = () => h.api.post('/api/v1/tools/ev__get-sum/invoke', { arguments: { a: 2, b: 3 } });
    for (const path of ['/garbage', '/fails', '/breaks-schema']) {
      expect((await h.api.patch('/api/v1/interceptors/policy', { url: `${hookUrl}${path}`, onError: 'deny' })).status).toBe(200);
      const refused = await call();
      expect([path, refused.status, refused.body.error?.code]).toEqual([path, 503, 'INTERCEPTOR_FAILED']);
      expect(refused.body.execution).toMatchObject({ status: 'rejected', attempts: 0 });
      expect(refused.body.execution.interceptors).toEqual([expect.objectContaining({ name: 'policy', decision: 'error', onError: 'deny', failure: expect.any(String) })]);

      expect((await h.api.patch('/api/v1/interceptors/policy', { onError: 'allow' })).status).toBe(200);
      const through = await call();
      expect([path, through.status]).toEqual([path, 200]);
      expect(JSON.stringify(through.body.result.content)).toContain('5');
      expect(through.body.arguments).toEqual({ a: 2, b: 3 });
      expect(through.body.interceptors).toEqual([expect.objectContaining({ name: 'policy', decision: 'error', onError: 'allow' })]);
    }
    const overMcp = await (async () => {
      expect((await h.api.patch('/api/v1/interceptors/policy', { onError: 'deny' })).status).toBe(200);
      return callMcp('ev__get-sum', { a: 2, b: 3 });
    })();
    expect(overMcp.result.isError).toBe(true);
    expect(overMcp.result.content[0].text).toContain('[INTERCEPTOR_FAILED] Interceptor "policy" failed');
    expect(overMcp.record.interceptors[0].failure).toContain("the arguments it answered do not match the tool's input schema");
    expect(overMcp.record.interceptors[0].failure).toContain('arguments.a');
  }, 60_000);
});
