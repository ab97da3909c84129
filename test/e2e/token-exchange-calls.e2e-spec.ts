import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startTokenExchangeIssuer, type TokenExchangeIssuer } from '../helpers/token-exchange-issuer.js';
import { makeApi, startHarness, type Harness } from '../helpers/toolplane-harness.js';

/**
 * A token-exchange source through Toolplane's own routes: registered by a person signed in with
 * OIDC (its discovery principal, whose exchanged token lists the tools), then called over REST and
 * `/mcp` by people whose own tokens are exchanged for the upstream's audience
 * (test/fixtures/token-exchange-issuer.mjs answers `whoami` with the exchanged token's subject).
 */
const AUDIENCE = 'http://toolplane.test';

describe('token exchange through REST and MCP', () => {
  let idp: TokenExchangeIssuer;
  let h: Harness;

  beforeAll(async () => {
    idp = await startTokenExchangeIssuer(AUDIENCE);
    h = await startHarness({ TOOLPLANE_OIDC_ISSUER: idp.issuer, TOOLPLANE_OIDC_AUDIENCE: AUDIENCE, TOOLPLANE_OIDC_ROLES_CLAIM: 'roles' });
    expect((await h.api.put('/api/v1/secrets/TE_CLIENT', { value: idp.clientSecret })).status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await idp?.stop();
  });

  const asPerson = async (sub: string, roles = ['agent']) => makeApi(h.url, await idp.tokenFor(sub, { roles }));
  const spec = (name: string) => ({
    name,
    transport: 'streamable-http',
    url: idp.mcpUrl,
    upstreamAuth: { mode: 'token-exchange', tokenExchange: { tokenEndpoint: idp.tokenEndpoint, audience: idp.mcpAudience, clientId: idp.clientId, clientSecret: '${secret:TE_CLIENT}' } },
  });

  it('discovers with its registrant’s exchanged token, and each caller reaches the upstream as itself over REST and MCP', async () => {
    const admin = await asPerson('olga', ['admin']);
    const created = await admin.post('/api/v1/sources?wait=true', spec('crm'));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ health: 'healthy', upstreamAuth: { mode: 'token-exchange', discoveryPrincipal: { name: expect.any(String) } } });
    expect((await idp.stats()).exchanges.map((e) => e.sub)).toContain('olga');

    const alice = await asPerson('alice');
    const bob = await asPerson('bob');
    const viaRest = async (api: typeof alice) => {
      const answer = await api.post('/api/v1/tools/crm__whoami/invoke', { arguments: {} });
      expect(answer.status).toBe(200);
      return answer.body.result.structuredContent ?? JSON.parse(answer.body.result.content[0].text);
    };
    expect(await viaRest(alice)).toMatchObject({ sub: 'alice', aud: idp.mcpAudience });
    expect(await viaRest(bob)).toMatchObject({ sub: 'bob', aud: idp.mcpAudience });

    const client = new Client({ name: 'te-check', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${await idp.tokenFor('carol', { roles: ['agent'] })}` } } }));
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toContain('crm__whoami');
    const called = await client.callTool({ name: 'crm__whoami', arguments: {} });
    expect(called.isError).toBeFalsy();
    expect(JSON.stringify(called.content)).toContain('carol');
    await client.close();

    // The upstream never saw a caller's own token, only exchanged ones.
    const stats = await idp.stats();
    for (const seen of stats.bearerTokensSeen) expect(stats.exchangedTokens).toContain(seen);
  });

  it('refuses an API-key caller with UPSTREAM_CREDENTIAL_REQUIRED over REST and an error result over MCP, and notes it in the catalog', async () => {
    const admin = await asPerson('olga', ['admin']);
    expect((await admin.post('/api/v1/sources?wait=true', spec('crm2'))).status).toBe(201);
    const key = await h.api.post('/api/v1/api-keys', { name: 'bot', role: 'agent' });
    expect(key.status).toBe(201);
    const bot = makeApi(h.url, key.body.key);
    const refused = await bot.post('/api/v1/tools/crm2__whoami/invoke', { arguments: {} });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UPSTREAM_CREDENTIAL_REQUIRED');

    const listed = await bot.get('/api/v1/tools?format=mcp&limit=200');
    const tool = (listed.body.items ?? listed.body.tools).find((t: { name: string }) => t.name === 'crm2__whoami');
    expect(tool._meta['io.toolplane/connection']).toMatchObject({ required: true, source: 'crm2' });

    const client = new Client({ name: 'te-bot', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key.body.key}` } } }));
    const called = await client.callTool({ name: 'crm2__whoami', arguments: {} });
    expect(called.isError).toBe(true);
    expect(JSON.stringify(called.content)).toMatch(/OIDC/);
    await client.close();
  });

  it("runs a call held for approval as its caller after the decision: the caller's token kept sealed while it waits, erased after", async () => {
    const admin = await asPerson('olga', ['admin']);
    expect((await admin.post('/api/v1/sources?wait=true', spec('crm3'))).status).toBe(201);
    const rule = await h.api.post('/api/v1/interceptors', { name: 'crm3-approval', kind: 'approval', scope: { tools: ['crm3__whoami'] }, approvers: { roles: ['admin'] } });
    expect(rule.status).toBe(201);
    const daveToken = await idp.tokenFor('dave', { roles: ['agent'] });
    const dave = makeApi(h.url, daveToken);

    const held = await dave.post('/api/v1/tools/crm3__whoami/invoke', { arguments: {} });
    expect([held.status, held.body.status]).toEqual([202, 'pending_approval']);
    const [row] = await h.sql<{ id: string; token: string | null; input: string }>('SELECT id, sealed_caller_token::text AS token, sealed_input::text AS input FROM approvals WHERE execution_id = $1', [held.body.id]);
    expect(row!.token).not.toBeNull();
    expect(row!.token).not.toContain(daveToken);
    expect(row!.input).not.toContain(daveToken);

    expect((await admin.post(`/api/v1/approvals/${row!.id}/approve`, {})).status).toBe(200);
    let record: any;
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
      record = (await dave.get(`/api/v1/executions/${held.body.id}`)).body;
      if (record.status !== 'pending_approval' && record.status !== 'working') break;
    }
    expect(record).toMatchObject({ status: 'succeeded' });
    expect(record.result.structuredContent ?? JSON.parse(record.result.content[0].text)).toMatchObject({ sub: 'dave', aud: idp.mcpAudience });
    expect(await h.sql('SELECT sealed_caller_token FROM approvals WHERE id = $1', [row!.id])).toEqual([{ sealed_caller_token: null }]);
  });
});
