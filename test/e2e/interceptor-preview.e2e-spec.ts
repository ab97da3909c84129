import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeApi, startHarness, type ApiResponse, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING } from '../helpers/upstreams.js';

const paths = (answer: ApiResponse) => (answer.body.error.details as { path: string }[]).map((detail) => detail.path);
const text = (value: string) => ({ type: 'text', text: value });
/** An e-mail address and a card number (Luhn-valid), as a CRM might answer them. */
const PII = 'Ada Lovelace <ada@example.com> paid with 4111 1111 1111 1111.';

/**
 * POST /api/v1/interceptors/preview over REST against a real Toolplane and server-everything: each
 * built-in kind once through the engines the application registers, every problem of bad input,
 * a tool the inventory does not know, a scope that does not apply; nothing stored, no upstream
 * called. And the same engines run in calls.
 */
describe('interceptor preview over REST', () => {
  let h: Harness;
  const preview = (interceptor: unknown, call: unknown) => h.api.post('/api/v1/interceptors/preview', { interceptor, call });

  beforeAll(async () => {
    h = await startHarness();
    expect((await h.api.post('/api/v1/sources', { name: 'everything', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'] })).status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  it('redact: masks the e-mail address and the card number of a sample result, with counts by kind and the paths changed', async () => {
    const answer = await preview({ name: 'mask-pii', kind: 'redact', scope: { source: 'everything' } }, { tool: 'everything__echo', arguments: { message: 'x' }, result: { content: [text(PII)], structuredContent: { note: PII } } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      applies: true,
      tool: { qualifiedName: 'everything__echo', source: 'everything', known: true },
      decision: 'modify',
      refused: false,
      changes: { paths: ['content[0].text', 'structuredContent'], counts: { email: 2, card: 2 } },
      result: { content: [text('Ada Lovelace <[email]> paid with [card].')], structuredContent: { note: 'Ada Lovelace <[email]> paid with [card].' }, isError: false },
      durationMs: expect.any(Number),
    });
  });

  it('defaults and lock: the arguments after them, or the call refused with ARGUMENT_LOCKED naming the argument', async () => {
    const filled = await preview({ name: 'with-image', kind: 'defaults', arguments: { includeImage: true } }, { tool: 'everything__get-annotated-message', arguments: { messageType: 'success' } });
    expect(filled.body).toMatchObject({ decision: 'modify', refused: false, changes: { paths: ['arguments.includeImage'] }, arguments: { messageType: 'success', includeImage: true } });
    expect(filled.body).not.toHaveProperty('result');

    const locked = await preview({ name: 'debug-only', kind: 'lock', arguments: { messageType: 'debug' } }, { tool: 'everything__get-annotated-message', arguments: { messageType: 'error' } });
    expect(locked.body).toMatchObject({ decision: 'deny', refused: true, code: 'ARGUMENT_LOCKED', details: [{ path: 'arguments.messageType' }], arguments: { messageType: 'error' } });
    expect(locked.body.message).toMatch(/^Interceptor "debug-only" refused the call: /);
    const same = await preview({ name: 'debug-only', kind: 'lock', arguments: { messageType: 'debug' } }, { tool: 'everything__get-annotated-message', arguments: {} });
    // The sample is checked as a call is before any pre interceptor: messageType is required.
    expect([same.status, paths(same)]).toEqual([400, ['call.arguments.messageType']]);
  });

  it('deny: the first rule met refuses the call with its message', async () => {
    const rules = [{ argument: 'message', pattern: '^rm\\s', message: 'No shell commands in messages.' }];
    const denied = await preview({ name: 'no-rm', kind: 'deny', scope: { tools: ['everything__echo'] }, rules }, { tool: 'everything__echo', arguments: { message: 'rm -rf /' } });
    expect(denied.body).toMatchObject({ applies: true, decision: 'deny', refused: true, code: 'INTERCEPTOR_DENIED', message: 'Interceptor "no-rm" refused the call: No shell commands in messages.', changes: {} });
    const allowed = await preview({ name: 'no-rm', kind: 'deny', rules }, { tool: 'everything__echo', arguments: { message: 'hello' } });
    expect(allowed.body).toMatchObject({ decision: 'allow', refused: false, arguments: { message: 'hello' } });
  });

  it('cap: a text over the limit cut, with a notice, and truncated among the changes', async () => {
    const answer = await preview({ name: 'short', kind: 'cap', maxTextLength: 12 }, { tool: 'everything__echo', arguments: { message: 'x' }, result: { content: [text('a'.repeat(100))] } });
    expect(answer.body).toMatchObject({ decision: 'modify', changes: { truncated: true, paths: ['content[0].text'] } });
    expect(answer.body.result.content[0].text.startsWith('a'.repeat(12))).toBe(true);
    expect(answer.body.result.content[0].text.length).toBeLessThan(100);
  });

  it("output-schema: structuredContent checked against the tool's outputSchema from the inventory", async () => {
    const wrong = await preview({ name: 'weather-shape', kind: 'output-schema' }, { tool: 'everything__get-structured-content', arguments: { location: 'Chicago' }, result: { content: [text('{}')], structuredContent: { temperature: 'hot', conditions: 'Sunny' } } });
    expect(wrong.body).toMatchObject({ decision: 'deny', refused: true, code: 'INTERCEPTOR_DENIED' });
    expect(wrong.body.details.map((detail: { path: string }) => detail.path)).toEqual(expect.arrayContaining(['structuredContent.temperature']));
    const right = await preview({ name: 'weather-shape', kind: 'output-schema' }, { tool: 'everything__get-structured-content', arguments: { location: 'Chicago' }, result: { content: [text('{}')], structuredContent: { temperature: 20, conditions: 'Sunny', humidity: 40 } } });
    expect(right.body).toMatchObject({ decision: 'allow', refused: false });
  });

  it('webhook: the sample POSTed, signed, to the service, whose answer is the decision (not a built-in kind, run the same way)', async () => {
    const seen: { headers: IncomingMessage['headers']; body: Record<string, unknown> }[] = [];
    const policy: Server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push({ headers: request.headers, body: JSON.parse(body) });
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ decision: 'deny', message: 'Policy says no.' }));
      });
    });
    await new Promise<void>((done) => policy.listen(0, '127.0.0.1', done));
    try {
      expect((await h.api.put('/api/v1/secrets/POLICY_KEY', { value: 'policy-key-value' })).status).toBeLessThan(300);
      const hook = { name: 'policy', kind: 'webhook', phase: 'pre', url: `http://127.0.0.1:${(policy.address() as AddressInfo).port}/decide`, signingSecret: 'POLICY_KEY' };
      const answer = await preview(hook, { tool: 'everything__echo', arguments: { message: 'hi' } });
      expect(answer.body).toMatchObject({ decision: 'deny', refused: true, code: 'INTERCEPTOR_DENIED', message: 'Interceptor "policy" refused the call: Policy says no.' });
      expect(seen).toHaveLength(1);
      expect(seen[0]!.headers['toolplane-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(seen[0]!.body).toMatchObject({ phase: 'pre', interceptor: 'policy', tool: { qualifiedName: 'everything__echo', source: 'everything' }, arguments: { message: 'hi' }, principal: { id: 'admin' } });
      const unsigned = await preview({ ...hook, signingSecret: 'NO_SUCH_KEY' }, { tool: 'everything__echo', arguments: { message: 'hi' } });
      expect([unsigned.status, paths(unsigned)]).toEqual([400, ['interceptor.signingSecret']]);
      expect(seen).toHaveLength(1);
    } finally {
      await new Promise((done) => policy.close(done));
    }
  });

  it('lists every problem of the interceptor and of the sample call, under interceptor. and call.', async () => {
    const bad = await preview({ name: 'Bad Name', kind: 'deny', phase: 'post', rules: [{ argument: 'path', pattern: '(a)\\1', message: '' }], colour: 'red' }, { tool: 'not a tool!', arguments: 'x', group: 'Support' });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(paths(bad)).toEqual(['interceptor.colour', 'interceptor.name', 'interceptor.phase', 'interceptor.rules[0].pattern', 'interceptor.rules[0].message', 'call.tool', 'call.group', 'call.arguments']);
    const noResult = await preview({ name: 'mask', kind: 'redact' }, { tool: 'everything__echo', arguments: { message: 'x' }, result: { content: 'x', isError: 1 } });
    expect(paths(noResult)).toEqual(['call.result.content', 'call.result.isError']);
    const empty = await h.api.post('/api/v1/interceptors/preview', { extra: 1 });
    expect(paths(empty)).toEqual(['extra', 'interceptor', 'call']);
    expect(paths(await h.api.request('POST', '/api/v1/interceptors/preview', undefined, { raw: '[1]', headers: { 'content-type': 'application/json' } }))).toEqual(['body']);
  });

  it('tries a tool the inventory does not know as a stand-in, and says when the scope leaves the call out', async () => {
    const mask = { name: 'mask', kind: 'redact', scope: { source: 'crm' } };
    const unknown = await preview(mask, { tool: 'crm__get_contact', arguments: { id: 7 }, result: { content: [text('ada@example.com')] } });
    expect(unknown.body).toMatchObject({ applies: true, tool: { qualifiedName: 'crm__get_contact', source: 'crm', known: false }, decision: 'modify', changes: { counts: { email: 1 } }, result: { content: [text('[email]')], isError: false } });

    const elsewhere = await preview(mask, { tool: 'everything__echo', arguments: { message: 'x' }, result: { content: [text('ada@example.com')] } });
    expect(elsewhere.body).toMatchObject({ applies: false, why: 'its scope is source "crm"; everything__echo is a tool of "everything"', decision: 'modify' });
    const throughGroup = await preview({ ...mask, scope: { group: 'support' } }, { tool: 'everything__echo', arguments: { message: 'x' }, result: { content: [text('x')] } });
    expect(throughGroup.body).toMatchObject({ applies: false, why: 'its scope is group "support"; the call comes through no group', decision: 'allow' });
    expect((await preview({ ...mask, scope: { group: 'support' } }, { tool: 'everything__echo', group: 'support', arguments: { message: 'x' }, result: { content: [text('x')] } })).body.applies).toBe(true);
  });

  it('stores nothing, calls no upstream, and is for interceptors:manage only', async () => {
    expect((await h.api.get('/api/v1/interceptors')).body.items).toEqual([]);
    expect((await h.api.get('/api/v1/executions')).body.items).toEqual([]);
    expect((await h.api.get('/api/v1/audit-events?targetType=interceptor')).body.items).toEqual([]);
    const agent = (await h.api.post('/api/v1/api-keys', { name: 'agent key', role: 'agent' })).body.key as string;
    const refused = await makeApi(h.url, agent).post('/api/v1/interceptors/preview', { interceptor: { name: 'x', kind: 'redact' }, call: { tool: 'everything__echo', result: { content: [] } } });
    expect(refused.status).toBe(403);
  });

  it('runs the same engines in calls: a redact interceptor in force masks what echo answers', async () => {
    expect((await h.api.post('/api/v1/interceptors', { name: 'mask-echo', kind: 'redact', scope: { tools: ['everything__echo'] } })).status).toBe(201);
    const call = await h.api.post('/api/v1/tools/everything__echo/invoke', { arguments: { message: PII } });
    expect(call.status).toBe(200);
    expect(call.body.result.content).toEqual([text('Echo: Ada Lovelace <[email]> paid with [card].')]);
    expect((await h.api.delete('/api/v1/interceptors/mask-echo')).status).toBe(200);
  });
});
