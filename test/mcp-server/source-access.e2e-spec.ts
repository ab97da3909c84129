import { createServer, type Server } from 'node:http';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type KeyObject } from 'jose';
import { expectNoSuiteProcesses, SUITE_TAG } from '../helpers/processes.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, FIXTURES, freePort, MEMORY_DIR } from '../helpers/upstreams.js';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const AUDIENCE = 'http://toolplane.test';
const DOCUMENT = 'demo://resource/static/document/architecture.md';
const UNKNOWN = 'no-such-source';

type Outcome = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * `/mcp/sources/{name}` of a source the caller may not use: every MCP method, in both protocol
 * eras, answers as for a source that does not exist, starts nothing upstream, and is recorded —
 * for agents restricted by `allowedSources`, by `allowedTools`, and by the claims of an OIDC token.
 */
describe('/mcp/sources/{name} of a source the caller may not use', () => {
  let h: Harness;
  let dir: string;
  let spawnLog: string;
  let jwks: Server;
  let issuer: string;
  const principals: Record<'bySources' | 'byTools' | 'oidc', { id: string; bearer: string }> = {} as never;
  const clients: Client[] = [];

  const starts = () => readFileSync(spawnLog, 'utf8').split('\n').filter(Boolean).length;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'source-access-'));
    // The plugins run as the sandbox's unprivileged user.
    chmodSync(dir, 0o777);
    spawnLog = join(dir, 'spawns.log');
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    jwks = createServer((request, response) => {
      if (request.url === '/jwks') response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => jwks.listen(port, '127.0.0.1', resolve));
    h = await startHarness({
      TOOLPLANE_OIDC_ISSUER: issuer,
      TOOLPLANE_OIDC_JWKS_URL: `${issuer}/jwks`,
      TOOLPLANE_OIDC_AUDIENCE: AUDIENCE,
      TOOLPLANE_OIDC_ROLES_CLAIM: 'realm_access.roles',
    });
    // Transient: every use of the source starts its plugin, and each start is a line of the spawn log.
    const everything = {
      name: 'everything',
      transport: 'stdio',
      lifecycle: 'transient',
      command: 'node',
      args: ['--import', join(FIXTURES, 'spawn-log.mjs'), EVERYTHING, 'stdio', SUITE_TAG],
      env: { SPAWN_LOG: spawnLog },
      sandbox: { writablePaths: [dir] },
      refreshIntervalSeconds: 0,
    };
    const memory = {
      name: 'memory',
      transport: 'stdio',
      lifecycle: 'singleton',
      command: 'node',
      args: [`${MEMORY_DIR}/dist/index.js`, SUITE_TAG],
      env: { MEMORY_FILE_PATH: join(dir, 'memory.json') },
      sandbox: { writablePaths: [dir] },
      refreshIntervalSeconds: 0,
    };
    for (const source of [everything, memory]) {
      const created = (await h.api.post('/api/v1/sources', source)).body;
      expect([created.name, created.health, created.lastError]).toEqual([source.name, 'healthy', null]);
    }
    const bySources = (await h.api.post('/api/v1/api-keys', { name: 'memory only', role: 'agent', allowedSources: ['memory'] })).body;
    const byTools = (await h.api.post('/api/v1/api-keys', { name: 'read graph only', role: 'agent', allowedTools: ['memory__read_graph'] })).body;
    const token = await new SignJWT({ realm_access: { roles: ['agent'] }, toolplane_allowed_sources: ['memory'] })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setSubject('bot')
      .setIssuer(issuer)
      .setAudience(`${AUDIENCE}/mcp`)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey as KeyObject);
    principals.bySources = { id: bySources.id, bearer: bySources.key };
    principals.byTools = { id: byTools.id, bearer: byTools.key };
    principals.oidc = { id: `oidc:bot@127.0.0.1:${port}`, bearer: token };
  }, 90_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await h?.close();
    await new Promise((resolve) => jwks?.close(resolve));
    await expectNoSuiteProcesses();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const transport = (source: string, bearer: string) =>
    new StreamableHTTPClientTransport(new URL(`${h.url}/mcp/sources/${source}`), { requestInit: { headers: { authorization: `Bearer ${bearer}` } } });

  /** What a promise came to, with the source's name taken out of errors so that two sources' answers compare. */
  const outcome = async (source: string, run: () => Promise<unknown>): Promise<Outcome> => {
    try {
      return { ok: true, value: await run() };
    } catch (error) {
      const { name, message, code } = error as { name: string; message: string; code?: unknown };
      return { ok: false, error: `${name} ${String(code)} ${message}`.replaceAll(source, '<source>') };
    }
  };

  /** A discover result to adopt that declares every capability, so that the client sends every request rather than answer some itself. */
  const everyCapability = async (client: Client) => {
    const discover = await client.discover();
    return { prior: { kind: 'modern' as const, discover: { ...discover, capabilities: { ...discover.capabilities, prompts: {}, resources: {}, completions: {} } } } };
  };

  /** Every MCP method of the SDK client, on a 2026-07-28 client that skips server/discover (it adopts one it was given). */
  const modernOutcomes = async (source: string, bearer: string, prior: Parameters<Client['connect']>[1]) => {
    const client = new Client({ name: 'probe', version: '1' }, { versionNegotiation: { mode: { pin: MODERN } } });
    clients.push(client);
    await client.connect(transport(source, bearer), prior);
    const bypass = { cacheMode: 'bypass' } as const;
    return {
      'tools/list': await outcome(source, () => client.listTools({}, bypass)),
      'tools/call': await outcome(source, () => client.callTool({ name: 'echo', arguments: { message: 'hi' } })),
      'prompts/list': await outcome(source, () => client.listPrompts({}, bypass)),
      'prompts/get': await outcome(source, () => client.getPrompt({ name: 'simple-prompt' })),
      'resources/list': await outcome(source, () => client.listResources({}, bypass)),
      'resources/templates/list': await outcome(source, () => client.listResourceTemplates({}, bypass)),
      'resources/read': await outcome(source, () => client.readResource({ uri: DOCUMENT }, bypass)),
      'completion/complete': await outcome(source, () => client.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'E' } })),
      'server/discover': await outcome(source, () => client.discover()),
    };
  };

  /** A 2025-era message without a session, or a GET / DELETE, as raw HTTP: status and body. */
  const legacyExchange = async (source: string, bearer: string, method: string, params: Record<string, unknown> | undefined, http: 'POST' | 'GET' | 'DELETE' = 'POST') => {
    // A stream that opens (a GET served) would never end by itself: what came within a second is its answer.
    const response = await fetch(`${h.url}/mcp/sources/${source}`, {
      method: http,
      signal: AbortSignal.timeout(1000),
      headers: {
        authorization: `Bearer ${bearer}`,
        accept: http === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream',
        'mcp-protocol-version': LEGACY,
        ...(http === 'POST' ? { 'content-type': 'application/json' } : {}),
        ...(http === 'DELETE' ? { 'mcp-session-id': 'any' } : {}),
      },
      ...(http === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, ...(params ? { params } : {}) }) } : {}),
    });
    const body = await response.text().catch(() => '(a stream that stayed open)');
    return `${response.status} ${body.replaceAll(source, '<source>')}`;
  };

  const LEGACY_MESSAGES: [string, Record<string, unknown> | undefined][] = [
    ['initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'probe', version: '1' } }],
    ['tools/list', {}],
    ['tools/call', { name: 'echo', arguments: { message: 'hi' } }],
    ['prompts/list', {}],
    ['prompts/get', { name: 'simple-prompt' }],
    ['resources/list', {}],
    ['resources/templates/list', {}],
    ['resources/read', { uri: DOCUMENT }],
    ['completion/complete', { ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'E' } }],
    ['ping', undefined],
  ];

  it.each(['bySources', 'byTools', 'oidc'] as const)('answers every method as for an unknown source and starts nothing (%s)', async (who) => {
    const { bearer } = principals[who];
    const before = starts();
    expect(before).toBeGreaterThanOrEqual(1); // the discovery at registration

    // 2026-07-28: the discover result of an endpoint the caller may use, adopted on the other two.
    const discovering = new Client({ name: 'probe', version: '1' }, { versionNegotiation: { mode: { pin: MODERN } } });
    clients.push(discovering);
    await discovering.connect(transport('memory', bearer));
    const prior = await everyCapability(discovering);
    const refused = await modernOutcomes('everything', bearer, prior);
    const unknown = await modernOutcomes(UNKNOWN, bearer, prior);
    expect(refused).toEqual(unknown);
    for (const [method, result] of Object.entries(refused)) expect([method, result.ok]).toEqual([method, false]);
    expect(refused['resources/read']).toMatchObject({ error: expect.stringMatching(/"code":-32001,"message":"No source named \\"<source>\\""/) });

    // The 2025 era: the SDK client's initialize, then each message on its own, GET and DELETE.
    const legacy = async (source: string) => {
      const client = new Client({ name: 'probe', version: '1' });
      clients.push(client);
      const answers: Record<string, unknown> = { connect: await outcome(source, () => client.connect(transport(source, bearer))) };
      for (const [method, params] of LEGACY_MESSAGES) answers[method] = await legacyExchange(source, bearer, method, params);
      answers.GET = await legacyExchange(source, bearer, 'GET', undefined, 'GET');
      answers.DELETE = await legacyExchange(source, bearer, 'DELETE', undefined, 'DELETE');
      return answers;
    };
    const refusedLegacy = await legacy('everything');
    expect(refusedLegacy).toEqual(await legacy(UNKNOWN));
    expect(refusedLegacy.connect).toMatchObject({ ok: false });
    expect(refusedLegacy['resources/read']).toMatch(/^404 .*No source named \\"<source>\\"/);

    // Nothing reached the transient plugin: no process started for any of it (a start comes within a second of its request).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(starts()).toBe(before);
  });

  it('lets the same callers use the source they may use, and an unrestricted one the other', async () => {
    const listed = async (bearer: string, source: string) => {
      const client = new Client({ name: 'allowed', version: '1' });
      clients.push(client);
      await client.connect(transport(source, bearer));
      return (await client.listTools()).tools.map((tool) => tool.name);
    };
    expect(await listed(principals.bySources.bearer, 'memory')).toEqual(expect.arrayContaining(['read_graph', 'create_entities']));
    expect(await listed(principals.oidc.bearer, 'memory')).toEqual(expect.arrayContaining(['read_graph', 'create_entities']));
    expect(await listed(principals.byTools.bearer, 'memory')).toEqual(['read_graph']);

    // The spawn log counts: the admin's read starts the transient plugin.
    const before = starts();
    const admin = new Client({ name: 'admin', version: '1' });
    clients.push(admin);
    await admin.connect(transport('everything', h.adminKey));
    const read = await admin.readResource({ uri: DOCUMENT });
    expect(read.contents[0]).toMatchObject({ uri: DOCUMENT });
    expect(starts()).toBeGreaterThan(before);
  });

  it('records each refusal: calls as rejected executions, every other request as an audit event', async () => {
    const rules = {
      bySources: 'allowedSources: "everything" matches none of ["memory"]',
      byTools: 'allowedTools: no tool of "everything" matches any of ["memory__read_graph"]',
      oidc: 'allowedSources: "everything" matches none of ["memory"]',
    };
    for (const [who, { id }] of Object.entries(principals) as [keyof typeof rules, { id: string }][]) {
      const calls = await h.sql(`SELECT qualified_name, status, channel, error->>'code' AS code, error->'details'->0->>'message' AS rule FROM executions WHERE caller_principal = $1 ORDER BY started_at`, [id]);
      // One modern and one 2025-era tools/call each.
      const refusedCall = { qualified_name: 'everything__echo', status: 'rejected', channel: 'mcp', code: 'TOOL_NOT_ALLOWED', rule: rules[who] };
      expect([who, calls]).toEqual([who, [refusedCall, refusedCall]]);
      const events = await h.sql(`SELECT target_type, target_name, details FROM audit_events WHERE actor = $1 AND action = 'source.access-refused'`, [id]);
      expect(events.every((event: { target_type: string; target_name: string }) => event.target_type === 'source' && event.target_name === 'everything')).toBe(true);
      const methods = new Set(events.map((event: { details: { method: string } }) => event.details.method));
      expect([who, [...methods].sort()]).toEqual([
        who,
        ['DELETE', 'GET', 'completion/complete', 'initialize', 'ping', 'prompts/get', 'prompts/list', 'resources/list', 'resources/read', 'resources/templates/list', 'server/discover', 'tools/list'],
      ]);
      expect(events.find((event: { details: { method: string } }) => event.details.method === 'resources/read').details).toEqual({ endpoint: '/mcp/sources/everything', method: 'resources/read', rule: rules[who] });
    }
    // The unknown source is no refusal: nothing recorded for it.
    expect(await h.sql(`SELECT 1 FROM audit_events WHERE target_name = $1`, [UNKNOWN])).toEqual([]);
  });

  it('leaks nothing of the other source on /mcp and /mcp/gateway', async () => {
    for (const { bearer } of Object.values(principals)) {
      const connect = async (path: string, prior?: Parameters<Client['connect']>[1]) => {
        const client = new Client({ name: 'catalog', version: '1' }, { versionNegotiation: { mode: { pin: MODERN } } });
        clients.push(client);
        await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${bearer}` } } }), prior);
        return client;
      };
      const all = await connect('/mcp', await everyCapability(await connect('/mcp')));
      const names = (await all.listTools({}, { cacheMode: 'bypass' })).tools.map((tool) => tool.name);
      expect(names.length).toBeGreaterThan(0);
      expect(names.every((name) => name.startsWith('memory__'))).toBe(true);
      // No prompts or resources are served there, of any source.
      for (const ask of [() => all.listResources(), () => all.listPrompts(), () => all.readResource({ uri: DOCUMENT }), () => all.getPrompt({ name: 'simple-prompt' })]) {
        expect(await outcome('everything', ask)).toEqual({ ok: false, error: expect.stringContaining('"code":-32601,"message":"Method not found"') });
      }
      const gateway = await connect('/mcp/gateway');
      const found = await gateway.callTool({ name: 'search_tools', arguments: { query: 'echo message everything', limit: 50 } });
      expect((found.structuredContent as { tools: { name: string }[] }).tools.every((tool) => tool.name.startsWith('memory__'))).toBe(true);
    }
  });
});
