import fc from 'fast-check';
import { rememberCallerToken } from '../../../shared/principal/caller-token.js';
import type { Principal } from '../../../shared/principal/principal.js';
import { InMemorySecretRepository } from '../../secrets/testing/in-memory-secret-repository.js';
import type { UpstreamAuth } from '../../sources/domain/upstream-auth.js';
import type { CredentialOutcome, CredentialRequest } from '../../sources/domain/upstream-credentials.js';
import type { UpstreamTarget } from '../../sources/domain/upstream.js';
import { ExchangedTokenCache, useUntil } from './exchanged-token-cache.js';
import { ACCESS_TOKEN_TYPE, ExchangeRefused, ExchangeUnavailable, ID_TOKEN_TYPE, TokenEndpoint, type ExchangeAnswer, type ExchangeRequest } from './token-endpoint.js';
import { subjectTokenType, TokenExchangeCredentials } from './token-exchange-credentials.js';

class FakeTokenEndpoint extends TokenEndpoint {
  readonly requests: ExchangeRequest[] = [];
  answer: (request: ExchangeRequest) => Promise<ExchangeAnswer> = async (request) => ({ accessToken: `exchanged-${this.requests.length}-for-${request.subjectToken}`, expiresIn: 300 });

  exchange(request: ExchangeRequest): Promise<ExchangeAnswer> {
    this.requests.push(request);
    return this.answer(request);
  }
}

const AUTH: UpstreamAuth = { mode: 'token-exchange', tokenExchange: { tokenEndpoint: 'http://127.0.0.1:9/token', audience: 'https://crm.example', clientId: 'toolplane', clientSecret: '${secret:TE_CLIENT}' } };
const TARGET: UpstreamTarget = { sourceId: 'src-1', sourceName: 'crm', transport: 'streamable-http', lifecycle: 'singleton', args: [], env: {}, url: 'http://127.0.0.1:9/mcp', headers: { 'x-tenant': 'acme' }, secrets: [] };

function signedIn(id: string, token: string): Principal {
  const principal: Principal = { id, name: id, kind: 'oidc', roles: ['agent'] };
  rememberCallerToken(principal, token);
  return principal;
}

function ready(outcome: CredentialOutcome): UpstreamTarget {
  if (outcome.kind !== 'ready') throw new Error(`not ready: ${outcome.message}`);
  return outcome.target;
}

describe('TokenExchangeCredentials', () => {
  let now: number;
  let endpoint: FakeTokenEndpoint;
  let credentials: TokenExchangeCredentials;
  const request = (principal: Principal, auth: UpstreamAuth = AUTH): CredentialRequest => ({ target: TARGET, auth, principal });

  beforeEach(() => {
    now = 1_000_000;
    endpoint = new FakeTokenEndpoint();
    credentials = new TokenExchangeCredentials(endpoint, new InMemorySecretRepository({ TE_CLIENT: 'client-secret-value' }), { maxCached: 3, defaultLifetimeMs: 60_000, now: () => now });
  });

  it("exchanges the caller's own token with the source's settings and sends only the exchanged one upstream, per principal", async () => {
    const alice = signedIn('oidc:alice@idp', 'subject-alice');
    const target = ready(await credentials.forCall(request(alice)));
    expect(endpoint.requests).toEqual([{ settings: (AUTH as { tokenExchange: object }).tokenExchange, clientSecret: 'client-secret-value', subjectToken: 'subject-alice', subjectTokenType: ACCESS_TOKEN_TYPE }]);
    expect(target.headers).toEqual({ 'x-tenant': 'acme', authorization: 'Bearer exchanged-1-for-subject-alice' });
    expect(JSON.stringify(target.headers)).not.toContain('"subject-alice');
    expect(target.secrets.map((s) => s.value)).toEqual(expect.arrayContaining(['exchanged-1-for-subject-alice', 'subject-alice']));
    expect(target).toMatchObject({ principalId: 'oidc:alice@idp', poolKey: 'src-1#oidc:alice@idp' });
    // The principal itself never carries the token.
    expect(JSON.stringify(alice)).not.toContain('subject-alice');
    const bob = ready(await credentials.forCall(request(signedIn('oidc:bob@idp', 'subject-bob'))));
    expect(bob.headers.authorization).toBe('Bearer exchanged-2-for-subject-bob');
  });

  it('reuses an exchanged token until shortly before it expires, then exchanges again', async () => {
    const alice = signedIn('oidc:alice@idp', 'subject-alice');
    await credentials.forCall(request(alice));
    now += 269_000;
    expect(ready(await credentials.forCall(request(alice))).headers.authorization).toBe('Bearer exchanged-1-for-subject-alice');
    now += 2_000; // 300 s of life, 30 s of margin
    expect(ready(await credentials.forCall(request(alice))).headers.authorization).toBe('Bearer exchanged-2-for-subject-alice');
    expect(endpoint.requests).toHaveLength(2);
  });

  it('exchanges again after an upstream 401, and a new subject token (a new sign-in) gets its own', async () => {
    const alice = signedIn('oidc:alice@idp', 'subject-alice');
    await credentials.forCall(request(alice));
    expect(ready(await credentials.afterUnauthorized(request(alice))).headers.authorization).toBe('Bearer exchanged-2-for-subject-alice');
    expect(ready(await credentials.forCall(request(alice))).headers.authorization).toBe('Bearer exchanged-2-for-subject-alice');
    const again = signedIn('oidc:alice@idp', 'subject-alice-2');
    expect(ready(await credentials.forCall(request(again))).headers.authorization).toBe('Bearer exchanged-3-for-subject-alice-2');
  });

  it('shares one exchange among concurrent first calls of a caller', async () => {
    const alice = signedIn('oidc:alice@idp', 'subject-alice');
    const answers = await Promise.all([1, 2, 3].map(() => credentials.forCall(request(alice))));
    expect(endpoint.requests).toHaveLength(1);
    expect(new Set(answers.map((a) => ready(a).headers.authorization)).size).toBe(1);
  });

  it('a source whose settings changed exchanges again (another audience)', async () => {
    const alice = signedIn('oidc:alice@idp', 'subject-alice');
    await credentials.forCall(request(alice));
    const other: UpstreamAuth = { mode: 'token-exchange', tokenExchange: { ...(AUTH as { tokenExchange: { tokenEndpoint: string; clientId: string } }).tokenExchange, audience: 'https://other.example' } };
    await credentials.forCall(request(alice, other));
    expect(endpoint.requests.map((r) => r.settings.audience)).toEqual(['https://crm.example', 'https://other.example']);
  });

  it('a caller without an OIDC token (an API key) is told that token exchange needs an OIDC sign-in', async () => {
    const keyHolder: Principal = { id: 'key-1', name: 'ci', kind: 'api-key', roles: ['agent'] };
    const outcome = await credentials.forCall(request(keyHolder));
    expect(outcome).toEqual({ kind: 'required', code: 'UPSTREAM_CREDENTIAL_REQUIRED', message: expect.stringContaining('needs an OIDC sign-in') });
    expect(endpoint.requests).toEqual([]);
  });

  it("an identity provider's refusal is a credential required; an unreachable one is UPSTREAM_UNAVAILABLE; neither is cached", async () => {
    const alice = signedIn('oidc:alice@idp', 'subject-alice');
    endpoint.answer = async () => {
      throw new ExchangeRefused('invalid_grant', 'subject token expired');
    };
    expect(await credentials.forCall(request(alice))).toEqual({ kind: 'required', code: 'UPSTREAM_CREDENTIAL_REQUIRED', message: expect.stringContaining('(invalid_grant: subject token expired)') });
    endpoint.answer = async () => {
      throw new ExchangeUnavailable('the token endpoint could not be reached (ECONNREFUSED)');
    };
    await expect(credentials.forCall(request(alice))).rejects.toMatchObject({ kind: 'unavailable', code: 'UPSTREAM_UNAVAILABLE' });
    endpoint.answer = async () => ({ accessToken: 'fine' });
    expect(ready(await credentials.forCall(request(alice))).headers.authorization).toBe('Bearer fine');
  });

  it('a client secret that is no longer stored refuses with SECRET_NOT_FOUND, naming the reference only', async () => {
    const alice = signedIn('oidc:alice@idp', 'subject-alice');
    const auth: UpstreamAuth = { mode: 'token-exchange', tokenExchange: { tokenEndpoint: 'http://127.0.0.1:9/token', resource: 'https://crm.example/mcp', clientId: 'toolplane', clientSecret: '${secret:GONE}' } };
    await expect(credentials.forCall(request(alice, auth))).rejects.toMatchObject({ code: 'SECRET_NOT_FOUND' });
    expect(endpoint.requests).toEqual([]);
  });

  it('keeps at most maxCached exchanged tokens, the least recently used dropped', async () => {
    const callers = ['a', 'b', 'c', 'd'].map((name) => signedIn(`oidc:${name}@idp`, `subject-${name}`));
    for (const caller of callers) await credentials.forCall(request(caller));
    await credentials.forCall(request(callers[0]!));
    expect(endpoint.requests.map((r) => r.subjectToken)).toEqual(['subject-a', 'subject-b', 'subject-c', 'subject-d', 'subject-a']);
  });

  it('tells ID tokens (nonce, at_hash) from access tokens, and anything unreadable is an access token', () => {
    const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;
    expect(subjectTokenType(jwt({ sub: 'a', nonce: 'n' }))).toBe(ID_TOKEN_TYPE);
    expect(subjectTokenType(jwt({ sub: 'a', at_hash: 'h' }))).toBe(ID_TOKEN_TYPE);
    expect(subjectTokenType(jwt({ sub: 'a', scope: 'openid' }))).toBe(ACCESS_TOKEN_TYPE);
    fc.assert(fc.property(fc.string(), (text) => [ACCESS_TOKEN_TYPE, ID_TOKEN_TYPE].includes(subjectTokenType(text))));
  });
});

describe('ExchangedTokenCache', () => {
  it('never holds more than its bound, and never answers an entry past its use-until', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 })), { maxLength: 60 }), (steps) => {
        const cache = new ExchangedTokenCache(3);
        for (const [key, until, now] of steps) {
          cache.set(key, { accessToken: key, useUntil: until });
          const read = cache.get(key, now);
          expect(read === undefined || read.useUntil > now).toBe(true);
          expect(cache.size).toBeLessThanOrEqual(3);
        }
      }),
    );
  });

  it('uses a token until 10 % of its life before expiry (5 s to 60 s), or the default lifetime without expires_in', () => {
    expect(useUntil(0, 300, 1)).toBe(270_000);
    expect(useUntil(0, 3600, 1)).toBe(3_540_000);
    expect(useUntil(0, 20, 1)).toBe(15_000);
    expect(useUntil(0, undefined, 60_000)).toBe(54_000);
    expect(useUntil(0, 2, 1)).toBe(0);
  });
});
