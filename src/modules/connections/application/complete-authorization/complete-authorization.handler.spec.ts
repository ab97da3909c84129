import { rejection } from '../../../../shared/testing/rejection.js';
import { connectionsFixture, OAUTH_SOURCE } from '../../testing/connections-fixture.js';
import { CompleteAuthorizationCommand } from './complete-authorization.command.js';
import { CompleteAuthorizationHandler } from './complete-authorization.handler.js';

const ALICE = { id: 'alice-id', name: 'alice' };
const BOB = { id: 'bob-id', name: 'bob' };

describe('CompleteAuthorizationHandler', () => {
  const setup = () => {
    const f = connectionsFixture();
    const handler = new CompleteAuthorizationHandler(f.service);
    const begin = async (principal = BOB, returnTo: string | null = null) => (await f.service.begin(principal, OAUTH_SOURCE, returnTo)).authorizationUrl;
    return { ...f, complete: (callback: URL) => handler.execute(new CompleteAuthorizationCommand(callback)), begin };
  };

  it("stores the flow's principal's tokens, audits the grant, answers where to return, and takes the state once", async () => {
    const f = setup();
    const callback = f.callbackFor(await f.begin(BOB, '/console/connections'));
    expect(await f.complete(callback)).toEqual({ sourceName: 'files', returnTo: '/console/connections' });
    const [connection] = [...f.connections.rows.values()];
    expect(connection).toMatchObject({ principalId: BOB.id, principalName: 'bob', sourceId: OAUTH_SOURCE.id, tokens: { accessToken: 'access-1', refreshToken: 'refresh-1' }, scopes: ['read'] });
    expect(f.audit.events.map((event) => [event.actor, event.action, event.targetId, event.details])).toEqual([
      [BOB.id, 'connection.granted', OAUTH_SOURCE.id, { principalId: BOB.id, principalName: 'bob', scopes: ['read'], issuer: 'https://as.example' }],
    ]);
    expect(JSON.stringify(f.audit.events)).not.toContain('access-1');
    expect(await rejection(f.complete(callback))).toMatchObject({ kind: 'invalid', code: 'OAUTH_STATE_INVALID' });
    // Bob is not the source's discovery principal: no refresh is asked.
    expect(f.discovery.refreshed).toEqual([]);
  });

  it('refreshes a never-discovered source once its discovery principal connected', async () => {
    const f = setup();
    await f.complete(f.callbackFor(await f.begin(ALICE)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(f.discovery.refreshed).toEqual([OAUTH_SOURCE.id]);
  });

  it('refuses an unknown or expired state, a denial by the authorization server, and changed OAuth settings, storing nothing', async () => {
    const f = setup();
    expect(await rejection(f.complete(new URL('https://toolplane.example/api/v1/oauth/callback?code=c&state=nope')))).toMatchObject({ code: 'OAUTH_STATE_INVALID' });
    const late = f.callbackFor(await f.begin());
    f.clock.advance(11 * 60_000);
    expect(await rejection(f.complete(late))).toMatchObject({ code: 'OAUTH_STATE_INVALID' });

    const denied = f.callbackFor(await f.begin());
    denied.searchParams.set('error', 'access_denied');
    expect(await rejection(f.complete(denied))).toMatchObject({ kind: 'forbidden', code: 'OAUTH_AUTHORIZATION_DENIED', message: 'The authorization server did not authorize the connection: access_denied.' });

    const changed = f.callbackFor(await f.begin());
    f.sources.sources[0] = { ...OAUTH_SOURCE, url: 'https://elsewhere.example/mcp' };
    expect(await rejection(f.complete(changed))).toMatchObject({ kind: 'conflict', code: 'OAUTH_CLIENT_CHANGED' });
    expect([f.connections.rows.size, f.audit.events]).toEqual([0, []]);
  });
});
