import { SourceRemoved } from '../../../sources/domain/source-removed.event.js';
import type { UpstreamAuth } from '../../../sources/domain/upstream-auth.js';
import type { OAuthSource } from '../../domain/oauth-source.js';
import { connectionsFixture, OAUTH_SOURCE } from '../../testing/connections-fixture.js';
import { DropSourceConnectionsHandler } from './drop-source-connections.handler.js';

const OTHER: OAuthSource = { ...OAUTH_SOURCE, id: 's3', name: 'drive', url: 'https://drive.example/mcp' };
const removed = (source: OAuthSource, upstreamAuth: UpstreamAuth = source.auth) => new SourceRemoved({ id: source.id, name: source.name, url: source.url, upstreamAuth }, 'admin-id');

describe('DropSourceConnectionsHandler', () => {
  it("a removed source's connections are deleted, audited and revoked upstream; other sources' stay", async () => {
    const f = connectionsFixture([OAUTH_SOURCE, OTHER]);
    for (const principal of [{ id: 'alice-id', name: 'alice' }, { id: 'bob-id', name: 'bob' }]) await f.connect(principal);
    await f.connect({ id: 'alice-id', name: 'alice' }, OTHER);
    await new DropSourceConnectionsHandler(f.service).handle(removed(OAUTH_SOURCE));
    expect([...f.connections.rows.values()].map((row) => [row.principalId, row.sourceId])).toEqual([['alice-id', OTHER.id]]);
    expect(f.servers.revoked.map((revoked) => revoked.hint)).toEqual(['refresh_token', 'access_token', 'refresh_token', 'access_token']);
    expect(f.audit.events.filter((event) => event.action === 'connection.revoked').map((event) => [event.actor, event.targetId, event.details?.principalName])).toEqual([
      ['admin-id', OAUTH_SOURCE.id, 'alice'],
      ['admin-id', OAUTH_SOURCE.id, 'bob'],
    ]);
  });

  it('leaves a shared source alone, and a failing authorization server does not keep the connections', async () => {
    const f = connectionsFixture([OAUTH_SOURCE]);
    await f.connect({ id: 'alice-id', name: 'alice' });
    const handler = new DropSourceConnectionsHandler(f.service);
    await handler.handle(removed(OAUTH_SOURCE, { mode: 'shared' }));
    expect(f.connections.rows.size).toBe(1);
    f.servers.revoke = () => Promise.reject(new Error('revocation endpoint down'));
    await handler.handle(removed(OAUTH_SOURCE));
    expect(f.connections.rows.size).toBe(0);
  });
});
