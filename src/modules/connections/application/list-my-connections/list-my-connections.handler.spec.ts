import type { Principal } from '../../../../shared/principal/principal.js';
import { connectionsFixture } from '../../testing/connections-fixture.js';
import { ListMyConnectionsQuery } from './list-my-connections.query.js';
import { ListMyConnectionsHandler } from './list-my-connections.handler.js';

const alice: Principal = { id: 'alice-id', name: 'alice', kind: 'api-key', roles: ['agent'] };
const restricted: Principal = { ...alice, id: 'narrow-id', scope: { sources: ['mail'] } };

describe('ListMyConnectionsHandler', () => {
  it('the connected ones with their state, and every other per-user source it may use as not_connected', async () => {
    const f = connectionsFixture();
    await f.connect(alice);
    const handler = new ListMyConnectionsHandler(f.connections, f.sources, f.clock);
    expect(await handler.execute(new ListMyConnectionsQuery(alice))).toEqual({
      items: [
        { source: 'files', mode: 'oauth', status: 'connected', scopes: ['read'], expiresAt: '2026-01-01T01:00:00.000Z', connectedAt: '2026-01-01T00:00:00.000Z', refreshedAt: null },
        { source: 'mail', mode: 'user-secret', status: 'not_connected', scopes: [], expiresAt: null, connectedAt: null, refreshedAt: null },
      ],
    });
    f.clock.advance(3600_000);
    expect((await handler.execute(new ListMyConnectionsQuery(alice))).items[0]!.status).toBe('expired');
    expect((await handler.execute(new ListMyConnectionsQuery(restricted))).items.map((item) => item.source)).toEqual(['mail']);
  });
});
