import fc from 'fast-check';
import { checkUpstreamAuth, userSecretNames } from './upstream-auth.js';

const loopbackOnly = (url: URL) => url.hostname === '127.0.0.1' || url.hostname === 'localhost';
const none = { env: {}, headers: {} };
const withUserSecret = { env: {}, headers: { Authorization: 'Bearer ${user-secret:JIRA_TOKEN}' } };

describe('checkUpstreamAuth', () => {
  it('takes shared (stored as such) and absent alike, and user-secret with a reference', () => {
    expect(checkUpstreamAuth(undefined, 'stdio', none, loopbackOnly)).toEqual({ problems: [], secretReferences: [] });
    expect(checkUpstreamAuth({ mode: 'shared' }, 'stdio', none, loopbackOnly).auth).toEqual({ mode: 'shared' });
    expect(checkUpstreamAuth({ mode: 'user-secret' }, 'streamable-http', withUserSecret, loopbackOnly)).toEqual({ problems: [], secretReferences: [], auth: { mode: 'user-secret' } });
  });

  it('refuses user-secret without a reference, and references under any other mode, naming each place', () => {
    expect(checkUpstreamAuth({ mode: 'user-secret' }, 'stdio', { env: { A: 'x' }, headers: {} }, loopbackOnly).problems).toEqual([
      { path: 'upstreamAuth.mode', message: '"user-secret" needs at least one ${user-secret:NAME} reference in env' },
    ]);
    expect(checkUpstreamAuth(undefined, 'streamable-http', withUserSecret, loopbackOnly).problems).toEqual([
      { path: 'headers.Authorization', message: 'refers to a ${user-secret:…}, which only a source with upstreamAuth mode "user-secret" may' },
    ]);
    expect(checkUpstreamAuth({ mode: 'shared' }, 'streamable-http', withUserSecret, loopbackOnly).problems.map((p) => p.path)).toEqual(['headers.Authorization']);
  });

  it('reports every problem of oauth and token-exchange settings at once', () => {
    const oauth = checkUpstreamAuth(
      { mode: 'oauth', oauth: { clientSecret: 'literal-secret', clientMetadataUrl: 'http://example.com/client', scopes: ['ok', 'not ok'], authorizationServer: 'ftp://as', extra: 1 }, more: true },
      'stdio',
      none,
      loopbackOnly,
    );
    expect(oauth.problems.map((p) => p.path)).toEqual([
      'upstreamAuth.more',
      'upstreamAuth.mode',
      'upstreamAuth.oauth.extra',
      'upstreamAuth.oauth.clientSecret',
      'upstreamAuth.oauth.clientSecret',
      'upstreamAuth.oauth.clientMetadataUrl',
      'upstreamAuth.oauth.scopes[1]',
      'upstreamAuth.oauth.authorizationServer',
    ]);
    expect(JSON.stringify(oauth.problems)).not.toContain('literal-secret');

    const exchange = checkUpstreamAuth({ mode: 'token-exchange', tokenExchange: { tokenEndpoint: 'http://idp.example.com/token' } }, 'sse', none, loopbackOnly);
    expect(exchange.problems).toEqual([
      { path: 'upstreamAuth.tokenExchange.tokenEndpoint', message: 'must use https (http only for a loopback address)' },
      { path: 'upstreamAuth.tokenExchange.clientId', message: 'must be a non-empty single-line string of at most 2048 characters' },
      { path: 'upstreamAuth.tokenExchange', message: 'needs audience or resource (or both)' },
    ]);
  });

  it('keeps well-formed oauth and token-exchange settings, and the secret references to check', () => {
    const checked = checkUpstreamAuth(
      { mode: 'token-exchange', tokenExchange: { tokenEndpoint: 'http://127.0.0.1:9000/token', audience: 'jira', clientId: 'toolplane', clientSecret: '${secret:IDP_SECRET}' } },
      'streamable-http',
      none,
      loopbackOnly,
    );
    expect(checked).toEqual({
      problems: [],
      secretReferences: [{ path: 'upstreamAuth.tokenExchange.clientSecret', name: 'IDP_SECRET' }],
      auth: { mode: 'token-exchange', tokenExchange: { tokenEndpoint: 'http://127.0.0.1:9000/token', audience: 'jira', clientId: 'toolplane', clientSecret: '${secret:IDP_SECRET}' } },
    });
  });

  it('refuses a mode it does not know, and what is not an object', () => {
    expect(checkUpstreamAuth({ mode: 'kerberos' }, 'stdio', none, loopbackOnly).problems).toEqual([{ path: 'upstreamAuth.mode', message: 'must be one of shared, user-secret, oauth, token-exchange' }]);
    expect(checkUpstreamAuth([], 'stdio', none, loopbackOnly).problems).toEqual([{ path: 'upstreamAuth', message: 'must be an object such as {"mode": "shared"}' }]);
  });

  it('never throws on foreign JSON, and keeps nothing it reports a problem with', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom('stdio' as const, 'streamable-http' as const, 'sse' as const), (given, transport) => {
        const checked = checkUpstreamAuth(given, transport, withUserSecret, loopbackOnly);
        expect(checked.problems.length > 0 || checked.auth !== undefined || given === null).toBe(true);
        if (checked.problems.length > 0) expect(checked.auth).toBeUndefined();
        for (const problem of checked.problems) expect(problem.path).toMatch(/^(upstreamAuth|headers\.)/);
      }),
    );
  });
});

describe('userSecretNames', () => {
  it('lists each referenced name once, sorted', () => {
    expect(userSecretNames({ env: { A: '${user-secret:B}:${user-secret:A}', C: '${secret:S}' }, headers: { X: '${user-secret:B}' } })).toEqual(['A', 'B']);
  });
});
