import { createServer, type Server } from 'node:http';
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { exportJWK, generateKeyPair, SignJWT, type KeyObject } from 'jose';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, freePort } from '../helpers/upstreams.js';

/**
 * The official SDK client's own OAuth flow, headless (client credentials), against Toolplane:
 * refused with 401 and a `WWW-Authenticate` that names the Protected Resource Metadata, it reads
 * that metadata, finds the authorization server (this test's own, on loopback), gets a token for
 * the resource (RFC 8707 `resource`), and calls tools with it.
 */
describe("the SDK client's OAuth flow", () => {
  let h: Harness;
  let authServer: Server;
  let issuer: string;
  const tokenRequests: URLSearchParams[] = [];

  beforeAll(async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: 'flow', alg: 'ES256', use: 'sig' };
    const authPort = await freePort();
    issuer = `http://127.0.0.1:${authPort}`;
    authServer = createServer((request, response) => {
      const json = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (request.method === 'GET' && (request.url === '/.well-known/oauth-authorization-server' || request.url === '/.well-known/openid-configuration')) {
        return json(200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          grant_types_supported: ['client_credentials'],
          token_endpoint_auth_methods_supported: ['client_secret_basic'],
          response_types_supported: ['code'],
        });
      }
      if (request.method === 'GET' && request.url === '/jwks') return json(200, { keys: [jwk] });
      if (request.method === 'POST' && request.url === '/token') {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          const form = new URLSearchParams(body);
          tokenRequests.push(form);
          const basic = Buffer.from(String(request.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
          if (basic !== 'flow-client:flow-secret' || form.get('grant_type') !== 'client_credentials') return json(401, { error: 'invalid_client' });
          void new SignJWT({ scope: 'toolplane:agent' })
            .setProtectedHeader({ alg: 'ES256', kid: 'flow' })
            .setSubject('flow-client')
            .setIssuer(issuer)
            // The resource the client asked for (RFC 8707), as an authorization server binds it.
            .setAudience(form.get('resource') ?? 'none')
            .setIssuedAt()
            .setExpirationTime('5m')
            .sign(privateKey as KeyObject)
            .then((token) => json(200, { access_token: token, token_type: 'Bearer', expires_in: 300, scope: 'toolplane:agent' }));
        });
        return;
      }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => authServer.listen(authPort, '127.0.0.1', resolve));
    // Toolplane's resource URI must be the URL the client reaches it at: the client checks the metadata's `resource`.
    const port = await freePort();
    h = await startHarness({ PORT: String(port), TOOLPLANE_OIDC_ISSUER: issuer, TOOLPLANE_OIDC_AUDIENCE: `http://127.0.0.1:${port}` });
    expect((await h.api.post('/api/v1/sources', { name: 'ev', transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'] })).status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await new Promise((resolve) => authServer?.close(resolve));
  });

  it('discovers the authorization server from the 401, gets a token for the resource and calls a tool', async () => {
    const provider = new ClientCredentialsProvider({ clientId: 'flow-client', clientSecret: 'flow-secret', expectedIssuer: issuer });
    const client = new Client({ name: 'oauth-flow', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { authProvider: provider }));
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain('ev__echo');
      const result = await client.callTool({ name: 'ev__echo', arguments: { message: 'with a token' } });
      expect(JSON.stringify(result.content)).toContain('with a token');
    } finally {
      await client.close();
    }
    expect(tokenRequests.length).toBeGreaterThanOrEqual(1);
    expect(tokenRequests[0]!.get('resource')).toBe(`${h.url}/mcp`);
    const [row] = await h.sql(`SELECT caller_principal FROM executions ORDER BY started_at DESC LIMIT 1`);
    expect(row.caller_principal).toBe('oidc:flow-client@' + new URL(issuer).host);
  });
});
