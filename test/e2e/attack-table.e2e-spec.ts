import { request } from 'node:http';
import { join } from 'node:path';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { FIXTURES } from '../helpers/upstreams.js';

/**
 * What a careless or hostile caller, browser page or upstream can send, one row each: the exact
 * status and stable code Toolplane must answer, and that it still answers `/health/live` quickly
 * afterwards. MCP rows read the code from `error.data.code` when Toolplane sets one, else the
 * JSON-RPC error code, or from the recorded execution a tools/call result names.
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
  /** The stable code; `undefined` where the answer is not an error. */
  code: string | number | undefined;
  /** More of the answer that must hold (a partial match). */
  answer?: Record<string, unknown>;
}

const HEALTH_BUDGET_MS = 250;
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

const rpc = (method: string, params?: unknown, id: unknown = 1) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
/** A tools/call that asks for its execution in the result's `_meta` (where the code of a refusal is read). */
const call = (name: string, args: unknown) => rpc('tools/call', { name, arguments: args, _meta: { 'dev.toolplane/execution': true } });

/** `depth` nested objects around a value, as text (JSON.stringify itself would recurse). */
const nested = (depth: number, inner = '1') => '{"a":'.repeat(depth) + inner + '}'.repeat(depth);

/** Where a tools/call result names the execution Toolplane recorded, with its code when refused. */
const EXECUTION = 'dev.toolplane/execution';

const HOSTILE_TOOLS = 'echo_keys,echo_readonly,catastrophic_pattern,catastrophic_keys,ref_loop,deep_schema';

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
  { name: 'MCP catastrophic pattern argument', method: 'POST', path: '/mcp', body: call('hostile__catastrophic_pattern', { text: 'a'.repeat(5000) + '!' }), status: 200, code: 'INVALID_ARGUMENTS', answer: { result: { isError: true } } },

  // Browsers: form posts, foreign pages, DNS rebinding (checked before credentials and body)
  { name: 'REST form post', method: 'POST', path: '/api/v1/sources', raw: 'name=x&transport=stdio&command=/bin/sh&args=-c&args=id', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  { name: 'REST multipart post', method: 'POST', path: '/api/v1/sources', raw: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n', headers: { 'content-type': 'multipart/form-data; boundary=b' }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  { name: 'REST text/plain post (a CORS-simple request)', method: 'POST', path: '/api/v1/sources', raw: '{"name":"x","transport":"stdio","command":"node"}', headers: { 'content-type': 'text/plain' }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  { name: 'MCP form post', method: 'POST', path: '/mcp', raw: 'jsonrpc=2.0&method=tools/list', headers: { 'content-type': 'application/x-www-form-urlencoded' }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  { name: 'REST post from a foreign origin', method: 'POST', path: '/api/v1/sources', body: { name: 'x', transport: 'stdio', command: 'node' }, headers: { origin: 'http://evil.example' }, status: 403, code: 'FORBIDDEN_ORIGIN' },
  { name: 'REST post from a foreign origin without a key', method: 'POST', path: '/api/v1/sources', body: { name: 'x', transport: 'stdio', command: 'node' }, headers: { origin: 'http://evil.example' }, anonymous: true, status: 403, code: 'FORBIDDEN_ORIGIN' },
  { name: 'REST read from a foreign origin', path: '/api/v1/sources', headers: { origin: 'https://evil.example' }, status: 403, code: 'FORBIDDEN_ORIGIN' },
  { name: 'REST post from a sandboxed page (Origin null)', method: 'POST', path: '/api/v1/sources', body: { name: 'x', transport: 'stdio', command: 'node' }, headers: { origin: 'null' }, status: 403, code: 'FORBIDDEN_ORIGIN' },
  { name: 'REST post from another port of loopback', method: 'POST', path: '/api/v1/sources', body: { name: 'x', transport: 'stdio', command: 'node' }, headers: { origin: 'http://127.0.0.1:1' }, status: 403, code: 'FORBIDDEN_ORIGIN' },
  { name: 'REST post from an https page on the same host', method: 'POST', path: '/api/v1/sources', body: { name: 'x', transport: 'stdio', command: 'node' }, headers: { origin: 'https://localhost' }, status: 403, code: 'FORBIDDEN_ORIGIN' },
  { name: 'REST post under a rebound host name', method: 'POST', path: '/api/v1/sources', body: { name: 'x', transport: 'stdio', command: 'node' }, headers: { host: 'evil.example' }, status: 403, code: 'FORBIDDEN_HOST' },
  { name: 'REST read under a rebound host name with a loopback port', path: '/api/v1/sources', headers: { host: 'evil.example:80' }, status: 403, code: 'FORBIDDEN_HOST' },
  { name: 'MCP from a foreign origin', method: 'POST', path: '/mcp', body: rpc('tools/list'), headers: { origin: 'http://evil.example' }, status: 403, code: 'FORBIDDEN_ORIGIN' },
  { name: 'MCP from another port of loopback', method: 'POST', path: '/mcp/gateway', body: rpc('tools/list'), headers: { origin: 'http://localhost:1' }, status: 403, code: 'FORBIDDEN_ORIGIN' },
  { name: 'MCP under a rebound host name', method: 'POST', path: '/mcp', body: rpc('tools/list'), headers: { host: 'evil.example' }, status: 403, code: 'FORBIDDEN_HOST' },
  { name: 'MCP source endpoint under a rebound host name', method: 'POST', path: '/mcp/sources/hostile', body: rpc('tools/list'), headers: { host: 'attacker.test' }, status: 403, code: 'FORBIDDEN_HOST' },

  // Bodies built to break parsers
  { name: 'REST body nested 10,000 deep', method: 'POST', path: '/api/v1/sources', raw: nested(10_000), status: 400, code: 'BODY_TOO_DEEP' },
  { name: 'REST arguments nested 10,000 deep', method: 'POST', path: '/api/v1/tools/hostile__echo_keys/invoke', raw: `{"arguments":${nested(10_000)}}`, status: 400, code: 'BODY_TOO_DEEP' },
  { name: 'REST arrays nested 10,000 deep', method: 'POST', path: '/api/v1/sources', raw: '['.repeat(10_000) + ']'.repeat(10_000), status: 400, code: 'BODY_TOO_DEEP' },
  { name: 'MCP arguments nested 10,000 deep', method: 'POST', path: '/mcp', raw: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hostile__echo_keys","arguments":${nested(10_000)}}}`, status: 400, code: 'BODY_TOO_DEEP' },
  { name: 'REST arguments of 20,001 values', method: 'POST', path: '/api/v1/tools/hostile__echo_keys/invoke', raw: `{"arguments":{"list":[${'0,'.repeat(19_997)}0]}}`, status: 400, code: 'BODY_TOO_MANY_VALUES' },
  { name: 'MCP arguments of 20,001 values', method: 'POST', path: '/mcp', raw: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hostile__echo_keys","arguments":{"list":[${'0,'.repeat(19_997)}0]}}}`, status: 400, code: 'BODY_TOO_MANY_VALUES' },
  { name: 'REST __proto__ key in a registration', method: 'POST', path: '/api/v1/sources', raw: '{"name":"x","transport":"stdio","command":"node","__proto__":{"isAdmin":true}}', status: 400, code: 'UNSAFE_JSON_KEY' },
  { name: 'REST escaped __proto__ key in arguments', method: 'POST', path: '/api/v1/tools/hostile__echo_keys/invoke', raw: '{"arguments":{"\\u005f_proto__":{"polluted":1}}}', status: 400, code: 'UNSAFE_JSON_KEY' },
  { name: 'REST constructor.prototype in arguments', method: 'POST', path: '/api/v1/tools/hostile__echo_keys/invoke', raw: '{"arguments":{"constructor":{"prototype":{"polluted":1}}}}', status: 400, code: 'UNSAFE_JSON_KEY' },
  { name: 'MCP __proto__ key in arguments', method: 'POST', path: '/mcp', raw: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hostile__echo_keys","arguments":{"__proto__":{"polluted":1}}}}', status: 400, code: 'UNSAFE_JSON_KEY' },
  { name: 'MCP __proto__ key in _meta', method: 'POST', path: '/mcp', raw: '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"__proto__":{"x":1}}}}', status: 400, code: 'UNSAFE_JSON_KEY' },
  { name: 'REST registration with an empty JSON body', method: 'POST', path: '/api/v1/sources', raw: '', headers: { 'content-type': 'application/json' }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'REST body that is a JSON string', method: 'POST', path: '/api/v1/sources', body: 'x', status: 400, code: 'VALIDATION_FAILED' },
  { name: 'REST body that is null', method: 'POST', path: '/api/v1/sources', raw: 'null', status: 400, code: 'VALIDATION_FAILED' },
  { name: 'MCP body that is a JSON number', method: 'POST', path: '/mcp', raw: '42', status: 400, code: -32600 },

  // Registrations that are wrong in more than one way, or aim at what they should not
  { name: 'an unknown transport', method: 'POST', path: '/api/v1/sources', body: { name: 'x', transport: 'telnet', url: 'telnet://127.0.0.1' }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a source name of 10,000 characters', method: 'POST', path: '/api/v1/sources', body: { name: 'a'.repeat(10_000), transport: 'stdio', command: 'node' }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a source name with a NUL', method: 'POST', path: '/api/v1/sources', body: { name: 'a\u0000b', transport: 'stdio', command: 'node' }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'an env value that is an object', method: 'POST', path: '/api/v1/sources', body: { name: 'x', transport: 'stdio', command: 'node', env: { A: { b: 1 } } }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a cloud metadata URL', method: 'POST', path: '/api/v1/sources', body: { name: 'x', transport: 'streamable-http', url: 'http://169.254.169.254/latest/meta-data/' }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a metadata URL by name', method: 'POST', path: '/api/v1/sources', body: { name: 'x', transport: 'sse', url: 'http://metadata.google.internal/computeMetadata/v1/' }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'an IPv6 link-local URL', method: 'POST', path: '/api/v1/sources/validate', body: { name: 'x', transport: 'streamable-http', url: 'http://[fe80::1]:8080/mcp' }, status: 200, code: undefined, answer: { valid: false } },
  { name: 'a metadata address mapped into IPv6', method: 'POST', path: '/api/v1/sources', body: { name: 'x', transport: 'streamable-http', url: 'http://[::ffff:169.254.169.254]/' }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a javascript: URL', method: 'POST', path: '/api/v1/sources', body: { name: 'x', transport: 'sse', url: 'javascript:alert(1)' }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a header with a line break', method: 'POST', path: '/api/v1/sources', body: { name: 'x', transport: 'streamable-http', url: 'http://127.0.0.1:1/mcp', headers: { 'x-a': 'b\r\nx-injected: 1' } }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'validate with args that are not strings', method: 'POST', path: '/api/v1/sources/validate', body: { name: 'x', transport: 'stdio', command: 'node', args: [{ a: 1 }] }, status: 200, code: undefined, answer: { valid: false } },
  { name: 'PATCH of an unknown source', method: 'PATCH', path: '/api/v1/sources/nope', body: { enabled: false }, status: 404, code: 'SOURCE_NOT_FOUND' },
  { name: 'PATCH of a source with a non-boolean enabled', method: 'PATCH', path: '/api/v1/sources/hostile', body: { enabled: 'yes' }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'DELETE of an unknown source', method: 'DELETE', path: '/api/v1/sources/nope', status: 404, code: 'SOURCE_NOT_FOUND' },
  { name: 'a secret value that is not a string', method: 'PUT', path: '/api/v1/secrets/ok-name', body: { value: { a: 1 } }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a secret value with NUL (no environment variable or header carries it)', method: 'PUT', path: '/api/v1/secrets/ok-name', body: { value: 'a\u0000b' }, status: 400, code: 'VALIDATION_FAILED' },

  // Queries
  { name: 'executions filtered by an unknown status', path: '/api/v1/executions?status=pwned', status: 400, code: 'VALIDATION_FAILED' },
  { name: 'executions since a date that is not one', path: '/api/v1/executions?since=yesterday', status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a catalog format that does not exist', path: '/api/v1/tools?format=evil', status: 400, code: 'VALIDATION_FAILED' },
  { name: 'a search of 5,000 characters', path: `/api/v1/tools?q=${'a'.repeat(5_000)}`, status: 400, code: 'VALIDATION_FAILED' },

  // Calls
  { name: 'REST arguments that are a string', method: 'POST', path: '/api/v1/tools/hostile__echo_keys/invoke', body: { arguments: 'rm -rf /' }, status: 400, code: 'INVALID_ARGUMENTS' },
  { name: 'REST invoke with a tool name holding a NUL', method: 'POST', path: '/api/v1/tools/hostile__echo%00keys/invoke', body: { arguments: {} }, status: 404, code: 'TOOL_NOT_FOUND' },
  { name: 'REST invoke with a negative timeout', method: 'POST', path: '/api/v1/tools/hostile__echo_keys/invoke', body: { arguments: {}, timeoutMs: -1 }, status: 400, code: 'VALIDATION_FAILED' },
  { name: 'MCP call with arguments that are an array', method: 'POST', path: '/mcp', body: call('hostile__echo_keys', [1, 2]), status: 200, code: -32602 },
  { name: 'MCP call with a name that is not a string', method: 'POST', path: '/mcp', body: rpc('tools/call', { name: { $ne: 1 }, arguments: {} }), status: 200, code: -32602 },
  { name: 'REST catastrophic patternProperties key', method: 'POST', path: '/api/v1/tools/hostile__catastrophic_keys/invoke', body: { arguments: { ['a'.repeat(50_000) + '!']: 'x', aaaa: 1 } }, status: 400, code: 'INVALID_ARGUMENTS' },
  { name: 'REST call of a tool whose schema loops', method: 'POST', path: '/api/v1/tools/hostile__ref_loop/invoke', body: { arguments: {} }, status: 409, code: 'TOOL_UNUSABLE' },
  { name: 'REST call of a tool whose schema nests too deep', method: 'POST', path: '/api/v1/tools/hostile__deep_schema/invoke', body: { arguments: {} }, status: 409, code: 'TOOL_UNUSABLE' },
  { name: 'MCP call of a tool whose schema loops', method: 'POST', path: '/mcp', body: call('hostile__ref_loop', {}), status: 200, code: 'TOOL_UNUSABLE', answer: { result: { isError: true } } },
  { name: 'REST arguments with a NUL in a key', method: 'POST', path: '/api/v1/tools/hostile__echo_keys/invoke', body: { arguments: { 'a\u0000b': 1 } }, status: 400, code: 'UNSTORABLE_ARGUMENTS' },
  { name: 'REST arguments with a lone surrogate in a value', method: 'POST', path: '/api/v1/tools/hostile__echo_keys/invoke', raw: '{"arguments":{"a":"\\ud800"}}', status: 400, code: 'UNSTORABLE_ARGUMENTS' },
  { name: 'MCP arguments with a NUL in a nested value', method: 'POST', path: '/mcp', body: call('hostile__echo_keys', { list: [{ v: 'x\u0000' }] }), status: 200, code: 'UNSTORABLE_ARGUMENTS', answer: { result: { isError: true } } },
  { name: 'MCP call through the gateway of an unknown tool', method: 'POST', path: '/mcp/gateway', body: rpc('tools/call', { name: 'call_tool', arguments: { name: 'nope__x', arguments: {} }, _meta: { 'dev.toolplane/execution': true } }), status: 200, code: 'TOOL_NOT_FOUND', answer: { result: { isError: true } } },
];

/** Sends bytes as they are, with any Host header (fetch would put the URL's own). */
function send(url: string, method: string, headers: Record<string, string>, payload?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** A JSON answer, or the last message of a server-sent event stream. */
function parseAnswer(text: string): any {
  if (!text) return undefined;
  if (!text.startsWith('event:') && !text.startsWith('data:') && !text.startsWith('id:')) return JSON.parse(text);
  const data = text.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).filter(Boolean);
  return data.length ? JSON.parse(data[data.length - 1]) : undefined;
}

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

  it(`has at least 60 rows`, () => {
    expect(attacks.length).toBeGreaterThanOrEqual(60);
  });

  it.each(attacks.map((attack) => [attack.name, attack] as const))('%s', async (_name, attack) => {
    const mcp = attack.path.startsWith('/mcp');
    const payload = attack.raw ?? (attack.body === undefined ? undefined : JSON.stringify(attack.body));
    const headers: Record<string, string> = {
      ...(mcp ? MCP_HEADERS : payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...(attack.anonymous ? {} : { authorization: `Bearer ${h.adminKey}` }),
      ...attack.headers,
    };
    const response = await send(h.url + attack.path, attack.method ?? 'GET', headers, payload);
    const body = parseAnswer(response.text);
    const code = mcp ? (body?.error?.data?.code ?? body?.error?.code ?? body?.result?._meta?.[EXECUTION]?.code) : body?.error?.code;
    expect({ status: response.status, code }).toEqual({ status: attack.status, code: attack.code });
    if (attack.answer) expect(body).toMatchObject(attack.answer);

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

