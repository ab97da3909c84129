import { join } from 'node:path';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES } from '../helpers/upstreams.js';

/**
 * What a careless or hostile caller, browser page or upstream can send, one row each: the exact
 * status and stable code Toolplane must answer, and that it still answers `/health/live` quickly
 * afterwards. MCP rows read the code from `error.data.code` when Toolplane sets one, else the
 * JSON-RPC error code.
 */
interface Attack {
  name: string;
  method?: string;
  path: string;
  /** A JSON value, sent as JSON; or `raw` for bytes as they are. */
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  /** Send no credentials. */
  anonymous?: boolean;
  status: number;
  code: string | number;
}

const HEALTH_BUDGET_MS = 250;
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
const LEGACY = '2025-11-25';

const rpc = (method: string, params?: unknown, id: unknown = 1) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
const call = (name: string, args: unknown) => rpc('tools/call', { name, arguments: args, _meta: {} });

/** `depth` nested objects around a value, as text (JSON.stringify itself would recurse). */
const nested = (depth: number, inner = '1') => '{"a":'.repeat(depth) + inner + '}'.repeat(depth);

const HOSTILE_TOOLS = 'echo_keys,echo_readonly,catastrophic_pattern';

const attacks: Attack[] = [
  // Credentials
  { name: 'REST without a key', path: '/api/v1/sources', anonymous: true, status: 401, code: 'UNAUTHENTICATED' },
  { name: 'REST with a wrong key', path: '/api/v1/sources', headers: { authorization: 'Bearer tp_not_a_key' }, anonymous: true, status: 401, code: 'INVALID_API_KEY' },
  { name: 'REST with an empty bearer', path: '/api/v1/sources', headers: { authorization: 'Bearer ' }, anonymous: true, status: 401, code: 'UNAUTHENTICATED' },
  { name: 'MCP without a key', method: 'POST', path: '/mcp', body: rpc('tools/list'), anonymous: true, status: 401, code: 'UNAUTHENTICATED' },
  { name: 'MCP gateway with a wrong key', method: 'POST', path: '/mcp/gateway', body: rpc('tools/list'), headers: { authorization: 'Bearer nope' }, anonymous: true, status: 401, code: 'INVALID_API_KEY' },

  // Malformed bodies
  { name: 'REST truncated JSON', method: 'POST', path: '/api/v1/sources', raw: '{"name":', status: 400, code: 'INVALID_JSON' },
  { name: 'MCP truncated JSON', method: 'POST', path: '/mcp', raw: '{"jsonrpc":', status: 400, code: -32700 },
  { name: 'MCP JSON-RPC 1.0', method: 'POST', path: '/mcp', body: { jsonrpc: '1.0', id: 1, method: 'tools/list' }, status: 400, code: -32600 },
  { name: 'MCP unknown method', method: 'POST', path: '/mcp', body: rpc('evil/method'), status: 200, code: -32601 },
  { name: 'REST body over the limit', method: 'POST', path: '/api/v1/sources', raw: JSON.stringify({ name: 'x'.repeat(1_100_000) }), status: 413, code: 'PAYLOAD_TOO_LARGE' },

  // Registrations that would reach the machine
  { name: 'command with a NUL', method: 'POST', path: '/api/v1/sources', body: { name: 'x', transport: 'stdio', command: 'no\u0000de' }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'args that are not strings', method: 'POST', path: '/api/v1/sources', body: { name: 'x', transport: 'stdio', command: 'node', args: [1, { a: 1 }] }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a path as source name', method: 'POST', path: '/api/v1/sources', body: { name: '../etc', transport: 'stdio', command: 'node' }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a file: URL', method: 'POST', path: '/api/v1/sources', body: { name: 'x', transport: 'streamable-http', url: 'file:///etc/passwd' }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a secret variable given literally', method: 'POST', path: '/api/v1/sources', body: { name: 'x', transport: 'stdio', command: 'node', env: { A: '${secret:does-not-exist}' } }, status: 400, code: 'VALIDATION_FAILED' },

  // Lookups with hostile identifiers
  { name: 'path traversal as a source id', path: '/api/v1/sources/..%2f..%2fetc', status: 404, code: 'SOURCE_NOT_FOUND' },
  { name: 'SQL as an execution id', path: "/api/v1/executions/'or%201=1--", status: 404, code: 'EXECUTION_NOT_FOUND' },
  { name: 'a forged cursor', path: '/api/v1/tools?cursor=AAAA%00', status: 400, code: 'INVALID_CURSOR' },
  { name: 'a huge page size', path: '/api/v1/tools?limit=99999999', status: 400, code: 'VALIDATION_FAILED' },
  { name: 'MCP for an unknown source', method: 'POST', path: '/mcp/sources/nope', body: rpc('tools/list'), status: 404, code: -32001 },
  { name: 'a secret name with a space', method: 'PUT', path: '/api/v1/secrets/a%20b', body: { value: 'x' }, status: 400, code: 'VALIDATION_FAILED' },

  // Calls
  { name: 'REST invoke of an unknown tool', method: 'POST', path: '/api/v1/tools/nope__x/invoke', body: { arguments: {} }, status: 404, code: 'TOOL_NOT_FOUND' },
  { name: 'MCP call of an unknown tool', method: 'POST', path: '/mcp', body: call('nope__x', {}), status: 200, code: 'TOOL_NOT_FOUND' },
  { name: 'REST arguments that are an array', method: 'POST', path: '/api/v1/tools/hostile__echo_keys/invoke', body: { arguments: [1] }, status: 400, code: 'INVALID_ARGUMENTS' },
  { name: 'REST catastrophic pattern argument', method: 'POST', path: '/api/v1/tools/hostile__catastrophic_pattern/invoke', body: { arguments: { text: 'a'.repeat(5000) + '!' } }, status: 400, code: 'INVALID_ARGUMENTS' },
  { name: 'MCP catastrophic pattern argument', method: 'POST', path: '/mcp', body: call('hostile__catastrophic_pattern', { text: 'a'.repeat(5000) + '!' }), status: 200, code: -32602 },
];

describe('attack table', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    const registered = await h.api.post('/api/v1/sources', {
      name: 'hostile',
      transport: 'stdio',
      lifecycle: 'singleton',
      command: process.execPath,
      args: [join(FIXTURES, 'hostile-server.mjs')],
      env: { HOSTILE_TOOLS },
    });
    expect(registered.status).toBe(201);
    expect(registered.body.health).toBe('healthy');
  });

  afterAll(async () => {
    await h?.close();
  });

  it(`has at least 25 rows`, () => {
    expect(attacks.length).toBeGreaterThanOrEqual(25);
  });

  it.each(attacks.map((attack) => [attack.name, attack] as const))('%s', async (_name, attack) => {
    const mcp = attack.path.startsWith('/mcp');
    const headers: Record<string, string> = {
      ...(mcp ? { ...MCP_HEADERS, 'mcp-protocol-version': LEGACY } : { 'content-type': 'application/json' }),
      ...(attack.anonymous ? {} : { authorization: `Bearer ${h.adminKey}` }),
      ...attack.headers,
    };
    const payload = attack.raw ?? (attack.body === undefined ? undefined : JSON.stringify(attack.body));
    const response = await fetch(h.url + attack.path, { method: attack.method ?? 'GET', headers, body: payload });
    const text = await response.text();
    const body = text ? JSON.parse(text) : undefined;
    const code = mcp ? (body?.error?.data?.code ?? body?.error?.code ?? body?.result?.structuredContent?.code) : body?.error?.code;
    expect({ status: response.status, code }).toEqual({ status: attack.status, code: attack.code });

    const started = performance.now();
    const health = await fetch(`${h.url}/health/live`);
    expect(health.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(HEALTH_BUDGET_MS);
  });

  it('registered nothing and still serves', async () => {
    const sources = await h.api.get('/api/v1/sources');
    expect(sources.body.items.map((source: { name: string }) => source.name)).toEqual(['hostile']);
  });
});

export { nested };
