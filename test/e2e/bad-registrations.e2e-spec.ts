import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, freePort } from '../helpers/upstreams.js';

interface Case {
  name: string;
  body?: unknown;
  raw?: string;
  contentType?: string;
  status: number;
  code: string;
  /** Every path the answer must list (it may list more only when `exact` is false). */
  paths?: string[];
  exact?: boolean;
}

describe('malformed registrations', () => {
  let h: Harness;
  let closedPort: number;
  // Built while the cases are collected: the table below refers to these directories.
  const root = mkdtempSync(join(tmpdir(), 'toolplane-bad-'));
  // Plugins run sandboxed as an unprivileged user: their directories must be readable by it.
  chmodSync(root, 0o755);
  const plugin = (dir: string, file: string, content: string) => {
    mkdirSync(join(root, dir));
    writeFileSync(join(root, dir, file), content);
    return join(root, dir);
  };
  const withSecretDecl = plugin(
    'secret-decl',
    'server.json',
    JSON.stringify({
      name: 'io.example/demo',
      description: 'demo',
      version: '1.0.0',
      packages: [
        {
          registryType: 'npm',
          identifier: EVERYTHING,
          runtimeHint: 'node',
          transport: { type: 'stdio' },
          environmentVariables: [
            { name: 'API_TOKEN', isRequired: true, isSecret: true },
            { name: 'REGION', isRequired: true },
            { name: 'LEVEL', choices: ['low', 'high'] },
          ],
        },
      ],
    }),
  );
  const emptyDir = join(root, 'empty');
  mkdirSync(emptyDir);
  const badJsonDir = plugin('bad-json', 'plugin.json', '{"name": "x", "version": ');
  const badSchemaDir = plugin(
    'bad-schema',
    'server.json',
    JSON.stringify({ name: 'no-namespace', version: 7, packages: [{ registryType: 'npm', transport: { type: 'carrier-pigeon' } }], extra: true }),
  );

  beforeAll(async () => {
    h = await startHarness();
    closedPort = await freePort();
  });

  afterAll(async () => {
    await h.close();
    rmSync(root, { recursive: true, force: true });
  });

  const stdio = (extra: Record<string, unknown> = {}) => ({ name: 'bad', transport: 'stdio', command: 'node', args: [EVERYTHING], ...extra });

  const cases = (): Case[] => [
    { name: 'not JSON', raw: '{"name": "x",', status: 400, code: 'INVALID_JSON' },
    { name: 'a JSON array', body: [], status: 400, code: 'VALIDATION_FAILED', paths: ['body'] },
    { name: 'a JSON string', raw: '"hello"', status: 400, code: 'VALIDATION_FAILED', paths: ['body'] },
    { name: 'not application/json', raw: 'name=x', contentType: 'text/plain', status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
    { name: 'empty object', body: {}, status: 400, code: 'VALIDATION_FAILED', paths: ['name', 'transport'], exact: false },
    { name: 'name not a slug', body: stdio({ name: 'Bad Name!' }), status: 400, code: 'VALIDATION_FAILED', paths: ['name'] },
    { name: 'name too long', body: stdio({ name: 'a'.repeat(64) }), status: 400, code: 'VALIDATION_FAILED', paths: ['name'] },
    { name: 'name of the wrong type', body: stdio({ name: 42 }), status: 400, code: 'VALIDATION_FAILED', paths: ['name'] },
    { name: 'unknown transport', body: stdio({ transport: 'websocket' }), status: 400, code: 'VALIDATION_FAILED', paths: ['transport'] },
    { name: 'unknown field', body: stdio({ colour: 'blue' }), status: 400, code: 'VALIDATION_FAILED', paths: ['colour'] },
    { name: 'unknown lifecycle', body: stdio({ lifecycle: 'forever' }), status: 400, code: 'VALIDATION_FAILED', paths: ['lifecycle'] },
    { name: 'args not strings', body: stdio({ args: [1, true] }), status: 400, code: 'VALIDATION_FAILED', paths: ['args'] },
    { name: 'timeout out of range', body: stdio({ timeoutMs: -5 }), status: 400, code: 'VALIDATION_FAILED', paths: ['timeoutMs'] },
    { name: 'concurrency not an integer', body: stdio({ maxConcurrency: 2.5 }), status: 400, code: 'VALIDATION_FAILED', paths: ['maxConcurrency'] },
    { name: 'rate limit of zero', body: stdio({ rateLimitPerMinute: 0 }), status: 400, code: 'VALIDATION_FAILED', paths: ['rateLimitPerMinute'] },
    {
      name: 'circuit breaker out of range',
      body: stdio({ circuitBreaker: { failureThreshold: 0, resetTimeoutMs: 10 } }),
      status: 400,
      code: 'VALIDATION_FAILED',
      paths: ['circuitBreaker.failureThreshold', 'circuitBreaker.resetTimeoutMs'],
    },
    { name: 'env values not strings', body: stdio({ env: { A: 1 } }), status: 400, code: 'VALIDATION_FAILED', paths: ['env'] },
    { name: 'command not found', body: stdio({ command: 'no-such-binary-xyz' }), status: 400, code: 'VALIDATION_FAILED', paths: ['command'] },
    { name: 'relative command path', body: stdio({ command: './server.sh' }), status: 400, code: 'VALIDATION_FAILED', paths: ['command'] },
    { name: 'stdio without a command', body: { name: 'bad', transport: 'stdio' }, status: 400, code: 'VALIDATION_FAILED', paths: ['command'] },
    { name: 'cwd that does not exist', body: stdio({ cwd: '/no/such/dir' }), status: 400, code: 'VALIDATION_FAILED', paths: ['cwd'] },
    { name: 'pluginDir that does not exist', body: { name: 'bad', transport: 'stdio', pluginDir: '/no/such/plugin' }, status: 400, code: 'VALIDATION_FAILED', paths: ['pluginDir'] },
    { name: 'relative pluginDir', body: { name: 'bad', transport: 'stdio', pluginDir: 'plugins/x' }, status: 400, code: 'VALIDATION_FAILED', paths: ['pluginDir'] },
    { name: 'missing manifest', body: { name: 'bad', transport: 'stdio', pluginDir: emptyDir }, status: 400, code: 'VALIDATION_FAILED', paths: ['pluginDir'] },
    { name: 'manifest not JSON', body: { name: 'bad', transport: 'stdio', pluginDir: badJsonDir }, status: 400, code: 'VALIDATION_FAILED', paths: ['plugin.json'], exact: false },
    {
      name: 'manifest breaking the schema in several places',
      body: { name: 'bad', transport: 'stdio', pluginDir: badSchemaDir },
      status: 400,
      code: 'VALIDATION_FAILED',
      paths: ['server.json:name', 'server.json:version', 'server.json:packages[0].identifier', 'server.json:packages[0].transport.type', 'server.json:extra'],
      exact: false,
    },
    {
      name: 'required env missing, literal secret, bad choice, unknown reference — all at once',
      body: { name: 'bad', transport: 'stdio', pluginDir: withSecretDecl, env: { API_TOKEN: 'plain-text-token', LEVEL: 'medium', EXTRA: '${secret:NOPE}' } },
      status: 400,
      code: 'VALIDATION_FAILED',
      paths: ['env.API_TOKEN', 'env.EXTRA', 'env.LEVEL', 'env.REGION'],
    },
    { name: 'malformed reference', body: stdio({ env: { A: '${vault:thing}' } }), status: 400, code: 'VALIDATION_FAILED', paths: ['env.A'] },
    { name: "reference to Toolplane's own settings", body: stdio({ env: { A: '${env:DATABASE_URL}' } }), status: 400, code: 'VALIDATION_FAILED', paths: ['env.A'] },
    { name: 'unset environment reference', body: stdio({ env: { A: '${env:SURELY_NOT_SET_ANYWHERE}' } }), status: 400, code: 'VALIDATION_FAILED', paths: ['env.A'] },
    { name: 'remote without url', body: { name: 'bad', transport: 'streamable-http' }, status: 400, code: 'VALIDATION_FAILED', paths: ['url'] },
    { name: 'url not http(s)', body: { name: 'bad', transport: 'sse', url: 'file:///etc/passwd' }, status: 400, code: 'VALIDATION_FAILED', paths: ['url'] },
    { name: 'url not a URL', body: { name: 'bad', transport: 'sse', url: 'not a url' }, status: 400, code: 'VALIDATION_FAILED', paths: ['url'] },
    { name: 'url with credentials', body: { name: 'bad', transport: 'streamable-http', url: 'http://user:pw@127.0.0.1/mcp' }, status: 400, code: 'VALIDATION_FAILED', paths: ['url'] },
    {
      name: 'stdio fields on a remote source',
      body: { name: 'bad', transport: 'streamable-http', url: 'http://127.0.0.1:1/mcp', command: 'node', env: { A: 'b' } },
      status: 400,
      code: 'VALIDATION_FAILED',
      paths: ['command', 'env'],
    },
    {
      name: 'transport-owned and malformed headers',
      body: { name: 'bad', transport: 'streamable-http', url: 'http://127.0.0.1:1/mcp', headers: { Host: 'x', 'Bad Header': 'y', 'X-Ok': 'line\nbreak' } },
      status: 400,
      code: 'VALIDATION_FAILED',
      paths: ['headers.Bad Header', 'headers.Host', 'headers.X-Ok'],
    },
    {
      name: 'shape and semantic problems reported together',
      body: { name: 'Nope', transport: 'stdio', command: 'no-such-binary-xyz', timeoutMs: 'soon', env: { 'BAD-NAME': 'x' } },
      status: 400,
      code: 'VALIDATION_FAILED',
      paths: ['command', 'env.BAD-NAME', 'name', 'timeoutMs'],
    },
    { name: 'huge body', raw: JSON.stringify({ name: 'big', transport: 'stdio', description: 'x'.repeat(2 * 1024 * 1024) }), status: 413, code: 'PAYLOAD_TOO_LARGE' },
  ];

  it('has at least 25 cases', () => {
    expect(cases().length).toBeGreaterThanOrEqual(25);
  });

  it.each(cases().map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const response = await h.api.request('POST', '/api/v1/sources', c.body, {
      raw: c.raw,
      headers: c.contentType ? { 'content-type': c.contentType } : {},
    });
    expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status: c.status, code: c.code });
    expect(typeof response.body.error.message).toBe('string');
    if (c.paths) {
      const paths = [...new Set((response.body.error.details as { path: string }[]).map((d) => d.path))].sort();
      if (c.exact === false) {
        for (const expected of c.paths) expect(paths.some((p) => p === expected || p.startsWith(expected))).toBe(true);
      } else {
        expect(paths).toEqual([...c.paths].sort());
      }
    }
    // Nothing was stored, and no secret literal echoed back.
    expect(JSON.stringify(response.body)).not.toContain('plain-text-token');
    const stored = await h.sql('SELECT count(*)::int AS n FROM sources');
    expect(stored[0].n).toBe(0);
  });

  it('keeps an unreachable source registered, unhealthy, with the reason', async () => {
    const response = await h.api.post('/api/v1/sources', { name: 'unreachable', transport: 'streamable-http', url: `http://127.0.0.1:${closedPort}/mcp` });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ health: 'unhealthy', toolCount: 0, consecutiveFailures: 1 });
    expect(response.body.lastError).toMatch(/127\.0\.0\.1|refused|ECONNREFUSED|fetch failed/i);
    const again = await h.api.post('/api/v1/sources', { name: 'unreachable', transport: 'streamable-http', url: `http://127.0.0.1:${closedPort}/mcp` });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('SOURCE_NAME_TAKEN');
    const refresh = await h.api.post('/api/v1/sources/unreachable/refresh');
    expect(refresh.status).toBe(502);
    expect(refresh.body.error.code).toBe('REFRESH_FAILED');
    expect((await h.api.get('/api/v1/sources/unreachable')).body).toMatchObject({ health: 'unhealthy', consecutiveFailures: 2 });
  });

  it('answers a missing or wrong API key with 401 and the one error shape', async () => {
    const none = await fetch(`${h.url}/api/v1/sources`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as any).error.code).toBe('UNAUTHENTICATED');
    const wrong = await fetch(`${h.url}/api/v1/sources`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as any).error.code).toBe('INVALID_API_KEY');
  });

  it('refuses unknown query parameters and bad cursors', async () => {
    const unknown = await h.api.get('/api/v1/tools?colour=blue&limit=0');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['colour', 'limit']);
    const cursor = await h.api.get('/api/v1/tools?cursor=!!!');
    expect(cursor.body.error.code).toBe('INVALID_CURSOR');
    const notFound = await h.api.get('/api/v1/no-such-route');
    expect(notFound.status).toBe(404);
    expect(notFound.body.error.code).toBe('NOT_FOUND');
  });
});
