import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, FIXTURES, startEverythingHttp, startHttpUpstream, type RunningUpstream } from '../helpers/upstreams.js';

/** A span as the OTLP/HTTP JSON exporter sends it, attributes flattened. */
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
  status?: { code?: number; message?: string };
}

const INTERNAL = 1;
const SERVER = 2;
const CLIENT = 3;

/** An OTLP/HTTP receiver on loopback that keeps every span posted to /v1/traces. */
async function startReceiver(): Promise<{ url: string; spans: ExportedSpan[]; close(): Promise<void> }> {
  const spans: ExportedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const resource of body.resourceSpans ?? []) {
          for (const scope of resource.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              spans.push({
                traceId: span.traceId,
                spanId: span.spanId,
                ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
                name: span.name,
                kind: span.kind,
                attributes: flatten(span.attributes),
                links: (span.links ?? []).map((link: { traceId: string; spanId: string }) => ({ traceId: link.traceId, spanId: link.spanId })),
                status: span.status,
                ...{ resource: flatten(resource.resource?.attributes) },
              });
            }
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, spans, close: () => new Promise((done) => server.close(() => done())) };
}

function flatten(attributes: { key: string; value: Record<string, unknown> }[] | undefined): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const { key, value } of attributes ?? []) {
    if ('stringValue' in value) flat[key] = value.stringValue;
    else if ('intValue' in value) flat[key] = Number(value.intValue);
    else if ('boolValue' in value) flat[key] = value.boolValue;
    else if ('doubleValue' in value) flat[key] = value.doubleValue;
  }
  return flat;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** A stateless 2025-era tools/call on /mcp, as an SDK client sends it. */
async function mcpCall(h: Harness, name: string, options: { headers?: Record<string, string>; meta?: Record<string, unknown>; id?: number } = {}) {
  const response = await fetch(`${h.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${h.adminKey}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...options.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: options.id ?? 1, method: 'tools/call', params: { name, arguments: { message: 'hello traces' }, ...(options.meta ? { _meta: options.meta } : {}) } }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}

/** A loopback proxy in front of an HTTP upstream that remembers each POSTed JSON-RPC message with its headers. */
async function startRecordingProxy(upstreamPort: number): Promise<{ url: string; posts: { headers: Record<string, unknown>; body: any }[]; close(): Promise<void> }> {
  const { request } = await import('node:http');
  const posts: { headers: Record<string, unknown>; body: any }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST') {
        try {
          posts.push({ headers: req.headers, body: JSON.parse(body.toString('utf8')) });
        } catch {
          // not JSON
        }
      }
      const forward = request({ host: '127.0.0.1', port: upstreamPort, path: req.url, method: req.method, headers: req.headers }, (upstream) => {
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(res);
      });
      forward.on('error', () => res.writeHead(502).end());
      forward.end(body);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    posts,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

async function waitFor<T>(find: () => T | undefined, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

interface ReceivedCall {
  headers: Record<string, string>;
  meta: Record<string, unknown> | null;
  name: string;
}

async function received(upstream: RunningUpstream): Promise<ReceivedCall[]> {
  return (await (await fetch(`http://127.0.0.1:${upstream.port}/received`)).json()) as ReceivedCall[];
}

describe('traces (OpenTelemetry, MCP semantic conventions)', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let upstream: RunningUpstream;
  let h: Harness;
  const inventoryDir = mkdtempSync(join(tmpdir(), 'traces-inventory-'));

  beforeAll(async () => {
    const inventory = join(inventoryDir, 'tools.json');
    writeFileSync(inventory, JSON.stringify([{ name: 'echo', inputSchema: { type: 'object', properties: { message: { type: 'string' } } }, annotations: { readOnlyHint: true } }]));
    // Readable by the unprivileged user a sandboxed plugin runs as.
    chmodSync(inventoryDir, 0o755);
    chmodSync(inventory, 0o644);
    receiver = await startReceiver();
    upstream = await startHttpUpstream((port) => [resolve(FIXTURES, 'trace-recording-server.mjs'), '--port', String(port)], '/mcp');
    h = await startHarness({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
    });
    expect((await h.api.post('/api/v1/sources', { name: 'rec', transport: 'streamable-http', url: upstream.url })).status).toBe(201);
    expect((await h.api.post('/api/v1/sources', { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'] })).status).toBe(201);
    for (const [name, legacy] of [['meta', '1'], ['meta-modern', '0']] as const) {
      const env = { INVENTORY_FILE: inventory, ECHO_META: '1', LEGACY_ONLY: legacy };
      const sandbox = { readOnlyPaths: [inventoryDir] };
      expect((await h.api.post('/api/v1/sources', { name, transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [join(FIXTURES, 'fidelity-server.mjs')], env, sandbox })).status).toBe(201);
    }
  }, 90_000);

  afterAll(async () => {
    await h?.close();
    await upstream?.stop();
    await receiver?.close();
    rmSync(inventoryDir, { recursive: true, force: true });
  });

  const spansOf = (traceId: string) => receiver.spans.filter((span) => span.traceId === traceId);

  it('makes a SERVER span for an MCP tools/call under the incoming traceparent header, and a CLIENT span under it that the upstream hears of', async () => {
    const traceId = hex(16);
    const parentId = hex(8);
    await fetch(`http://127.0.0.1:${upstream.port}/received`, { method: 'DELETE' });
    const answer = await mcpCall(h, 'rec__echo', { headers: { traceparent: `00-${traceId}-${parentId}-01`, tracestate: 'vendor=opaque', baggage: 'tenant=acme' }, id: 42 });
    expect(answer.status).toBe(200);
    expect(answer.body.result.content).toEqual([{ type: 'text', text: 'hello traces' }]);
    // Toolplane's own fields never reach the caller's result.
    expect(JSON.stringify(answer.body.result)).not.toContain('traceparent');

    const server = await waitFor(() => spansOf(traceId).find((span) => span.kind === SERVER), 'the server span');
    expect(server.name).toBe('tools/call rec__echo');
    expect(server.parentSpanId).toBe(parentId);
    expect(server.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'rec__echo',
      'gen_ai.operation.name': 'execute_tool',
      'jsonrpc.request.id': '42',
      'jsonrpc.protocol.version': '2.0',
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
      'client.address': '127.0.0.1',
      'client.port': expect.any(Number),
    });
    expect(server.attributes['error.type']).toBeUndefined();
    expect(server.attributes['mcp.session.id']).toBeUndefined();

    const client = await waitFor(() => spansOf(traceId).find((span) => span.kind === CLIENT), 'the client span');
    expect(client.name).toBe('tools/call echo');
    expect(client.parentSpanId).toBe(server.spanId);
    expect(client.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
      'network.transport': 'tcp',
      'server.address': '127.0.0.1',
      'server.port': upstream.port,
      'mcp.protocol.version': expect.any(String),
      'jsonrpc.request.id': expect.any(String),
    });
    // Arguments and results are opt-in (TOOLPLANE_TRACE_PAYLOADS).
    expect(client.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
    expect(client.attributes['gen_ai.tool.call.result']).toBeUndefined();
    expect((server as unknown as { resource: Record<string, unknown> }).resource['service.name']).toBe('toolplane');

    const [call] = await received(upstream);
    const expected = `00-${traceId}-${client.spanId}-01`;
    expect(call!.headers).toMatchObject({ traceparent: expected, tracestate: 'vendor=opaque', baggage: 'tenant=acme' });
    expect(call!.meta).toMatchObject({ traceparent: expected, tracestate: 'vendor=opaque', baggage: 'tenant=acme' });
    // Only the trace context keys are added to what the upstream sees in _meta.
    expect(Object.keys(call!.meta ?? {}).filter((key) => !key.startsWith('io.modelcontextprotocol/') && key !== 'progressToken').sort()).toEqual(['baggage', 'traceparent', 'tracestate']);

    // The execution record names the trace; so does the call's log line.
    const execution = await h.api.get(`/api/v1/executions/${answer.headers.get('toolplane-execution-id') ?? ''}`);
    expect(execution.status).toBe(200);
    expect(execution.body.traceId).toBe(traceId);
    const line = h.process
      .logs()
      .split('\n')
      .filter((text) => text.startsWith('{'))
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((entry) => entry.context === 'calls' && entry.executionId === execution.body.id);
    expect(line).toMatchObject({ traceId, spanId: server.spanId });
  });

  it('takes the parent from params._meta when there is no header, and links the header context when both differ', async () => {
    const traceId = hex(16);
    const parentId = hex(8);
    await mcpCall(h, 'rec__echo', { meta: { traceparent: `00-${traceId}-${parentId}-01` } });
    const server = await waitFor(() => spansOf(traceId).find((span) => span.kind === SERVER), 'the server span');
    expect(server.parentSpanId).toBe(parentId);

    const metaTrace = hex(16);
    const headerTrace = hex(16);
    const headerSpan = hex(8);
    await mcpCall(h, 'rec__echo', { meta: { traceparent: `00-${metaTrace}-${hex(8)}-01` }, headers: { traceparent: `00-${headerTrace}-${headerSpan}-01` } });
    const linked = await waitFor(() => spansOf(metaTrace).find((span) => span.kind === SERVER), 'the server span');
    expect(linked.links).toEqual([{ traceId: headerTrace, spanId: headerSpan }]);
  });

  it('passes an unsampled parent on upstream as unsampled, and exports nothing for it', async () => {
    const traceId = hex(16);
    await fetch(`http://127.0.0.1:${upstream.port}/received`, { method: 'DELETE' });
    const answer = await mcpCall(h, 'rec__echo', { headers: { traceparent: `00-${traceId}-${hex(8)}-00` } });
    expect(answer.body.result.content).toEqual([{ type: 'text', text: 'hello traces' }]);
    const [call] = await received(upstream);
    expect(call!.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
    expect(call!.meta).toMatchObject({ traceparent: call!.headers.traceparent });
    await new Promise((done) => setTimeout(done, 500));
    expect(spansOf(traceId)).toEqual([]);
  });

  it('sets error.type=tool_error on both spans when the result has isError', async () => {
    const traceId = hex(16);
    const answer = await mcpCall(h, 'rec__fail', { headers: { traceparent: `00-${traceId}-${hex(8)}-01` } });
    expect(answer.body.result.isError).toBe(true);
    const server = await waitFor(() => spansOf(traceId).find((span) => span.kind === SERVER), 'the server span');
    const client = await waitFor(() => spansOf(traceId).find((span) => span.kind === CLIENT), 'the client span');
    expect(server.attributes['error.type']).toBe('tool_error');
    expect(client.attributes['error.type']).toBe('tool_error');
    expect(server.status?.code).toBe(2);
  });

  it('names a JSON-RPC error code in error.type and rpc.response.status_code', async () => {
    const traceId = hex(16);
    const answer = await mcpCall(h, 'no__such_tool', { headers: { traceparent: `00-${traceId}-${hex(8)}-01` } });
    expect(answer.body.error.code).toBe(-32602);
    const server = await waitFor(() => spansOf(traceId).find((span) => span.kind === SERVER), 'the server span');
    expect(server.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
    expect(server.status).toMatchObject({ code: 2, message: expect.stringContaining('Unknown tool') });
    // Nothing was sent upstream.
    expect(spansOf(traceId).filter((span) => span.kind === CLIENT)).toEqual([]);
  });

  it('sends stdio upstreams the trace context in _meta, on a client span with network.transport=pipe', async () => {
    const traceId = hex(16);
    const answer = await mcpCall(h, 'ev__echo', { headers: { traceparent: `00-${traceId}-${hex(8)}-01` } });
    expect(answer.body.result.content[0].text).toContain('hello traces');
    const client = await waitFor(() => spansOf(traceId).find((span) => span.kind === CLIENT), 'the client span');
    expect(client.attributes).toMatchObject({ 'network.transport': 'pipe', 'gen_ai.tool.name': 'echo' });
    expect(client.attributes['server.address']).toBeUndefined();

    // What a stdio upstream receives, in either protocol era: the client span as the parent in _meta.
    for (const tool of ['meta__echo', 'meta-modern__echo']) {
      const trace = hex(16);
      const echoed = await mcpCall(h, tool, { headers: { traceparent: `00-${trace}-${hex(8)}-01` } });
      expect(echoed.body).toHaveProperty('result');
      const meta = echoed.body.result.structuredContent.meta as Record<string, unknown>;
      const span = await waitFor(() => spansOf(trace).find((candidate) => candidate.kind === CLIENT), 'the client span');
      expect(meta.traceparent).toBe(`00-${trace}-${span.spanId}-01`);
      expect(span.attributes['network.transport']).toBe('pipe');
      expect(span.attributes['mcp.protocol.version']).toEqual(tool === 'meta__echo' ? expect.stringMatching(/^2025-/) : '2026-07-28');
    }
  });

  it('sends the trace context in the headers and _meta of calls that go through the SDK transport (legacy SSE)', async () => {
    const sse = await startEverythingHttp('sse');
    const proxy = await startRecordingProxy(sse.port);
    try {
      expect((await h.api.post('/api/v1/sources', { name: 'sse', transport: 'sse', url: `${proxy.url}/sse` })).status).toBe(201);
      const traceId = hex(16);
      const answer = await mcpCall(h, 'sse__echo', { headers: { traceparent: `00-${traceId}-${hex(8)}-01` } });
      expect(answer.body.result.content[0].text).toContain('hello traces');
      const client = await waitFor(() => spansOf(traceId).find((span) => span.kind === CLIENT), 'the client span');
      expect(client.attributes).toMatchObject({ 'network.transport': 'tcp', 'server.address': '127.0.0.1', 'server.port': Number(new URL(proxy.url).port) });
      const post = proxy.posts.find((candidate) => candidate.body?.method === 'tools/call');
      const expected = `00-${traceId}-${client.spanId}-01`;
      expect(post?.headers.traceparent).toBe(expected);
      expect(post?.body.params._meta).toMatchObject({ traceparent: expected });
    } finally {
      await h.api.delete('/api/v1/sources/sse');
      await proxy.close();
      await sse.stop();
    }
  });

  it('makes a CLIENT span for each tools/list page a refresh asks for, its context sent in _meta', async () => {
    // Each refresh runs under a trace of its own, so a late span of another source's discovery cannot be taken for it.
    const refreshUnder = async (source: string) => {
      const traceId = hex(16);
      const refreshed = await h.api.request('POST', `/api/v1/sources/${source}/refresh`, {}, { headers: { traceparent: `00-${traceId}-${hex(8)}-01` } });
      expect(refreshed.status).toBe(200);
      return traceId;
    };
    const httpTrace = await refreshUnder('rec');
    const listing = await waitFor(() => spansOf(httpTrace).find((span) => span.kind === CLIENT && span.name === 'tools/list'), 'the tools/list span');
    // The REST request's own SERVER span, the listing under it.
    const request = await waitFor(() => spansOf(httpTrace).find((span) => span.kind === SERVER), 'the refresh request span');
    expect(request.name).toBe('POST /api/v1/sources/{idOrName}/refresh');
    expect(request.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/api/v1/sources/{idOrName}/refresh', 'url.path': '/api/v1/sources/rec/refresh', 'http.response.status_code': 200 });
    expect(listing.parentSpanId).toBe(request.spanId);
    expect(listing.attributes).toMatchObject({ 'mcp.method.name': 'tools/list', 'network.transport': 'tcp', 'server.address': '127.0.0.1', 'server.port': upstream.port });
    expect(listing.attributes['gen_ai.tool.name']).toBeUndefined();
    const heard = (await (await fetch(`http://127.0.0.1:${upstream.port}/listings`)).json()) as { meta: Record<string, unknown> | null }[];
    expect(heard.map((l) => l.meta?.traceparent)).toContain(`00-${listing.traceId}-${listing.spanId}-01`);

    const stdioTrace = await refreshUnder('ev');
    const stdioListing = await waitFor(() => spansOf(stdioTrace).find((span) => span.kind === CLIENT && span.name === 'tools/list'), 'the stdio tools/list span');
    expect(stdioListing.attributes).toMatchObject({ 'mcp.method.name': 'tools/list', 'network.transport': 'pipe' });
    const metrics = await (await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${h.adminKey}` } })).text();
    expect(metrics).toMatch(/mcp_client_operation_duration_seconds_count\{[^}]*mcp_method_name="tools\/list"[^}]*\} [1-9]/);
  });

  it('puts a REST invocation under an HTTP SERVER span, the upstream CLIENT span under it', async () => {
    const traceId = hex(16);
    const parentId = hex(8);
    const invoked = await h.api.request('POST', '/api/v1/tools/rec__echo/invoke', { arguments: { message: 'via rest' } }, { headers: { traceparent: `00-${traceId}-${parentId}-01` } });
    expect(invoked.status).toBe(200);
    expect(invoked.body.traceId).toBe(traceId);
    const http = await waitFor(() => spansOf(traceId).find((span) => span.kind === SERVER), 'the HTTP span');
    expect(http.name).toBe('POST /api/v1/tools/{qualifiedName}/invoke');
    expect(http.parentSpanId).toBe(parentId);
    expect(http.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/api/v1/tools/{qualifiedName}/invoke', 'http.response.status_code': 200 });
    const client = await waitFor(() => spansOf(traceId).find((span) => span.kind === CLIENT), 'the client span');
    expect(client.parentSpanId).toBe(http.spanId);
    expect(client.name).toBe('tools/call echo');
    // The span every other REST request gets is not made a second time for invoke.
    expect(spansOf(traceId).filter((span) => span.kind === SERVER)).toHaveLength(1);
  });

  it("makes each interceptor's run an INTERNAL span under the call's span, with its decision", async () => {
    for (const interceptor of [
      { name: 'sum-guard', kind: 'deny', scope: { tools: ['ev__get-sum'] }, rules: [{ argument: 'a', range: { max: 100 }, message: 'Too large.' }] },
      { name: 'sum-redact', kind: 'redact', scope: { tools: ['ev__get-sum'] }, detect: ['email'] },
    ]) {
      expect((await h.api.post('/api/v1/interceptors', interceptor)).status).toBe(201);
    }
    const traceId = hex(16);
    const invoked = await h.api.request('POST', '/api/v1/tools/ev__get-sum/invoke', { arguments: { a: 2, b: 3 } }, { headers: { traceparent: `00-${traceId}-${hex(8)}-01` } });
    expect(invoked.status).toBe(200);
    expect(invoked.body.interceptors.map((run: { name: string; decision: string }) => `${run.name}:${run.decision}`)).toEqual(['sum-guard:allow', 'sum-redact:allow']);
    const http = await waitFor(() => spansOf(traceId).find((span) => span.kind === SERVER), 'the HTTP span');
    const runs = await waitFor(() => {
      const found = spansOf(traceId).filter((span) => span.name.startsWith('interceptor '));
      return found.length === 2 ? found : undefined;
    }, 'the interceptor spans');
    expect(runs.map((span) => [span.name, span.kind, span.parentSpanId, span.attributes['toolplane.interceptor.phase'], span.attributes['toolplane.interceptor.decision']]).sort()).toEqual([
      ['interceptor sum-guard', INTERNAL, http.spanId, 'pre', 'allow'],
      ['interceptor sum-redact', INTERNAL, http.spanId, 'post', 'allow'],
    ]);
    expect(runs[0]!.attributes).toMatchObject({ 'toolplane.interceptor.kind': expect.stringMatching(/^(deny|redact)$/) });
  });

  it('puts other REST requests under an HTTP SERVER span too, named by the method alone when no route matched', async () => {
    const traceId = hex(16);
    const missing = await h.api.request('GET', '/api/v1/no-such-thing', undefined, { headers: { traceparent: `00-${traceId}-${hex(8)}-01` } });
    expect(missing.status).toBe(404);
    const span = await waitFor(() => spansOf(traceId).find((candidate) => candidate.kind === SERVER), 'the HTTP span');
    expect(span.name).toBe('GET');
    expect(span.attributes['http.route']).toBeUndefined();
    expect(span.attributes).toMatchObject({ 'http.request.method': 'GET', 'url.path': '/api/v1/no-such-thing', 'http.response.status_code': 404 });

    // A health check makes no span; a REST request under the same trace does.
    const scrape = hex(16);
    await fetch(`${h.url}/health/live`, { headers: { traceparent: `00-${scrape}-${hex(8)}-01` } });
    await h.api.request('GET', '/api/v1/sources', undefined, { headers: { traceparent: `00-${scrape}-${hex(8)}-01` } });
    await waitFor(() => spansOf(scrape).find((candidate) => candidate.name === 'GET /api/v1/sources'), 'the list span');
    expect(spansOf(scrape).map((candidate) => candidate.name)).toEqual(['GET /api/v1/sources']);
  });

  it('makes SERVER spans for other MCP methods too (the SDK path)', async () => {
    const traceId = hex(16);
    const response = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.adminKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', traceparent: `00-${traceId}-${hex(8)}-01` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(200);
    await response.text();
    const server = await waitFor(() => spansOf(traceId).find((span) => span.kind === SERVER), 'the server span');
    expect(server.name).toBe('tools/list');
    expect(server.attributes).toMatchObject({ 'mcp.method.name': 'tools/list', 'jsonrpc.request.id': '7' });
    expect(server.attributes['error.type']).toBeUndefined();

    const promptTrace = hex(16);
    const refused = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.adminKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', traceparent: `00-${promptTrace}-${hex(8)}-01` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'prompts/get', params: { name: 'no-such-prompt' } }),
    });
    const body = (await refused.json()) as { error: { code: number } };
    const prompt = await waitFor(() => spansOf(promptTrace).find((span) => span.kind === SERVER), 'the server span');
    expect(prompt.name).toBe('prompts/get no-such-prompt');
    expect(prompt.attributes).toMatchObject({ 'gen_ai.prompt.name': 'no-such-prompt', 'error.type': String(body.error.code), 'rpc.response.status_code': String(body.error.code) });
  });

  it('exports the MCP duration histograms on /metrics', async () => {
    const metrics = await h.api.request('GET', '/metrics');
    const text = typeof metrics.body === 'string' ? metrics.body : JSON.stringify(metrics.body);
    expect(text).toMatch(/mcp_server_operation_duration_seconds_count\{mcp_method_name="tools\/call",error_type="",network_transport="tcp"\} [1-9]/);
    expect(text).toMatch(/mcp_server_operation_duration_seconds_count\{mcp_method_name="tools\/call",error_type="tool_error",network_transport="tcp"\} [1-9]/);
    expect(text).toMatch(/mcp_client_operation_duration_seconds_count\{mcp_method_name="tools\/call",error_type="",network_transport="pipe"\} [1-9]/);
    expect(text).toMatch(/mcp_client_operation_duration_seconds_count\{mcp_method_name="tools\/call",error_type="",network_transport="tcp"\} [1-9]/);
    expect(text).toContain('mcp_client_session_duration_seconds');
    expect(text).toContain('mcp_server_session_duration_seconds');
  });
});

describe('traces with payloads (TOOLPLANE_TRACE_PAYLOADS=true)', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let upstream: RunningUpstream;
  let h: Harness;

  beforeAll(async () => {
    receiver = await startReceiver();
    upstream = await startHttpUpstream((port) => [resolve(FIXTURES, 'trace-recording-server.mjs'), '--port', String(port)], '/mcp');
    h = await startHarness({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '100', TOOLPLANE_TRACE_PAYLOADS: 'true', OTEL_SERVICE_NAME: 'tools-gateway' });
    expect((await h.api.put('/api/v1/secrets/REC_TOKEN', { value: 'rec-token-0123456789' })).status).toBeLessThan(300);
    expect((await h.api.post('/api/v1/sources', { name: 'rec', transport: 'streamable-http', url: upstream.url, headers: { 'x-token': '${secret:REC_TOKEN}' } })).status).toBe(201);
  }, 90_000);

  afterAll(async () => {
    await h?.close();
    await upstream?.stop();
    await receiver?.close();
  });

  it('records arguments and result on the client span, the source secrets scrubbed', async () => {
    const traceId = hex(16);
    const invoked = await h.api.request('POST', '/api/v1/tools/rec__echo/invoke', { arguments: { message: 'the token is rec-token-0123456789' } }, { headers: { traceparent: `00-${traceId}-${hex(8)}-01` } });
    expect(invoked.status).toBe(200);
    const client = await waitFor(() => receiver.spans.find((span) => span.traceId === traceId && span.kind === CLIENT), 'the client span');
    expect(JSON.parse(client.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({ message: 'the token is [secret:REC_TOKEN]' });
    expect(JSON.parse(client.attributes['gen_ai.tool.call.result'] as string)).toEqual({ content: [{ type: 'text', text: 'the token is [secret:REC_TOKEN]' }] });
    expect(JSON.stringify(receiver.spans)).not.toContain('rec-token-0123456789');
    expect((client as unknown as { resource: Record<string, unknown> }).resource['service.name']).toBe('tools-gateway');
  });
});

describe('traces off', () => {
  let upstream: RunningUpstream;
  let h: Harness;

  beforeAll(async () => {
    upstream = await startHttpUpstream((port) => [resolve(FIXTURES, 'trace-recording-server.mjs'), '--port', String(port)], '/mcp');
    h = await startHarness();
    expect((await h.api.post('/api/v1/sources', { name: 'rec', transport: 'streamable-http', url: upstream.url })).status).toBe(201);
  }, 90_000);

  afterAll(async () => {
    await h?.close();
    await upstream?.stop();
  });

  it('sends no trace context upstream, records no trace id, and still answers', async () => {
    const answer = await mcpCall(h, 'rec__echo', { headers: { traceparent: `00-${hex(16)}-${hex(8)}-01` }, meta: { traceparent: `00-${hex(16)}-${hex(8)}-01` } });
    expect(answer.body.result.content).toEqual([{ type: 'text', text: 'hello traces' }]);
    const invoked = await h.api.post('/api/v1/tools/rec__echo/invoke', { arguments: { message: 'no traces' } });
    expect(invoked.status).toBe(200);
    expect(invoked.body.traceId).toBeNull();
    for (const call of await received(upstream)) {
      expect(call.headers.traceparent).toBeUndefined();
      expect(call.meta?.traceparent).toBeUndefined();
    }
    expect((await h.api.get(`/api/v1/executions/${invoked.body.id}`)).body.traceId).toBeNull();
    const metrics = await h.api.request('GET', '/metrics');
    const text = typeof metrics.body === 'string' ? metrics.body : JSON.stringify(metrics.body);
    expect(text).toMatch(/mcp_server_operation_duration_seconds_count\{mcp_method_name="tools\/call",error_type="",network_transport="tcp"\} [1-9]/);
  });
});
