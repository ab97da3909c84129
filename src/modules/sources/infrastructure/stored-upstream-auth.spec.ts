import { storedUpstreamAuth, upstreamAuthOf } from './stored-upstream-auth.js';

describe('stored upstream_auth', () => {
  const templates = { env: { TOKEN: '${user-secret:GH_TOKEN}', ORG: 'org-${user-secret:GH_ORG}', PLAIN: 'x' }, headers: { 'X-Again': '${user-secret:GH_TOKEN}' } };

  it('keeps the names a user-secret source refers to beside its settings, each once, and gives the settings back without them', () => {
    const stored = storedUpstreamAuth({ mode: 'user-secret' }, templates);
    expect(stored).toEqual({ mode: 'user-secret', userSecrets: ['GH_ORG', 'GH_TOKEN'] });
    expect(upstreamAuthOf(stored)).toEqual({ mode: 'user-secret' });
  });

  it('stores every other mode as it is', () => {
    const oauth = { mode: 'oauth' as const, oauth: { scopes: ['repo'] } };
    expect(storedUpstreamAuth(oauth, templates)).toBe(oauth);
    expect(storedUpstreamAuth(null, templates)).toBeNull();
    expect(upstreamAuthOf(null)).toBeNull();
    expect(upstreamAuthOf(oauth)).toEqual(oauth);
  });
});
