import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expectNoProcesses } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, FIXTURES } from '../helpers/upstreams.js';

/** Asks for the execution in each result's `_meta` (results carry only what the upstream sent otherwise). */
const WITH_EXECUTION = { 'dev.toolplane/execution': true };

const MODERN_FIXTURE = join(FIXTURES, 'modern-server.mjs');
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const EXECUTION = 'dev.toolplane/execution';
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };

type Mode = 'modern' | 'auto' | 'legacy';

describe('Toolplane as an MCP server (streamable HTTP, both eras)', () => {
  let h: Harness;
  const tag = `mcp-endpoint-${randomUUID()}`;
  const clients: Client[] = [];

  /** An SDK v2 client on `path`, with the admin key; `legacy` is the SDK's default negotiation. */
  const connect = async (path: string, mode: Mode, options: { correlationId?: string; elicitation?: boolean; sampling?: boolean; key?: string } = {}) => {
    const capabilities = { ...(options.elicitation ? { elicitation: { form: {} } } : {}), ...(options.sampling ? { sampling: {} } : {}) };
    const client = new Client(
      { name: `mcp-e2e-${mode}`, version: '1.2.3' },
      {
        ...(mode === 'legacy' ? {} : { versionNegotiation: { mode: mode === 'modern' ? { pin: MODERN } : ('auto' as const) } }),
        ...(Object.keys(capabilities).length > 0 ? { capabilities } : {}),
      },
    );
    if (options.elicitation) {
      client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
    }
    if (options.sampling) {
      client.setRequestHandler('sampling/createMessage', async (request) => {
        const asked = request.params.messages.map((m: any) => m.content?.text ?? '').join(' ');
        return { role: 'assistant', model: 'e2e-model', content: { type: 'text', text: `Paris, asked about: ${asked}` } };
      });
    }
    const headers: Record<string, string> = { authorization: `Bearer ${options.key ?? h.adminKey}` };
    if (options.correlationId) headers['x-correlation-id'] = options.correlationId;
    const transport = new StreamableHTTPClientTransport(new URL(h.url + path), { requestInit: { headers } });
    await client.connect(transport);
    clients.push(client);
    return client;
  };

  /** A raw POST: the body as given (a string is sent verbatim), with the key unless `auth: false`. */
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}, auth = true) => {
    const response = await fetch(h.url + path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(auth ? { authorization: `Bearer ${h.adminKey}` } : {}),
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    // A 2025-era session answers on an SSE stream: its last data line is the answer.
    const data = text.startsWith('event:') || text.startsWith('data:') ? text.split('\n').filter((line) => line.startsWith('data:')).at(-1)?.slice(5).trim() : text;
    let json: any;
    try {
      json = data ? JSON.parse(data) : undefined;
    } catch {
      json = text;
    }
    return { status: response.status, headers: response.headers, body: json };
  };

  const modernHeaders = (method: string, name?: string) => ({ 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) });
  const executionOf = (result: any) => h.sql('SELECT * FROM executions WHERE id = $1', [result._meta[EXECUTION].id]).then((rows) => rows[0]);
  const textOf = (result: any) => (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

  beforeAll(async () => {
    h = await startHarness();
    const sources = [
      { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio', tag] },
      { name: 'mod', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [MODERN_FIXTURE, 'stdio', tag], env: { EXTRA_TOOLS: '1' } },
    ];
    for (const source of sources) {
      const created = await h.api.post('/api/v1/sources', { refreshIntervalSeconds: 0, ...source });
      expect(created.body).toMatchObject({ name: source.name, health: 'healthy' });
    }
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await h?.close();
    await expectNoProcesses([tag]);
  });

  describe.each<Mode>(['modern', 'auto', 'legacy'])('/mcp with a %s client', (mode) => {
    let client: Client;
    const correlationId = `mcp-e2e-${mode}-${randomUUID()}`;

    beforeAll(async () => {
      client = await connect('/mcp', mode, { correlationId, elicitation: true });
    });

    it('negotiates its era', () => {
      expect(client.getProtocolEra()).toBe(mode === 'legacy' ? 'legacy' : 'modern');
      expect(client.getServerVersion()).toMatchObject({ name: 'toolplane' });
    });

    it('lists the usable tools of every source under qualified names, with their definitions', async () => {
      const { tools } = await client.listTools({}, { cacheMode: 'bypass' });
      const names = tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['ev__echo', 'ev__get-structured-content', 'mod__echo', 'mod__add']));
      expect(names).toEqual([...names].sort());
      const echo = tools.find((t) => t.name === 'ev__echo')!;
      expect(echo).toMatchObject({ title: expect.any(String), description: expect.any(String), inputSchema: { type: 'object', properties: { message: expect.any(Object) } }, annotations: { readOnlyHint: true } });
      expect(tools.find((t) => t.name === 'ev__get-structured-content')!.outputSchema).toMatchObject({ type: 'object' });
    });

    it('calls echo through ExecuteTool and records it with channel mcp and the caller', async () => {
      const result: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'ev__echo', arguments: { message: `hello ${mode}` } });
      expect(result.isError ?? false).toBe(false);
      expect(result.content).toEqual([{ type: 'text', text: `Echo: hello ${mode}` }]);
      expect(result._meta[EXECUTION]).toMatchObject({ status: 'succeeded' });
      const row = await executionOf(result);
      expect(row).toMatchObject({ channel: 'mcp', status: 'succeeded', qualified_name: 'ev__echo', caller_principal: 'admin', arguments: { message: `hello ${mode}` } });
      expect(row.caller).toMatchObject({ principalId: 'admin', principalName: 'admin', correlationId });
      if (mode === 'legacy') {
        expect(row.caller.protocolVersion).toBe(LEGACY);
      } else {
        expect(row.caller).toMatchObject({ clientName: `mcp-e2e-${mode}`, clientVersion: '1.2.3', protocolVersion: MODERN });
      }
    });

    it('returns structured content and images as the tool answered them', async () => {
      const structured: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'ev__get-structured-content', arguments: { location: 'Chicago' } });
      expect(structured.structuredContent).toEqual({ temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) });
      const sum: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'mod__add', arguments: { a: 2, b: 40 } });
      expect(sum.structuredContent).toEqual({ sum: 42 });
      const image: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'ev__get-tiny-image', arguments: {} });
      expect(image.content).toContainEqual(expect.objectContaining({ type: 'image', mimeType: 'image/png', data: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) }));
    });

    it('answers an unknown tool with a -32602 invalid-params error, and records the attempt', async () => {
      const name = `nope-${mode}`;
      await expect(client.callTool({ _meta: WITH_EXECUTION, name, arguments: {} })).rejects.toMatchObject({ code: -32602 });
      const rows = await h.sql("SELECT status, channel, error->>'code' AS code FROM executions WHERE qualified_name = $1", [name]);
      expect(rows).toEqual([{ status: 'rejected', channel: 'mcp', code: 'TOOL_NOT_FOUND' }]);
    });

    it('answers arguments that break the input schema with an isError result listing the problem', async () => {
      const result: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'ev__echo', arguments: { message: 42 } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/INVALID_ARGUMENTS[\s\S]*message/);
      expect((await executionOf(result)).status).toBe('invalid_arguments');
    });

    it("relays the upstream's progress to the caller's progress token", async () => {
      const progress: { progress: number; total?: number }[] = [];
      const result: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'ev__trigger-long-running-operation', arguments: { duration: 1, steps: 3 } }, { onprogress: (p) => progress.push(p) });
      expect(textOf(result)).toContain('Long running operation completed');
      expect(progress.length).toBeGreaterThanOrEqual(1);
      expect(progress[0]).toMatchObject({ progress: 1, total: 3 });
      expect(progress.map((p) => p.progress)).toEqual([...progress.map((p) => p.progress)].sort((a, b) => a - b));
    });

    it("relays the upstream's log messages for the call at the level the caller asked for", async () => {
      const logs: unknown[] = [];
      client.setNotificationHandler('notifications/message', (notification) => void logs.push(notification.params));
      // A 2026-07-28 client names its level per request; a 2025-era one sets it for its session.
      if (mode === 'legacy') await client.setLoggingLevel('info');
      const meta = mode === 'legacy' ? {} : { _meta: { ...WITH_EXECUTION, 'io.modelcontextprotocol/logLevel': 'info' } };
      const result: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'mod__chatty', arguments: { text: `hi ${mode}` }, ...meta });
      expect(textOf(result)).toBe(`logged hi ${mode}`);
      expect(logs).toEqual([
        { level: 'info', logger: 'chatty', data: `info: hi ${mode}` },
        { level: 'warning', logger: 'chatty', data: `warning: hi ${mode}` },
      ]);
      if (mode !== 'legacy') {
        // No level named: a 2026-07-28 caller hears none.
        logs.length = 0;
        await client.callTool({ _meta: WITH_EXECUTION, name: 'mod__chatty', arguments: { text: 'quiet' } });
        expect(logs).toEqual([]);
      }
    });

    it('cancels the upstream call when the caller gives up mid-stream, and records it as cancelled', async () => {
      // Given up after the first progress notification: the answer is an SSE stream by then, in both eras.
      const abort = new AbortController();
      const fallback = setTimeout(() => abort.abort(), 3000);
      const started = Date.now();
      const call = client.callTool({ _meta: WITH_EXECUTION, name: 'ev__trigger-long-running-operation', arguments: { duration: 20, steps: 40 } }, { signal: abort.signal, onprogress: () => abort.abort() });
      await expect(call).rejects.toThrow();
      clearTimeout(fallback);
      let rows: any[] = [];
      for (let i = 0; i < 50 && rows.length === 0; i++) {
        rows = await h.sql("SELECT status, duration_ms FROM executions WHERE qualified_name = 'ev__trigger-long-running-operation' AND caller->>'correlationId' = $1 AND status <> 'succeeded'", [correlationId]);
        if (rows.length === 0) await new Promise((r) => setTimeout(r, 100));
      }
      expect(rows).toEqual([{ status: 'cancelled', duration_ms: expect.any(Number) }]);
      expect(rows[0].duration_ms).toBeLessThan(5000);
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it(
      mode === 'legacy'
        ? "puts an upstream's input request to a 2025-era client as a real elicitation on its session, then continues the call"
        : "passes an upstream's input_required (inputRequests, requestState) through and accepts the continuation",
      async () => {
        const result: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'mod__confirm', arguments: { action: 'deploy' } });
        // The client answered the elicitation (as a 2026 multi round-trip, or as a 2025 server-to-client
        // request on its session) and the call went on with the byte-exact requestState (the fixture checks it).
        expect(result.isError ?? false).toBe(false);
        expect(textOf(result)).toBe('deploy: done');
        const rows = await h.sql("SELECT status FROM executions WHERE qualified_name = 'mod__confirm' AND caller->>'correlationId' = $1 ORDER BY started_at", [correlationId]);
        expect(rows.map((r) => r.status)).toEqual(['input_required', 'succeeded']);
      },
    );
  });

  it('hides a disabled tool from every listing and refuses calling it with the reason', async () => {
    const modern = await connect('/mcp', 'modern');
    const legacy = await connect('/mcp', 'legacy');
    expect((await h.api.patch('/api/v1/tools/ev__get-sum', { enabled: false })).status).toBe(200);
    try {
      for (const client of [modern, legacy]) {
        const names = (await client.listTools({}, { cacheMode: 'bypass' })).tools.map((t) => t.name);
        expect(names).toContain('ev__echo');
        expect(names).not.toContain('ev__get-sum');
        const refused: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'ev__get-sum', arguments: { a: 1, b: 2 } });
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toContain('TOOL_DISABLED');
        expect(await executionOf(refused)).toMatchObject({ status: 'rejected', channel: 'mcp' });
      }
    } finally {
      await h.api.patch('/api/v1/tools/ev__get-sum', { enabled: true });
    }
    expect((await modern.listTools({}, { cacheMode: 'bypass' })).tools.map((t) => t.name)).toContain('ev__get-sum');
  });

  it('marks 2026-07-28 tools/list results cacheable per caller (ttlMs, cacheScope private) and answers server/discover', async () => {
    const list = await post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } }, modernHeaders('tools/list'));
    expect(list.status).toBe(200);
    expect(list.body.result).toMatchObject({ cacheScope: 'private', ttlMs: expect.any(Number) });
    expect(list.body.result.ttlMs).toBeGreaterThan(0);
    const discover = await post('/mcp', { jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: ENVELOPE } }, modernHeaders('server/discover'));
    expect(discover.status).toBe(200);
    expect(discover.body.result).toMatchObject({ supportedVersions: expect.arrayContaining([MODERN]), capabilities: { tools: { listChanged: true } }, cacheScope: 'private' });
    // 2025-era answers carry no cache fields.
    const legacy = await post('/mcp', { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'mcp-protocol-version': LEGACY });
    expect(legacy.body.result.tools.length).toBeGreaterThan(0);
    expect(legacy.body.result.ttlMs).toBeUndefined();
  });

  it("tells a sessionless 2025-era caller that the upstream needs a capability it did not declare (-32021)", async () => {
    const answer = await post('/mcp', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'mod__confirm', arguments: { action: 'deploy' } } }, { 'mcp-protocol-version': LEGACY });
    expect(answer.body).toMatchObject({ id: 7, error: { code: -32021, data: { requiredCapabilities: { elicitation: expect.any(Object) } } } });
  });

  describe("a 2025-era upstream's requests for input (server-everything's sampling and elicitation)", () => {
    it('reach a 2025-era session client that declared the capability, and its answers go back upstream', async () => {
      const client = await connect('/mcp/sources/ev', 'legacy', { elicitation: true, sampling: true });
      const sampled: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'trigger-sampling-request', arguments: { prompt: 'the capital of France', maxTokens: 5 } });
      expect(sampled.isError ?? false).toBe(false);
      expect(textOf(sampled)).toContain('Paris, asked about: Resource trigger-sampling-request context: the capital of France');
      const elicited: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'trigger-elicitation-request', arguments: {} });
      expect(textOf(elicited)).toContain('User provided the requested information');
      expect(textOf(elicited)).toContain('"confirm": true');
    });

    it('are refused with -32021 for a caller that cannot be asked: the upstream reports it as the tool result', async () => {
      const modern = await connect('/mcp/sources/ev', 'modern');
      const viaMcp: any = await modern.callTool({ _meta: WITH_EXECUTION, name: 'trigger-sampling-request', arguments: { prompt: 'x', maxTokens: 5 } });
      expect(viaMcp.isError).toBe(true);
      expect(textOf(viaMcp)).toContain('Cannot relay sampling/createMessage through Toolplane: the caller of this tool cannot be asked');
      // A 2025-era session client that did not declare sampling.
      const elicitOnly = await connect('/mcp', 'legacy', { elicitation: true });
      const undeclared: any = await elicitOnly.callTool({ _meta: WITH_EXECUTION, name: 'ev__trigger-sampling-request', arguments: { prompt: 'x', maxTokens: 5 } });
      expect(textOf(undeclared)).toContain('the caller did not declare the sampling capability');
      const viaRest = await h.api.post('/api/v1/tools/ev__trigger-elicitation-request/invoke', { arguments: {} });
      expect(viaRest.body).toMatchObject({ status: 'tool_error', result: { content: [{ type: 'text', text: expect.stringContaining('Cannot relay elicitation/create') }] } });
    });
  });

  it('holds 2025-era session state only for a client that can answer server-to-client requests; DELETE ends it', async () => {
    const initialize = (capabilities: Record<string, unknown>) =>
      post('/mcp', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY, capabilities, clientInfo: { name: 'raw', version: '1' } } });
    // Every client gets a sealed id any process can read (sealed-sessions suite); this process holds state for the second only.
    expect((await initialize({})).headers.get('mcp-session-id')).toMatch(/^tps1\./);
    const opened = await initialize({ elicitation: {} });
    const sessionId = opened.headers.get('mcp-session-id');
    expect(sessionId).toMatch(/^tps1\./);
    const headers = { 'mcp-protocol-version': LEGACY, 'mcp-session-id': sessionId! };
    expect((await post('/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202);
    expect((await post('/mcp', { jsonrpc: '2.0', id: 2, method: 'ping' }, headers)).body).toMatchObject({ id: 2, result: {} });
    // The session belongs to its endpoint: elsewhere it is just an unknown id, served statelessly.
    expect((await post('/mcp/gateway', { jsonrpc: '2.0', id: 3, method: 'tools/list' }, headers)).body.result.tools).toHaveLength(2);
    const ended = await fetch(`${h.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${h.adminKey}`, ...headers } });
    expect(ended.status).toBe(200);
    const after = await post('/mcp', { jsonrpc: '2.0', id: 4, method: 'ping' }, headers);
    expect(after.status).toBe(404);
    expect(after.body).toMatchObject({ id: 4, error: { code: -32001 } });
  });

  it('sends notifications/tools/list_changed on a 2025-era standalone GET stream within a second', async () => {
    const abort = new AbortController();
    const response = await fetch(`${h.url}/mcp`, { headers: { authorization: `Bearer ${h.adminKey}`, accept: 'text/event-stream', 'mcp-protocol-version': LEGACY }, signal: abort.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    let seen = '';
    const heard = (async () => {
      while (!seen.includes('notifications/tools/list_changed')) {
        const { value, done } = await reader.read();
        if (done) return false;
        seen += new TextDecoder().decode(value);
      }
      return true;
    })();
    await new Promise((r) => setTimeout(r, 200));
    const changedAt = Date.now();
    await h.api.patch('/api/v1/tools/ev__get-env', { enabled: false });
    try {
      const outcome = await Promise.race([heard, new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
      expect(outcome).toBe(true);
      expect(Date.now() - changedAt).toBeLessThan(1000);
    } finally {
      abort.abort();
      await h.api.patch('/api/v1/tools/ev__get-env', { enabled: true });
    }
  });

  it("answers a 2025-era standalone GET stream's headers at once, with or without a session held here", async () => {
    const init = await post('/mcp', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } } });
    const sessionId = init.headers.get('mcp-session-id')!;
    const base = { authorization: `Bearer ${h.adminKey}`, accept: 'text/event-stream', 'mcp-protocol-version': LEGACY };
    // Nothing is sent on these streams until the catalog changes: a client waits for the headers before it counts the stream open.
    for (const headers of [base, { ...base, 'mcp-session-id': sessionId }]) {
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(new Error('no response headers within 1 s')), 1000);
      const started = performance.now();
      try {
        const response = await fetch(`${h.url}/mcp`, { headers, signal: abort.signal });
        expect(performance.now() - started).toBeLessThan(1000);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toContain('text/event-stream');
      } finally {
        clearTimeout(timer);
        abort.abort();
      }
    }
    await fetch(`${h.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${h.adminKey}`, 'mcp-protocol-version': LEGACY, 'mcp-session-id': sessionId } });
  });

  it('serves the 2025-era housekeeping statelessly: initialize, ping, logging/setLevel; DELETE without a session is 404', async () => {
    const init = await post('/mcp', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toContain('application/json');
    expect(init.headers.get('mcp-session-id')).toMatch(/^tps1\./);
    expect(init.body.result).toMatchObject({ protocolVersion: LEGACY, serverInfo: { name: 'toolplane' }, capabilities: { tools: {} } });
    expect((await post('/mcp', { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-protocol-version': LEGACY })).body).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect((await post('/mcp', { jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'warning' } }, { 'mcp-protocol-version': LEGACY })).body).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    const response = await fetch(`${h.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${h.adminKey}`, 'mcp-session-id': randomUUID() } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
  });

  it('aborts the call a 2025-era notifications/cancelled names', async () => {
    const id = `cancel-me-${randomUUID()}`;
    const call = post('/mcp', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ev__trigger-long-running-operation', arguments: { duration: 20, steps: 20 } } }, { 'mcp-protocol-version': LEGACY });
    await new Promise((r) => setTimeout(r, 500));
    const cancel = await post('/mcp', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'changed my mind' } }, { 'mcp-protocol-version': LEGACY });
    expect(cancel.status).toBe(202);
    const answer = await call;
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id, result: { isError: true } });
    expect(answer.body.result.content[0].text).toContain('CANCELLED');
    // Without asking for it in `_meta`, the result carries nothing of Toolplane's: the header names the execution.
    expect(answer.body.result._meta).toBeUndefined();
    const execution = answer.headers.get('toolplane-execution-id')!;
    // Chosen when the request came in: a UUIDv7, like the ids of REST calls.
    expect(execution).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await h.sql('SELECT status, channel FROM executions WHERE id = $1', [execution]))[0]).toMatchObject({ status: 'cancelled', channel: 'mcp' });
  });

  it('tells 2026-07-28 subscribers when the tools they list change (subscriptions/listen)', async () => {
    let changes = 0;
    const client = new Client(
      { name: 'mcp-e2e-listener', version: '1' },
      { versionNegotiation: { mode: { pin: MODERN } }, listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => void changes++ } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.adminKey}` } } }));
    clients.push(client);
    await new Promise((r) => setTimeout(r, 300)); // the subscription opens in the background
    await h.api.patch('/api/v1/tools/ev__get-env', { enabled: false });
    try {
      for (let i = 0; i < 50 && changes === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(changes).toBeGreaterThanOrEqual(1);
    } finally {
      await h.api.patch('/api/v1/tools/ev__get-env', { enabled: true });
    }
  });

  describe('/mcp/sources/{name}', () => {
    it.each<Mode>(['modern', 'legacy'])('offers one source under its original names and calls through the qualified name (%s)', async (mode) => {
      const client = await connect('/mcp/sources/ev', mode);
      const names = (await client.listTools({}, { cacheMode: 'bypass' })).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image']));
      expect(names.some((n) => n.includes('__'))).toBe(false);
      expect(names).not.toContain('add'); // mod's tools stay on their own endpoint
      const result: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'echo', arguments: { message: 'by original name' } });
      expect(result.content).toEqual([{ type: 'text', text: 'Echo: by original name' }]);
      expect(await executionOf(result)).toMatchObject({ qualified_name: 'ev__echo', channel: 'mcp', status: 'succeeded' });
      await expect(client.callTool({ _meta: WITH_EXECUTION, name: 'ev__echo', arguments: { message: 'x' } })).rejects.toMatchObject({ code: -32602 });
    });

    it('answers 404 for a source that does not exist', async () => {
      const response = await post('/mcp/sources/no-such-source', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': LEGACY });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number), message: expect.stringContaining('no-such-source') } });
    });
  });

  describe('/mcp/gateway', () => {
    it.each<Mode>(['modern', 'legacy'])('offers search_tools and call_tool: search, then call (%s)', async (mode) => {
      const client = await connect('/mcp/gateway', mode);
      const { tools } = await client.listTools({}, { cacheMode: 'bypass' });
      expect(tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool']);

      const found: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'search_tools', arguments: { query: 'echo a message', limit: 3 } });
      expect(found.structuredContent.tools.length).toBeGreaterThan(0);
      expect(found.structuredContent.tools.length).toBeLessThanOrEqual(3);
      const best = found.structuredContent.tools[0];
      expect(best).toMatchObject({ name: expect.stringMatching(/^(ev|mod)__echo$/), description: expect.any(String), inputSchema: { type: 'object' } });

      const called: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'call_tool', arguments: { name: best.name, arguments: { message: 'through the gateway' } } });
      expect(textOf(called)).toContain('through the gateway');
      expect(await executionOf(called)).toMatchObject({ qualified_name: best.name, channel: 'mcp', status: 'succeeded' });

      const unknown: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'call_tool', arguments: { name: 'nothing__here', arguments: {} } });
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toContain('search_tools');
      const invalid: any = await client.callTool({ _meta: WITH_EXECUTION, name: 'search_tools', arguments: { query: 5 } });
      expect(invalid.isError).toBe(true);
      await expect(client.callTool({ _meta: WITH_EXECUTION, name: 'ev__echo', arguments: { message: 'x' } })).rejects.toMatchObject({ code: -32602 });
    });
  });

  describe('authentication', () => {
    it.each(['/mcp', '/mcp/sources/ev', '/mcp/gateway'])('refuses %s without a valid key with a 401 JSON-RPC error', async (path) => {
      for (const headers of [{}, { authorization: 'Bearer wrong-key-0123456789' }] as Record<string, string>[]) {
        const response = await post(path, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'x', version: '1' } } }, headers, false);
        expect(response.status).toBe(401);
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect(response.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number), message: expect.stringMatching(/Unauthorized/) } });
      }
    });

    it('the SDK client cannot connect without the key, in either era', async () => {
      for (const mode of ['modern', 'legacy'] as const) {
        await expect(connect('/mcp', mode, { key: 'wrong-key-0123456789' })).rejects.toThrow();
      }
    });
  });

  describe('malformed requests get a JSON-RPC or HTTP error, never a crash', () => {
    const ping = { jsonrpc: '2.0', id: 7, method: 'ping' };
    const cases: { name: string; body: unknown; headers?: Record<string, string>; status: number; code?: number; id?: unknown }[] = [
      { name: 'a body that is not JSON', body: '{"jsonrpc": "2.0", "id": 1, "method": ', status: 400, code: -32700 },
      { name: 'an empty body', body: '', status: 400, code: -32700 },
      { name: 'JSON that is no JSON-RPC message', body: { hello: 'world' }, headers: { 'mcp-protocol-version': LEGACY }, status: 400, code: -32600 },
      { name: 'a JSON scalar', body: 42, status: 400, code: -32600 },
      { name: 'a batch (2025-11-25)', body: [ping, { ...ping, id: 8 }], headers: { 'mcp-protocol-version': LEGACY }, status: 400, code: -32600 },
      { name: 'a batch (2026-07-28)', body: [{ ...ping, method: 'tools/list', params: { _meta: ENVELOPE } }], headers: modernHeaders('tools/list'), status: 400, code: -32600 },
      { name: 'an unknown method (2025-11-25)', body: { jsonrpc: '2.0', id: 9, method: 'tools/frobnicate' }, headers: { 'mcp-protocol-version': LEGACY }, status: 200, code: -32601, id: 9 },
      { name: 'an unknown method (2026-07-28)', body: { jsonrpc: '2.0', id: 10, method: 'tools/frobnicate', params: { _meta: ENVELOPE } }, headers: modernHeaders('tools/frobnicate'), status: 404, code: -32601, id: 10 },
      { name: 'a request with a null id', body: { jsonrpc: '2.0', id: null, method: 'ping' }, headers: { 'mcp-protocol-version': LEGACY }, status: 400, code: -32600 },
      { name: 'a request missing its id is a notification: accepted, not answered', body: { jsonrpc: '2.0', method: 'tools/list' }, headers: { 'mcp-protocol-version': LEGACY }, status: 202 },
      { name: 'tools/call with a numeric name (2025-11-25)', body: { jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 42 } }, headers: { 'mcp-protocol-version': LEGACY }, status: 200, code: -32602, id: 11 },
      { name: 'tools/call with array arguments (2026-07-28)', body: { jsonrpc: '2.0', id: 12, method: 'tools/call', params: { name: 'ev__echo', arguments: [1], _meta: ENVELOPE } }, headers: modernHeaders('tools/call', 'ev__echo'), status: 200, code: -32602, id: 12 },
      { name: 'tools/list with a forged cursor', body: { jsonrpc: '2.0', id: 13, method: 'tools/list', params: { cursor: 'bm90LW91cnM' } }, headers: { 'mcp-protocol-version': LEGACY }, status: 200, code: -32602, id: 13 },
      { name: 'an Accept header without JSON or SSE (2025-11-25)', body: ping, headers: { accept: 'text/html', 'mcp-protocol-version': LEGACY }, status: 406 },
      { name: 'an Accept header without JSON or SSE (2026-07-28)', body: { ...ping, method: 'tools/list', params: { _meta: ENVELOPE } }, headers: { accept: 'text/html', ...modernHeaders('tools/list') }, status: 406 },
      { name: 'a text/plain body', body: JSON.stringify(ping), headers: { 'content-type': 'text/plain' }, status: 415 },
      { name: 'an unsupported 2025-era protocol version header', body: ping, headers: { 'mcp-protocol-version': '1999-01-01' }, status: 400 },
      { name: 'an unsupported revision in the envelope', body: { ...ping, method: 'tools/list', params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } }, headers: { ...modernHeaders('tools/list'), 'mcp-protocol-version': '2099-01-01' }, status: 400, code: -32022 },
      { name: 'a 2026-07-28 header without the envelope', body: { jsonrpc: '2.0', id: 14, method: 'tools/list' }, headers: modernHeaders('tools/list'), status: 400, code: -32602 },
      { name: 'an Mcp-Method header disagreeing with the body', body: { jsonrpc: '2.0', id: 15, method: 'tools/list', params: { _meta: ENVELOPE } }, headers: modernHeaders('tools/call'), status: 400, code: -32020 },
      { name: 'an Mcp-Name header disagreeing with the body', body: { jsonrpc: '2.0', id: 16, method: 'tools/call', params: { name: 'ev__echo', arguments: { message: 'x' }, _meta: ENVELOPE } }, headers: modernHeaders('tools/call', 'ev__other'), status: 400, code: -32020 },
      { name: 'a body over the size limit', body: JSON.stringify({ jsonrpc: '2.0', id: 17, method: 'ping', params: { pad: 'x'.repeat(1_100_000) } }), status: 413 },
    ];

    it.each(cases)('$name', async ({ body, headers, status, code, id }) => {
      const response = await post('/mcp', body, headers);
      expect(response.status).toBe(status);
      if (status === 202) {
        expect(response.body).toBeUndefined();
        return;
      }
      expect(response.body).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number), message: expect.any(String) } });
      if (code !== undefined) expect(response.body.error.code).toBe(code);
      if (id !== undefined) expect(response.body.id).toBe(id);
    });

    it('is still up and serving calls afterwards, having logged no error', async () => {
      expect((await h.api.get('/health/live')).status).toBe(200);
      const call = await post('/mcp', { jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name: 'ev__echo', arguments: { message: 'still here' } } }, { 'mcp-protocol-version': LEGACY });
      expect(call.body.result.content).toEqual([{ type: 'text', text: 'Echo: still here' }]);
      const errors = h.process
        .logs()
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line) || /unhandled/i.test(line));
      expect(errors).toEqual([]);
    });
  });
});
