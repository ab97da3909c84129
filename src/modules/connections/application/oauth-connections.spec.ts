import { rejection } from '../../../shared/testing/rejection.js';
import { capabilityHash } from '../domain/capability.js';
import { connectionsFixture, OAUTH_SOURCE as source } from '../testing/connections-fixture.js';

const alice = { id: 'alice-id', name: 'alice' };
const bob = { id: 'bob-id', name: 'bob' };
const setup = () => connectionsFixture();

describe('OAuthConnections', () => {
  it('stores a flow by the hash of its state only, and completes it once for the principal that began it', async () => {
    const { service, flows, connections, audit, discovery, callbackFor } = setup();
    const { authorizationUrl, expiresAt } = await service.begin(alice, source, '/console/connections');
    const state = new URL(authorizationUrl).searchParams.get('state')!;
    expect([...flows.rows.keys()]).toEqual([capabilityHash(state)]);
    expect(expiresAt.toISOString()).toBe('2026-01-01T00:10:00.000Z');
    expect(await service.complete(callbackFor(authorizationUrl))).toEqual({ sourceName: 'files', returnTo: '/console/connections' });
    expect((await connections.find('alice-id', 's1'))!.tokens.accessToken).toBe('access-1');
    expect(audit.events.map((event) => event.action)).toEqual(['connection.granted']);
    expect(discovery.refreshed).toEqual(['s1']);
    expect((await rejection(service.complete(callbackFor(authorizationUrl)))).code).toBe('OAUTH_STATE_INVALID');
    expect(connections.rows.size).toBe(1);
  });

  it('refuses a state past its ten minutes, and stores nothing', async () => {
    const { service, clock, connections, callbackFor } = setup();
    const { authorizationUrl } = await service.begin(bob, source, null);
    clock.advance(10 * 60_000);
    expect((await rejection(service.complete(callbackFor(authorizationUrl)))).code).toBe('OAUTH_STATE_INVALID');
    expect(connections.rows.size).toBe(0);
  });

  it('refreshes a token within a minute of its end (not before), keeping the refresh token the server did not rotate', async () => {
    const { service, servers, clock, connect } = setup();
    await connect(alice);
    clock.advance(3600_000 - 61_000);
    expect((await service.credential('alice-id', source))!.tokens.accessToken).toBe('access-1');
    clock.advance(2000);
    expect((await service.credential('alice-id', source))!.tokens.accessToken).toBe('access-2');
    expect(servers.refreshes).toEqual(['refresh-1']);
  });

  it('refreshes after a 401 only when the refused token is still the stored one, and one refresh serves concurrent callers', async () => {
    const { service, servers, connect } = setup();
    await connect(alice);
    const [first, second] = await Promise.all([service.credential('alice-id', source, 'access-1'), service.credential('alice-id', source, 'access-1')]);
    expect([first!.tokens.accessToken, second!.tokens.accessToken]).toEqual(['access-2', 'access-2']);
    expect((await service.credential('alice-id', source, 'access-1'))!.tokens.accessToken).toBe('access-2');
    expect(servers.refreshes).toEqual(['refresh-1']);
  });

  it('records a failed refresh (audited) and answers no credential until the principal connects again', async () => {
    const { service, servers, audit, connect } = setup();
    await connect(alice);
    servers.failRefresh = true;
    expect(await service.credential('alice-id', source, 'access-1')).toBeUndefined();
    expect(audit.events.at(-1)).toMatchObject({ action: 'connection.refresh_failed', details: { principalId: 'alice-id', reason: 'invalid_grant: revoked' } });
    servers.failRefresh = false;
    expect(await service.credential('alice-id', source)).toBeUndefined();
    expect(servers.refreshes).toEqual(['refresh-1']);
    await connect(alice);
    expect((await service.credential('alice-id', source))!.tokens.accessToken).toBe('access-2');
  });

  it('disconnects: deleted and audited first, then both tokens revoked upstream; a revocation failure keeps it deleted', async () => {
    const { service, servers, connections, audit, connect } = setup();
    await connect(alice);
    await connect(bob);
    expect(await service.disconnect('alice-id', source, 'alice-id')).toBe(true);
    expect(servers.revoked).toEqual([
      { token: 'refresh-1', hint: 'refresh_token' },
      { token: 'access-1', hint: 'access_token' },
    ]);
    servers.failRevoke = true;
    expect(await service.disconnect('bob-id', source, 'admin')).toBe(true);
    expect(connections.rows.size).toBe(0);
    expect(audit.events.filter((event) => event.action === 'connection.revoked').map((event) => event.details)).toEqual([
      { principalId: 'alice-id', principalName: 'alice', by: 'alice-id' },
      { principalId: 'bob-id', principalName: 'bob', by: 'admin' },
    ]);
    expect(await service.disconnect('bob-id', source, 'admin')).toBe(false);
  });

  it('makes a ticket that starts a flow for its principal once, and keeps at most twenty unopened', async () => {
    const { service, flows } = setup();
    const link = await service.ticket(bob, source);
    expect(link).toMatch(/^https:\/\/toolplane\.example\/api\/v1\/connect\/[A-Za-z0-9_-]{43}$/);
    const ticket = link.split('/').at(-1)!;
    const authorizationUrl = await service.redeem(ticket);
    const state = new URL(authorizationUrl).searchParams.get('state')!;
    expect(flows.rows.get(capabilityHash(state))).toMatchObject({ kind: 'state', principalId: 'bob-id' });
    expect((await rejection(service.redeem(ticket))).code).toBe('CONNECT_TICKET_INVALID');
    for (let i = 0; i < 25; i += 1) await service.ticket(bob, source);
    expect([...flows.rows.values()].filter((flow) => flow.kind === 'ticket')).toHaveLength(20);
  });

  it('registers a client once per settings, and again when the source’s settings change', async () => {
    const { service, servers } = setup();
    await service.begin(alice, source, null);
    await service.begin(bob, source, null);
    expect(servers.prepared).toBe(1);
    await service.begin(alice, { ...source, url: 'https://mcp.example/v2' }, null);
    expect(servers.prepared).toBe(2);
  });
});
