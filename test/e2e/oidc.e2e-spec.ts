import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type KeyObject } from 'jose';
import { makeApi, startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, freePort } from '../helpers/upstreams.js';

/**
 * OAuth bearer tokens as MCP's authorization spec asks of a resource server: an issuer of this
 * test's own on loopback (its JWKS, keys it rotates), tokens it mints; Toolplane checks issuer,
 * audience (RFC 8707), algorithm, expiry and signature, maps roles and tool restrictions from
 * claims, publishes Protected Resource Metadata (RFC 9728) and points 401/403 answers to it.
 */
const AUDIENCE = 'http://toolplane.test';

describe('OIDC bearer tokens', () => {
  let h: Harness;
  let jwks: Server;
  let issuer: string;
  let published: JWK[] = [];
  let current: { kid: string; privateKey: KeyObject };

  const newKey = async (kid: string) => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    return { kid, privateKey: privateKey as KeyObject, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } };
  };

  const token = (claims: Record<string, unknown>, options: { audience?: string | string[]; issuer?: string; expiresIn?: string; key?: { kid: string; privateKey: KeyObject } } = {}) => {
    const key = options.key ?? current;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: key.kid })
      .setSubject(String(claims.sub ?? 'user-1'))
      .setIssuer(options.issuer ?? issuer)
      .setAudience(options.audience ?? `${AUDIENCE}/mcp`)
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '5m')
      .sign(key.privateKey);
  };

  beforeAll(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    const first = await newKey('k1');
    current = first;
    published = [first.jwk];
    jwks = createServer((request, response) => {
      if (request.url === '/jwks') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: published }));
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => jwks.listen(port, '127.0.0.1', resolve));
    h = await startHarness({
      TOOLPLANE_OIDC_ISSUER: issuer,
      TOOLPLANE_OIDC_JWKS_URL: `${issuer}/jwks`,
      TOOLPLANE_OIDC_AUDIENCE: AUDIENCE,
      TOOLPLANE_OIDC_ROLES_CLAIM: 'realm_access.roles',
      TOOLPLANE_OIDC_JWKS_COOLDOWN_SECONDS: '0',
      TOOLPLANE_AUTH_FAILURES_PER_MINUTE: '1000000',
    });
    expect((await h.api.post('/api/v1/sources', { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'] })).status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await new Promise((resolve) => jwks?.close(resolve));
  });

  const mcpList = (bearer?: string, path = '/mcp') =>
    makeApi(h.url, bearer).request('POST', path, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, { headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' } });

  it('accepts a token for this resource, maps its roles from a Keycloak-style claim, and names the person', async () => {
    const agent = await token({ sub: 'alice', preferred_username: 'alice', realm_access: { roles: ['agent', 'offline_access'] } });
    expect((await mcpList(agent)).status).toBe(200);
    const api = makeApi(h.url, agent);
    expect((await api.get('/api/v1/tools')).status).toBe(200);
    const call = await api.post('/api/v1/tools/ev__echo/invoke', { arguments: { message: 'hi' } });
    expect(call.status).toBe(200);
    expect(call.body.caller).toMatchObject({ principalId: expect.stringMatching(/^oidc:alice@127\.0\.0\.1:\d+$/), principalName: 'alice' });
    // An agent role holds no administration.
    expect((await api.get('/api/v1/sources')).body.error.code).toBe('FORBIDDEN');
    // Roles from `scope` too, and an audience that is the resource itself.
    const auditor = await token({ scope: 'openid toolplane:auditor' }, { audience: AUDIENCE });
    expect((await makeApi(h.url, auditor).get('/api/v1/sources')).status).toBe(200);
  });

  it('refuses tokens for another resource, from another issuer, expired, or signed with a shared secret', async () => {
    const refusedWith = async (bearer: string) => {
      const response = await makeApi(h.url, bearer).get('/api/v1/tools');
      return `${response.status} ${response.body.error?.code}`;
    };
    const roles = { realm_access: { roles: ['admin'] } };
    expect(await refusedWith(await token(roles, { audience: 'http://other.test/mcp' }))).toBe('401 TOKEN_WRONG_AUDIENCE');
    expect(await refusedWith(await token(roles, { audience: 'http://toolplane.test.evil.example' }))).toBe('401 TOKEN_WRONG_AUDIENCE');
    expect(await refusedWith(await token(roles, { issuer: 'http://127.0.0.1:1' }))).toBe('401 TOKEN_WRONG_ISSUER');
    expect(await refusedWith(await token(roles, { expiresIn: '-5m' }))).toBe('401 TOKEN_EXPIRED');
    const hs256 = await new SignJWT(roles).setProtectedHeader({ alg: 'HS256' }).setSubject('mallory').setIssuer(issuer).setAudience(AUDIENCE).setExpirationTime('5m').sign(new TextEncoder().encode('x'.repeat(32)));
    expect(await refusedWith(hs256)).toBe('401 TOKEN_INVALID');
    const foreign = await newKey('k1');
    expect(await refusedWith(await token(roles, { key: foreign }))).toBe('401 TOKEN_INVALID');
  });

  it('fetches the keys again when a token names a new kid (key rotation)', async () => {
    const rotated = await newKey('k2');
    published = [rotated.jwk];
    const response = await makeApi(h.url, await token({ realm_access: { roles: ['admin'] } }, { key: rotated })).get('/api/v1/sources');
    expect(response.status).toBe(200);
    current = rotated;
  });

  it('restricts an agent to the tools its claims name', async () => {
    const restricted = await token({ sub: 'bot', realm_access: { roles: ['agent'] }, toolplane_allowed_tools: ['ev__echo'] });
    const listed = await mcpList(restricted);
    expect(listed.body.result.tools.map((t: { name: string }) => t.name)).toEqual(['ev__echo']);
    expect((await makeApi(h.url, restricted).post('/api/v1/tools/ev__get-sum/invoke', { arguments: { a: 1, b: 2 } })).body.error.code).toBe('TOOL_NOT_ALLOWED');

    // Bound to groups by a claim: nothing outside them.
    const bound = await token({ sub: 'support', realm_access: { roles: ['agent'] }, toolplane_allowed_groups: ['support'] });
    expect((await makeApi(h.url, bound).get('/api/v1/access/me')).body).toMatchObject({ kind: 'oidc', allowedGroups: ['support'] });
    expect((await mcpList(bound)).body.result.tools).toEqual([]);
  });

  it('publishes Protected Resource Metadata for every MCP endpoint and points 401 and 403 answers to it', async () => {
    const metadata = await makeApi(h.url, undefined).get('/.well-known/oauth-protected-resource/mcp');
    expect(metadata.status).toBe(200);
    expect(metadata.body).toEqual({
      resource: `${AUDIENCE}/mcp`,
      authorization_servers: [issuer],
      scopes_supported: ['toolplane:admin', 'toolplane:operator', 'toolplane:agent', 'toolplane:auditor', 'toolplane:reviewer'],
      bearer_methods_supported: ['header'],
      resource_name: 'Toolplane',
    });
    expect((await makeApi(h.url, undefined).get('/.well-known/oauth-protected-resource/mcp/sources/ev')).body.resource).toBe(`${AUDIENCE}/mcp/sources/ev`);
    expect((await makeApi(h.url, undefined).get('/.well-known/oauth-protected-resource/mcp/gateway')).body.resource).toBe(`${AUDIENCE}/mcp/gateway`);

    const anonymous = await mcpList(undefined, '/mcp/gateway');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${AUDIENCE}/.well-known/oauth-protected-resource/mcp/gateway", scope="toolplane:agent"`);
    const auditor = await mcpList(await token({ realm_access: { roles: ['auditor'] } }));
    expect(auditor.status).toBe(403);
    expect(auditor.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", resource_metadata="${AUDIENCE}/.well-known/oauth-protected-resource/mcp", scope="toolplane:agent"`);
  });
});
