import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { makeApi, startHarness, type ApiResponse, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, FIXTURES, freePort, startHttpUpstream, type RunningUpstream } from '../helpers/upstreams.js';
import { consent, registerOAuthSource, startOAuthUpstream, type OAuthUpstream } from '../helpers/oauth-upstream.js';
import { startTokenExchangeIssuer, type TokenExchangeIssuer } from '../helpers/token-exchange-issuer.js';

/**
 * Secrets and API keys go in and never come out: after registering sources with secret env and
 * headers (and principals' own `${user-secret:…}` values), creating keys of every role, calling
 * tools over REST and MCP, connecting to an OAuth upstream, calling through token exchange and
 * reading everything an admin or auditor can read, no API response, no log line, no file under the
 * data directory and no row of the database holds a secret value, an API key, an OAuth token or
 * client secret (hashes are fine), the OIDC token a caller signed in with (kept beside its
 * principal for token exchange), or any token its issuer exchanged for an upstream.
 */
describe('secret leaks', () => {
  let h: Harness;
  let echo: RunningUpstream;
  let oauth: OAuthUpstream;
  let idp: TokenExchangeIssuer;
  const OIDC_AUDIENCE = 'http://toolplane.test';
  const secrets = { STDIO_TOKEN: 'sv-stdio-7f3a9c1e-leakcheck', HEADER_TOKEN: 'sv-header-2b8d4e6f-leakcheck' };
  /** Each principal's own values (`${user-secret:…}`), by the principal that stores them. */
  const userSecrets = { admin: 'us-admin-5d1c8a2e-leakcheck', agent: 'us-agent-9b3f0c7d-leakcheck' };
  const keys: string[] = [];
  const responses: string[] = [];

  const record = <T>(response: ApiResponse<T>): ApiResponse<T> => {
    responses.push(JSON.stringify(response.body ?? null), JSON.stringify([...response.headers.entries()]));
    return response;
  };

  beforeAll(async () => {
    idp = await startTokenExchangeIssuer(OIDC_AUDIENCE);
    const port = await freePort();
    h = await startHarness({ LOG_LEVEL: 'debug', PORT: String(port), TOOLPLANE_PUBLIC_URL: `http://127.0.0.1:${port}`, TOOLPLANE_OIDC_ISSUER: idp.issuer, TOOLPLANE_OIDC_AUDIENCE: OIDC_AUDIENCE, TOOLPLANE_OIDC_ROLES_CLAIM: 'roles' });
    echo = await startHttpUpstream((port) => [join(FIXTURES, 'http-echo-server.mjs'), '--port', String(port)], '/mcp');
    oauth = await startOAuthUpstream();
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await echo?.stop();
    await oauth?.stop();
    await idp?.stop();
  });

  it('lets none of them out anywhere', async () => {
    for (const [name, value] of Object.entries(secrets)) record(await h.api.put(`/api/v1/secrets/${name}`, { value }));
    record(await h.api.post('/api/v1/sources', { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'], env: { API_TOKEN: '${secret:STDIO_TOKEN}' } }));
    record(await h.api.post('/api/v1/sources/validate', { name: 'ev2', transport: 'stdio', command: 'node', args: [EVERYTHING, 'stdio'], env: { API_TOKEN: '${secret:STDIO_TOKEN}' } }));
    record(await h.api.post('/api/v1/sources', { name: 'remote', transport: 'streamable-http', url: echo.url, headers: { Authorization: 'Bearer ${secret:HEADER_TOKEN}' } }));
    for (const role of ['admin', 'operator', 'agent', 'auditor']) {
      // The one answer that shows a key, by design: not searched.
      const created = await h.api.post('/api/v1/api-keys', { name: `${role} key`, role });
      keys.push(created.body.key);
    }
    const [adminKey, operatorKey, agentKey, auditorKey] = keys as [string, string, string, string];

    // Calls over REST and MCP, by several principals.
    const asAgent = makeApi(h.url, agentKey);
    record(await asAgent.post('/api/v1/tools/ev__echo/invoke', { arguments: { message: 'hello' } }));
    record(await asAgent.post('/api/v1/tools/remote__echo/invoke', { arguments: { message: 'hello' } }));
    // A tool that answers its own environment, the secret included: the agent must not see it.
    const env = record(await asAgent.post('/api/v1/tools/ev__get-env/invoke', { arguments: {} }));
    expect(env.status).toBe(200);
    expect(JSON.stringify(env.body.result)).toMatch(/\[secret:[A-Z_]+\]/);
    const client = new Client({ name: 'leak-check', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${agentKey}` } } }));
    responses.push(JSON.stringify(await client.listTools()), JSON.stringify(await client.callTool({ name: 'remote__echo', arguments: { message: 'over mcp' } })));
    await client.close();
    // What an upstream says while a call runs (log messages) reaches the caller scrubbed too.
    record(await h.api.post('/api/v1/sources', { name: 'mod', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [join(FIXTURES, 'modern-server.mjs'), 'stdio'], env: { EXTRA_TOOLS: '1', LEAK_TOKEN: '${secret:STDIO_TOKEN}' } }));
    const logs: unknown[] = [];
    const chatty = new Client({ name: 'leak-check-logs', version: '1' });
    chatty.setNotificationHandler('notifications/message', (notification) => void logs.push(notification.params));
    await chatty.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${agentKey}` } } }));
    await chatty.setLoggingLevel('info').catch(() => undefined);
    responses.push(JSON.stringify(await chatty.callTool({ name: 'mod__log_env', arguments: { name: 'LEAK_TOKEN' }, _meta: { 'io.modelcontextprotocol/logLevel': 'info' } })));
    await chatty.close();
    expect(logs).toHaveLength(1);
    expect(JSON.stringify(logs)).toContain('[secret:');
    responses.push(JSON.stringify(logs));
    // A person signed in with OIDC, over REST and MCP: the token is only ever presented.
    const subjectToken = await idp.tokenFor('leak-alice', { roles: ['agent'] });
    keys.push(subjectToken);
    const asPerson = makeApi(h.url, subjectToken);
    expect(record(await asPerson.post('/api/v1/tools/remote__echo/invoke', { arguments: { message: 'as a person' } })).status).toBe(200);
    record(await asPerson.get('/api/v1/access/me'));
    record(await asPerson.get('/api/v1/tools?format=mcp'));
    const person = new Client({ name: 'leak-check-oidc', version: '1' });
    await person.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${subjectToken}` } } }));
    responses.push(JSON.stringify(await person.listTools()), JSON.stringify(await person.callTool({ name: 'remote__echo', arguments: { message: 'over mcp as a person' } })));
    await person.close();
    // Through token exchange: the person's token is exchanged for the upstream's (both canaries).
    record(await h.api.put('/api/v1/secrets/TE_CLIENT', { value: idp.clientSecret }));
    const oidcAdminToken = await idp.tokenFor('leak-olga', { roles: ['admin'] });
    keys.push(oidcAdminToken);
    const registered = record(await makeApi(h.url, oidcAdminToken).post('/api/v1/sources?wait=true', { name: 'exchanged', transport: 'streamable-http', url: idp.mcpUrl, upstreamAuth: { mode: 'token-exchange', tokenExchange: { tokenEndpoint: idp.tokenEndpoint, audience: idp.mcpAudience, clientId: idp.clientId, clientSecret: '${secret:TE_CLIENT}' } } }));
    expect(registered.body.health).toBe('healthy');
    const asThem = record(await asPerson.post('/api/v1/tools/exchanged__whoami/invoke', { arguments: {} }));
    expect(JSON.stringify(asThem.body.result)).toContain('leak-alice');
    record(await makeApi(h.url, operatorKey).post('/api/v1/sources/remote/refresh', {}));
    // An OAuth connection of the agent (its tokens and Toolplane's client secret are canaries too).
    await registerOAuthSource(h, 'guarded', oauth.mcpUrl);
    const started = record(await asAgent.request('GET', '/api/v1/sources/guarded/connect', undefined, { headers: { accept: 'application/json' } }));
    expect((await consent(started.body.authorizationUrl, 'agent')).status).toBe(302);
    expect(record(await asAgent.get('/api/v1/me/connections')).body.items).toEqual(expect.arrayContaining([expect.objectContaining({ source: 'guarded', status: 'connected' })]));
    record(await makeApi(h.url, adminKey).patch('/api/v1/sources/ev', { timeoutMs: 20_000 }));

    // Each principal's own values: stored, sent upstream with its calls (stdio env and HTTP header), listed.
    record(await h.api.put('/api/v1/me/secrets/MINE', { value: userSecrets.admin }));
    record(await asAgent.put('/api/v1/me/secrets/MINE', { value: userSecrets.agent }));
    record(await h.api.post('/api/v1/sources', { name: 'ev-mine', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'], env: { API_TOKEN: '${user-secret:MINE}' }, upstreamAuth: { mode: 'user-secret' } }));
    record(await h.api.post('/api/v1/sources', { name: 'remote-mine', transport: 'streamable-http', url: echo.url, headers: { Authorization: 'Bearer ${user-secret:MINE}' }, upstreamAuth: { mode: 'user-secret' } }));
    const mine = record(await asAgent.post('/api/v1/tools/ev-mine__get-env/invoke', { arguments: {} }));
    expect(mine.status).toBe(200);
    expect(JSON.stringify(mine.body.result)).toContain('[secret:');
    record(await asAgent.post('/api/v1/tools/remote-mine__echo/invoke', { arguments: { message: 'mine' } }));
    record(await asAgent.get('/api/v1/me/secrets'));
    for (const path of ['/api/v1/sources/ev-mine', '/api/v1/sources/remote-mine', '/api/v1/sources/ev-mine/user-secrets']) record(await h.api.get(path));

    // Everything that can be read.
    for (const api of [h.api, makeApi(h.url, auditorKey)]) {
      for (const path of ['/api/v1/sources', '/api/v1/sources/ev', '/api/v1/sources/remote', '/api/v1/sources/guarded', '/api/v1/secrets', '/api/v1/tools?limit=200', '/api/v1/executions?limit=200', '/api/v1/executions/stats', '/api/v1/audit-events?limit=200', '/api/v1/audit-events/verify', '/api/v1/api-keys', '/docs/openapi.json']) {
        record(await api.get(path));
      }
    }
    const executions = (await h.api.get('/api/v1/executions?limit=200')).body.items as { id: string }[];
    expect(executions.length).toBeGreaterThanOrEqual(3);
    for (const { id } of executions) record(await h.api.get(`/api/v1/executions/${id}`));

    record(await h.api.get('/api/v1/sources/guarded/connections'));
    const oauthSecrets = [...(await oauth.tokens()).map((token) => token.token), ...(await oauth.clients()).flatMap((client) => (client.secret ? [client.secret] : []))];
    expect(oauthSecrets).toHaveLength(3);
    const exchanged = (await idp.stats()).exchangedTokens;
    expect(exchanged.length).toBeGreaterThanOrEqual(1);
    const needles = [...Object.values(secrets), ...Object.values(userSecrets), ...keys, h.adminKey, ...oauthSecrets, ...exchanged, idp.clientSecret];
    const found: string[] = [];
    const search = (where: string, text: string) => {
      for (const needle of needles) if (text.includes(needle)) found.push(`${where} holds ${needle.slice(0, 12)}…`);
    };
    responses.forEach((text, i) => search(`response ${i}`, text));
    search('the log', h.process.logs());
    for (const file of filesUnder(h.dataDir)) {
      // The bootstrap admin key lives in its own file when generated; here it is given by environment.
      search(file, readFileSync(file).toString('latin1'));
    }
    const tables = await h.sql<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`);
    expect(tables.length).toBeGreaterThanOrEqual(6);
    for (const { table_name } of tables) {
      const rows = await h.sql<{ row: string }>(`SELECT t::text AS row FROM "${table_name}" t`);
      search(`table ${table_name}`, rows.map((r) => r.row).join('\n'));
    }
    expect(found).toEqual([]);
    // Enough was searched: every answer above, and the stdio secret did reach its process (get-env showed its marker).
    expect(responses.length).toBeGreaterThan(40);
  });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    try {
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    } catch {
      return [];
    }
  });
}
