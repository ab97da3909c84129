import type { Principal } from '../../../shared/principal/principal.js';
import type { UpstreamTarget } from '../../sources/domain/upstream.js';
import { connectionsFixture, OAUTH_SOURCE } from '../testing/connections-fixture.js';
import { OAuthModeCredentials } from './oauth-mode-credentials.js';

const alice: Principal = { id: 'alice-id', name: 'alice', kind: 'api-key', roles: ['agent'] };
const target: UpstreamTarget = {
  sourceId: 's1',
  sourceName: 'files',
  transport: 'streamable-http',
  lifecycle: 'singleton',
  args: [],
  env: {},
  url: 'https://mcp.example/mcp',
  headers: { authorization: 'Bearer shared', 'x-team': 'blue' },
  secrets: [{ name: 'header:x-team', value: 'blue' }],
};
const request = (t: UpstreamTarget = target) => ({ target: t, auth: OAUTH_SOURCE.auth, principal: alice });

describe('OAuthModeCredentials', () => {
  it('asks a principal without a connection to connect, with a single-use link of its own', async () => {
    const f = connectionsFixture();
    const outcome = await new OAuthModeCredentials(f.service).forCall(request());
    expect(outcome).toEqual({
      kind: 'required',
      code: 'UPSTREAM_CONSENT_REQUIRED',
      message: expect.stringContaining('files needs your authorization first'),
      connectUrl: expect.stringMatching(/^https:\/\/toolplane\.example\/api\/v1\/connect\/[A-Za-z0-9_-]{43}$/),
    });
    expect([...f.flows.rows.values()]).toEqual([expect.objectContaining({ kind: 'ticket', principalId: 'alice-id', sourceId: 's1' })]);
  });

  it("puts the principal's token in place of any Authorization header, pools per principal and scrubs the token", async () => {
    const f = connectionsFixture();
    await f.connect({ id: 'alice-id', name: 'alice' });
    const outcome = await new OAuthModeCredentials(f.service).forCall(request());
    expect(outcome).toEqual({
      kind: 'ready',
      target: {
        ...target,
        headers: { 'x-team': 'blue', Authorization: 'Bearer access-1' },
        auth: OAUTH_SOURCE.auth,
        principalId: 'alice-id',
        poolKey: 's1#alice-id',
        secrets: [{ name: 'header:x-team', value: 'blue' }, { name: 'oauth:files', value: 'access-1' }],
      },
    });
  });

  it('refreshes after a 401 on the token the refused target carried, and asks for consent when that fails', async () => {
    const f = connectionsFixture();
    await f.connect({ id: 'alice-id', name: 'alice' });
    const credentials = new OAuthModeCredentials(f.service);
    const first = await credentials.forCall(request());
    if (first.kind !== 'ready') throw new Error('expected ready');
    const again = await credentials.afterUnauthorized(request(first.target));
    expect(again).toMatchObject({ kind: 'ready', target: { headers: { Authorization: 'Bearer access-2' } } });
    f.servers.failRefresh = true;
    if (again.kind !== 'ready') throw new Error('expected ready');
    expect(await credentials.afterUnauthorized(request(again.target))).toMatchObject({ kind: 'required', code: 'UPSTREAM_CONSENT_REQUIRED' });
  });
});
