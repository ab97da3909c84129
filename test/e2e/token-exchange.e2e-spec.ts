import { loadConfig } from '../../src/config/app-config.js';
import { OAuthTokenEndpoint } from '../../src/modules/connections/token-exchange/oauth-token-endpoint.js';
import { TokenExchangeCredentials } from '../../src/modules/connections/token-exchange/token-exchange-credentials.js';
import { OidcVerifier } from '../../src/modules/access/infrastructure/oidc-verifier.js';
import { InMemorySecretRepository } from '../../src/modules/secrets/testing/in-memory-secret-repository.js';
import type { UpstreamAuth } from '../../src/modules/sources/domain/upstream-auth.js';
import type { CredentialOutcome } from '../../src/modules/sources/domain/upstream-credentials.js';
import type { ProtocolEra, UpstreamTarget } from '../../src/modules/sources/domain/upstream.js';
import type { InvocationOutcome } from '../../src/modules/execution/domain/tool-invoker.port.js';
import type { Principal } from '../../src/shared/principal/principal.js';
import { McpToolExecutor } from '../../src/upstream/mcp-tool-executor.js';
import { TransportFactory } from '../../src/upstream/transport-factory.js';
import { startTokenExchangeIssuer, type TokenExchangeIssuer } from '../helpers/token-exchange-issuer.js';
import { makeApi, startHarness, type Harness } from '../helpers/toolplane-harness.js';

/**
 * Token exchange (RFC 8693) against test/fixtures/token-exchange-issuer.mjs: an OIDC issuer that
 * Toolplane trusts for its callers, its token endpoint, and an MCP server that only exchanged
 * tokens for its own audience open. The caller's token is verified by Toolplane's OidcVerifier,
 * exchanged by the token-exchange ModeCredentials through oauth4webapi, and the call sent by
 * Toolplane's own upstream client (McpToolExecutor) with what it answered.
 */
const AUDIENCE = 'http://toolplane.test';

describe('token exchange', () => {
  let idp: TokenExchangeIssuer;
  let h: Harness;
  let verifier: OidcVerifier;
  let credentials: TokenExchangeCredentials;
  let factory: TransportFactory;
  let executor: McpToolExecutor;
  let auth: UpstreamAuth;
  let sourceCount = 0;

  beforeAll(async () => {
    idp = await startTokenExchangeIssuer(AUDIENCE);
    const oidc = { TOOLPLANE_OIDC_ISSUER: idp.issuer, TOOLPLANE_OIDC_AUDIENCE: AUDIENCE, TOOLPLANE_OIDC_ROLES_CLAIM: 'roles' };
    h = await startHarness(oidc);
    verifier = new OidcVerifier(loadConfig({ PATH: process.env.PATH, ...oidc }).oidc!);
    credentials = new TokenExchangeCredentials(new OAuthTokenEndpoint(), new InMemorySecretRepository({ TE_CLIENT: idp.clientSecret }));
    auth = { mode: 'token-exchange', tokenExchange: { tokenEndpoint: idp.tokenEndpoint, audience: idp.mcpAudience, clientId: idp.clientId, clientSecret: '${secret:TE_CLIENT}' } };
  }, 60_000);

  beforeEach(() => {
    factory = new TransportFactory();
    executor = new McpToolExecutor(factory);
  });

  afterEach(async () => {
    await factory.closeAll();
  });

  afterAll(async () => {
    await h?.close();
    await idp?.stop();
  });

  const target = (era?: ProtocolEra): UpstreamTarget => ({
    sourceId: `crm-${++sourceCount}`,
    sourceName: 'crm',
    transport: 'streamable-http',
    lifecycle: 'singleton',
    args: [],
    env: {},
    url: idp.mcpUrl,
    headers: {},
    secrets: [],
    ...(era ? { era } : {}),
  });

  const ready = (outcome: CredentialOutcome): UpstreamTarget => {
    if (outcome.kind !== 'ready') throw new Error(`${outcome.code}: ${outcome.message}`);
    return outcome.target;
  };

  const whoami = async (upstream: UpstreamTarget): Promise<Record<string, unknown>> => {
    const answer: InvocationOutcome = await executor.invoke({ target: upstream, toolName: 'whoami', arguments: {}, timeoutMs: 15_000, maxResultBytes: 1024 * 1024 });
    if (answer.kind !== 'result' || answer.isError) throw new Error(`whoami failed: ${JSON.stringify(answer)}`);
    return answer.structuredContent as Record<string, unknown>;
  };

  const signIn = async (sub: string, options: { idToken?: boolean } = {}): Promise<{ principal: Principal; token: string }> => {
    const token = await idp.tokenFor(sub, options.idToken ? { idToken: true, aud: AUDIENCE } : {});
    return { principal: await verifier.verify(token), token };
  };

  it("trusts the issuer's tokens for callers, and answers nothing of the token itself", async () => {
    const token = await idp.tokenFor('carol');
    const me = await makeApi(h.url, token).get('/api/v1/access/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ kind: 'oidc', id: expect.stringMatching(/^oidc:carol@127\.0\.0\.1:\d+$/), name: 'carol' });
    expect(JSON.stringify(me.body)).not.toContain(token);
    expect((await makeApi(h.url, await idp.tokenFor('carol', { aud: 'http://elsewhere.test' })).get('/api/v1/access/me')).body.error.code).toBe('TOKEN_WRONG_AUDIENCE');
  });

  it.each<[string, ProtocolEra | undefined]>([
    ['negotiated', undefined],
    ['2025-11-25', 'legacy'],
    ['2026-07-28', 'modern'],
  ])("reaches the upstream as the caller, with a token exchanged for the upstream's audience (%s era)", async (_era, era) => {
    const before = (await idp.stats()).exchanges.length;
    const alice = await signIn('alice');
    const bob = await signIn('bob');
    const source = target(era);
    expect(await whoami(ready(await credentials.forCall({ target: source, auth, principal: alice.principal })))).toEqual({ sub: 'alice', aud: idp.mcpAudience, act: 'toolplane' });
    expect(await whoami(ready(await credentials.forCall({ target: source, auth, principal: bob.principal })))).toEqual({ sub: 'bob', aud: idp.mcpAudience, act: 'toolplane' });
    // Alice again: her exchanged token is reused, not exchanged anew.
    expect(await whoami(ready(await credentials.forCall({ target: source, auth, principal: alice.principal })))).toMatchObject({ sub: 'alice' });
    const { exchanges, bearerTokensSeen } = await idp.stats();
    expect(exchanges.slice(before)).toEqual([
      { sub: 'alice', subjectTokenType: 'urn:ietf:params:oauth:token-type:access_token', audience: idp.mcpAudience, resource: null, scope: null },
      { sub: 'bob', subjectTokenType: 'urn:ietf:params:oauth:token-type:access_token', audience: idp.mcpAudience, resource: null, scope: null },
    ]);
    // The subject tokens never travel upstream.
    expect(bearerTokensSeen).not.toContain(alice.token);
    expect(bearerTokensSeen).not.toContain(bob.token);
  });

  it('exchanges an ID token as one, with resource and scope when the source names them', async () => {
    const dave = await signIn('dave', { idToken: true });
    const byResource: UpstreamAuth = { mode: 'token-exchange', tokenExchange: { tokenEndpoint: idp.tokenEndpoint, resource: idp.mcpAudience, scopes: ['crm.read', 'crm.write'], clientId: idp.clientId, clientSecret: '${secret:TE_CLIENT}' } };
    expect(await whoami(ready(await credentials.forCall({ target: target(), auth: byResource, principal: dave.principal })))).toMatchObject({ sub: 'dave' });
    expect((await idp.stats()).exchanges.at(-1)).toEqual({ sub: 'dave', subjectTokenType: 'urn:ietf:params:oauth:token-type:id_token', audience: null, resource: idp.mcpAudience, scope: 'crm.read crm.write' });
  });

  it('exchanges again when the upstream answers 401 to the exchanged token', async () => {
    const erin = await signIn('erin');
    const source = target();
    const request = { target: source, auth, principal: erin.principal };
    const first = ready(await credentials.forCall(request));
    expect(await whoami(first)).toMatchObject({ sub: 'erin' });
    await idp.revokeExchanged();
    const refused = await executor.invoke({ target: first, toolName: 'whoami', arguments: {}, timeoutMs: 15_000, maxResultBytes: 1024 * 1024 }).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/401/);
    const renewed = ready(await credentials.afterUnauthorized(request));
    expect(renewed.headers.authorization).not.toBe(first.headers.authorization);
    expect(await whoami(renewed)).toMatchObject({ sub: 'erin' });
    // And the renewed token is the one kept.
    expect(ready(await credentials.forCall(request)).headers.authorization).toBe(renewed.headers.authorization);
  });

  it('tells an API-key caller that token exchange needs an OIDC sign-in, and asks the issuer nothing', async () => {
    const before = (await idp.stats()).exchanges.length;
    const keyHolder: Principal = { id: 'key-1', name: 'ci', kind: 'api-key', roles: ['agent'] };
    expect(await credentials.forCall({ target: target(), auth, principal: keyHolder })).toEqual({
      kind: 'required',
      code: 'UPSTREAM_CREDENTIAL_REQUIRED',
      message: expect.stringContaining('needs an OIDC sign-in'),
    });
    expect((await idp.stats()).exchanges).toHaveLength(before);
  });

  it("passes on the issuer's refusal (an audience it does not know, a wrong client secret) as a credential required", async () => {
    const frank = await signIn('frank');
    const elsewhere: UpstreamAuth = { mode: 'token-exchange', tokenExchange: { ...(auth as { tokenExchange: { tokenEndpoint: string; clientId: string } }).tokenExchange, audience: 'http://127.0.0.1:1/mcp' } };
    expect(await credentials.forCall({ target: target(), auth: elsewhere, principal: frank.principal })).toMatchObject({ kind: 'required', code: 'UPSTREAM_CREDENTIAL_REQUIRED', message: expect.stringContaining('invalid_target') });
    const wrongSecret = new TokenExchangeCredentials(new OAuthTokenEndpoint(), new InMemorySecretRepository({ TE_CLIENT: 'not-the-secret' }));
    expect(await wrongSecret.forCall({ target: target(), auth, principal: frank.principal })).toMatchObject({ kind: 'required', message: expect.stringContaining('invalid_client') });
  });
});
