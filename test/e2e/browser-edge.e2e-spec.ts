import { request as httpRequest } from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectNoProcesses } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES, freePort } from '../helpers/upstreams.js';

interface Sent {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Answer {
  status: number;
  body: any;
}

/** One raw HTTP exchange with Toolplane's port, with exactly these Host, Origin and Content-Type headers. */
function send(port: number, { method = 'GET', path, headers = {}, body }: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const portOf = (url: string) => Number(new URL(url).port);
const tag = `browser-edge-${process.pid}`;
const ECHO = join(FIXTURES, 'arguments-echo-server.mjs');
const MODERN_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28' };
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'edge', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };

/** A JSON-RPC tools/call as a 2026-07-28 client sends it; `argumentsJson` is spliced in verbatim. */
function toolsCallBody(name: string, argumentsJson: string): string {
  return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"${name}","arguments":${argumentsJson},"_meta":${JSON.stringify(ENVELOPE)}}}`;
}

function nested(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

describe.each([
  ['on', {}],
  ['off', { TOOLPLANE_AUTH: 'off' }],
])('the HTTP edge with auth %s: browsers cannot drive Toolplane', (auth, env) => {
  let h: Harness;
  let port: number;
  const dir = mkdtempSync(join(tmpdir(), 'toolplane-edge-'));
  const marker = join(dir, 'ran');
  const key = (): Record<string, string> => (auth === 'on' ? { authorization: `Bearer ${h.adminKey}` } : {});
  /** Sources other than the one the prototype-key tests register themselves. */
  const sourceCount = async () => (await h.sql<{ n: string }>("SELECT count(*) AS n FROM sources WHERE name <> 'echo'"))[0]!.n;
  /** What an attacker wants registered: a shell command that leaves a marker. */
  const shell = { name: 'pwn', transport: 'stdio', command: '/bin/sh', args: ['-c', `touch ${marker}`, tag] };

  beforeAll(async () => {
    h = await startHarness(env);
    port = portOf(h.url);
  });

  afterAll(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
    await expectNoProcesses([tag]);
  });

  afterEach(async () => {
    // Nothing any of these requests sent was registered or run.
    expect(await sourceCount()).toBe('0');
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses an urlencoded form post (repeated keys would become arrays) with 415, unparsed', async () => {
    const form = `name=pwn&transport=stdio&command=%2Fbin%2Fsh&args=-c&args=${encodeURIComponent(`touch ${marker}`)}`;
    const plain = await send(port, { method: 'POST', path: '/api/v1/sources', headers: { ...key(), 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    expect(plain.status).toBe(415);
    expect(plain.body.error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    // As a browser sends it from another site: refused for its origin before anything else.
    const crossSite = await send(port, { method: 'POST', path: '/api/v1/sources', headers: { origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error).toMatchObject({ code: 'FORBIDDEN_ORIGIN' });
  });

  it('refuses multipart and text/plain bodies (a JSON text sent as text/plain is not parsed) with 415', async () => {
    const boundary = 'XyZ';
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\npwn\r\n--${boundary}--\r\n`;
    const a = await send(port, { method: 'POST', path: '/api/v1/sources', headers: { ...key(), 'content-type': `multipart/form-data; boundary=${boundary}` }, body: multipart });
    expect([a.status, a.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const b = await send(port, { method: 'POST', path: '/api/v1/sources', headers: { ...key(), 'content-type': 'text/plain' }, body: JSON.stringify(shell) });
    expect([b.status, b.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const c = await send(port, { method: 'POST', path: '/api/v1/sources', headers: { ...key() }, body: JSON.stringify(shell) });
    expect([c.status, c.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
  });

  it('refuses a form post to /mcp with a JSON-RPC error, HTTP 415', async () => {
    for (const contentType of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const answer = await send(port, { method: 'POST', path: '/mcp', headers: { ...MODERN_HEADERS, ...key(), 'content-type': contentType }, body: toolsCallBody('x', '{}') });
      expect(answer.status).toBe(415);
      expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { code: 'UNSUPPORTED_MEDIA_TYPE' } } });
    }
  });

  it.each([
    ['a foreign site', 'http://evil.example'],
    ['another port of 127.0.0.1', 'http://127.0.0.1:1'],
    ['an opaque origin', 'null'],
    ['the right host over https', 'https://127.0.0.1:PORT'],
    ['the right origin with a path', 'http://127.0.0.1:PORT/'],
  ])('answers 403 FORBIDDEN_ORIGIN to %s on every route, before authentication', async (_what, originTemplate) => {
    const origin = originTemplate.replace('PORT', String(port));
    for (const path of ['/api/v1/sources', '/health/live', '/health/ready', '/docs', '/docs/openapi.json', '/no-such-route']) {
      const answer = await send(port, { path, headers: { origin } });
      expect([path, answer.status, answer.body.error?.code]).toEqual([path, 403, 'FORBIDDEN_ORIGIN']);
    }
    const post = await send(port, { method: 'POST', path: '/api/v1/sources', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify(shell) });
    expect([post.status, post.body.error.code]).toEqual([403, 'FORBIDDEN_ORIGIN']);
    for (const path of ['/mcp', '/mcp/gateway', '/mcp/sources/pwn']) {
      const answer = await send(port, { method: 'POST', path, headers: { ...MODERN_HEADERS, origin }, body: toolsCallBody('x', '{}') });
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { code: 'FORBIDDEN_ORIGIN' } } });
    }
  });

  it.each([
    ['a foreign name', 'evil.example'],
    ['a foreign name with the right port (DNS rebinding)', 'evil.example:PORT'],
    ['a name that starts like loopback', '127.0.0.1.evil.example:PORT'],
    ['another port', '127.0.0.1:1'],
    ['loopback without the port', 'localhost'],
  ])('answers 403 FORBIDDEN_HOST to %s, with no Origin', async (_what, hostTemplate) => {
    const host = hostTemplate.replace('PORT', String(port));
    for (const path of ['/api/v1/sources', '/health/live', '/docs']) {
      const answer = await send(port, { path, headers: { host, ...key() } });
      expect([path, answer.status, answer.body.error?.code]).toEqual([path, 403, 'FORBIDDEN_HOST']);
    }
    const post = await send(port, { method: 'POST', path: '/api/v1/sources', headers: { host, ...key(), 'content-type': 'application/json' }, body: JSON.stringify(shell) });
    expect([post.status, post.body.error.code]).toEqual([403, 'FORBIDDEN_HOST']);
    const mcp = await send(port, { method: 'POST', path: '/mcp', headers: { ...MODERN_HEADERS, host, ...key() }, body: toolsCallBody('x', '{}') });
    expect(mcp.status).toBe(403);
    expect(mcp.body).toMatchObject({ jsonrpc: '2.0', error: { data: { code: 'FORBIDDEN_HOST' } } });
  });

  it('serves the loopback names on its port, with and without an Origin of its own', async () => {
    for (const name of ['127.0.0.1', 'localhost', '[::1]']) {
      const self = `${name}:${port}`;
      const plain = await send(port, { path: '/api/v1/sources', headers: { host: self, ...key() } });
      expect([self, plain.status]).toEqual([self, 200]);
      const browser = await send(port, { path: '/api/v1/sources', headers: { host: self, origin: `http://${self}`, ...key() } });
      expect([self, browser.status]).toEqual([self, 200]);
      const health = await send(port, { path: '/health/live', headers: { host: self.toUpperCase(), origin: `http://${self}` } });
      expect(health.status).toBe(200);
    }
    // Same-origin MCP: past the edge, authentication decides.
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } });
    const mcp = await send(port, { method: 'POST', path: '/mcp', headers: { ...MODERN_HEADERS, 'mcp-method': 'tools/list', origin: `http://127.0.0.1:${port}` }, body: list });
    expect(mcp.status).toBe(auth === 'on' ? 401 : 200);
    expect(auth === 'on' ? mcp.body.error.data.code : mcp.body.result.tools).toEqual(auth === 'on' ? 'UNAUTHENTICATED' : []);
  });

  it('answers 400 BODY_TOO_DEEP to a body nested 10,000 levels, on REST and /mcp', async () => {
    const deep = `{"name":"deep","transport":"stdio","command":"node","args":[],"env":${nested(10_000)}}`;
    const rest = await send(port, { method: 'POST', path: '/api/v1/sources', headers: { ...key(), 'content-type': 'application/json' }, body: deep });
    expect(rest.status).toBe(400);
    expect(rest.body.error).toMatchObject({ code: 'BODY_TOO_DEEP', details: [{ path: 'body' }] });
    const invoke = await send(port, { method: 'POST', path: '/api/v1/tools/x__y/invoke', headers: { ...key(), 'content-type': 'application/json' }, body: `{"arguments":${'['.repeat(10_000)}${']'.repeat(10_000)}}` });
    expect([invoke.status, invoke.body.error.code]).toEqual([400, 'BODY_TOO_DEEP']);
    const mcp = await send(port, { method: 'POST', path: '/mcp', headers: { ...MODERN_HEADERS, ...key() }, body: toolsCallBody('x', nested(10_000)) });
    expect(mcp.status).toBe(400);
    expect(mcp.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32600, data: { code: 'BODY_TOO_DEEP' } } });
    const alive = await send(port, { path: '/health/live' });
    expect(alive.status).toBe(200);
  });

  describe('prototype keys', () => {
    beforeAll(async () => {
      const created = await send(port, {
        method: 'POST',
        path: '/api/v1/sources',
        headers: { ...key(), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'echo', transport: 'stdio', command: 'node', args: [ECHO, tag], refreshIntervalSeconds: 0 }),
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ health: 'healthy', toolCount: 1 });
    });

    afterAll(async () => {
      const removed = await send(port, { method: 'DELETE', path: '/api/v1/sources/echo', headers: key() });
      expect(removed.status).toBe(204);
    });

    const executions = async () => h.sql<{ arguments: unknown; channel: string }>('SELECT arguments, channel FROM executions ORDER BY started_at');

    it.each([
      ['__proto__', '{"__proto__":{"polluted":true}}', 'arguments.__proto__'],
      ['__proto__ deep in an array', '{"list":[1,{"a":{"__proto__":{}}}]}', 'arguments.list[1].a.__proto__'],
      ['__proto__ written with escapes', '{"\\u005f_proto__":{}}', 'arguments.__proto__'],
      ['constructor.prototype', '{"constructor":{"prototype":{"polluted":true}}}', 'arguments.constructor.prototype'],
    ])('refuses %s with 400 UNSAFE_JSON_KEY naming its path, before any call, on REST and /mcp', async (_what, args, path) => {
      const before = (await executions()).length;
      const rest = await send(port, { method: 'POST', path: '/api/v1/tools/echo__arguments/invoke', headers: { ...key(), 'content-type': 'application/json' }, body: `{"arguments":${args}}` });
      expect(rest.status).toBe(400);
      expect(rest.body.error).toMatchObject({ code: 'UNSAFE_JSON_KEY', details: [{ path }] });
      const mcp = await send(port, { method: 'POST', path: '/mcp', headers: { ...MODERN_HEADERS, ...key(), 'mcp-method': 'tools/call', 'mcp-name': 'echo__arguments' }, body: toolsCallBody('echo__arguments', args) });
      expect(mcp.status).toBe(400);
      expect(mcp.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32600, data: { code: 'UNSAFE_JSON_KEY', details: [{ path: `params.${path}` }] } } });
      expect((await executions()).length).toBe(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('passes a constructor key that is plain data to the upstream as an own property, and records it', async () => {
      const args = { constructor: 'x', nested: { constructor: { name: 'y' } }, list: [{ constructor: 1 }] };
      const before = (await executions()).length;
      const rest = await send(port, { method: 'POST', path: '/api/v1/tools/echo__arguments/invoke', headers: { ...key(), 'content-type': 'application/json' }, body: JSON.stringify({ arguments: args }) });
      expect(rest.status).toBe(200);
      expect(rest.body).toMatchObject({ status: 'succeeded', result: { structuredContent: { received: args, ownKeys: ['constructor', 'nested', 'list'] } } });
      for (const accept of ['application/json, text/event-stream', 'application/json;q=1, text/event-stream;q=1']) {
        const mcp = await send(port, {
          method: 'POST',
          path: '/mcp',
          headers: { ...MODERN_HEADERS, accept, ...key(), 'mcp-method': 'tools/call', 'mcp-name': 'echo__arguments' },
          body: toolsCallBody('echo__arguments', JSON.stringify(args)),
        });
        expect([accept, mcp.status]).toEqual([accept, 200]);
        expect(mcp.body.result.structuredContent).toEqual({ received: args, ownKeys: ['constructor', 'nested', 'list'] });
      }
      const recorded = (await executions()).slice(before);
      expect(recorded).toEqual([
        { arguments: args, channel: 'rest' },
        { arguments: args, channel: 'mcp' },
        { arguments: args, channel: 'mcp' },
      ]);
    });
  });
});

describe('TOOLPLANE_ALLOWED_ORIGINS replaces the default origins', () => {
  let h: Harness;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    h = await startHarness({ PORT: String(port), TOOLPLANE_AUTH: 'off', TOOLPLANE_ALLOWED_ORIGINS: `https://toolplane.example.com,http://localhost:${port}` });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('admits the configured origins and hosts', async () => {
    const proxied = await send(port, { path: '/api/v1/sources', headers: { host: 'toolplane.example.com', origin: 'https://toolplane.example.com' } });
    expect(proxied.status).toBe(200);
    const explicitPort = await send(port, { path: '/health/live', headers: { host: 'toolplane.example.com:443' } });
    expect(explicitPort.status).toBe(200);
    const local = await send(port, { path: '/api/v1/sources', headers: { host: `localhost:${port}`, origin: `http://localhost:${port}` } });
    expect(local.status).toBe(200);
  });

  it('refuses the defaults it replaced', async () => {
    const host = await send(port, { path: '/health/live', headers: { host: `127.0.0.1:${port}` } });
    expect([host.status, host.body.error.code]).toEqual([403, 'FORBIDDEN_HOST']);
    const origin = await send(port, { path: '/health/live', headers: { host: `localhost:${port}`, origin: `http://127.0.0.1:${port}` } });
    expect([origin.status, origin.body.error.code]).toEqual([403, 'FORBIDDEN_ORIGIN']);
    const scheme = await send(port, { path: '/health/live', headers: { host: 'toolplane.example.com', origin: 'http://toolplane.example.com' } });
    expect([scheme.status, scheme.body.error.code]).toEqual([403, 'FORBIDDEN_ORIGIN']);
  });
});

describe('listening on every interface (HOST=0.0.0.0)', () => {
  let h: Harness;
  let port: number;

  beforeAll(async () => {
    h = await startHarness({ HOST: '0.0.0.0' });
    port = portOf(h.url);
  });

  afterAll(async () => {
    await h?.close();
  });

  it("admits the machine's hostname and loopback names on its port, nothing else", async () => {
    for (const host of [`${hostname()}:${port}`, `127.0.0.1:${port}`, `localhost:${port}`]) {
      const answer = await send(port, { path: '/health/live', headers: { host } });
      expect([host, answer.status]).toEqual([host, 200]);
    }
    const foreign = await send(port, { path: '/health/live', headers: { host: `evil.example:${port}` } });
    expect([foreign.status, foreign.body.error.code]).toEqual([403, 'FORBIDDEN_HOST']);
  });
});
