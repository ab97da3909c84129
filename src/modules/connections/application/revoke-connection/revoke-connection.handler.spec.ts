import type { Principal } from '../../../../shared/principal/principal.js';
import { rejection } from '../../../../shared/testing/rejection.js';
import { connectionsFixture } from '../../testing/connections-fixture.js';
import { ListSourceConnectionsQuery } from '../list-source-connections/list-source-connections.query.js';
import { ListSourceConnectionsHandler } from '../list-source-connections/list-source-connections.handler.js';
import { RevokeConnectionCommand } from './revoke-connection.command.js';
import { RevokeConnectionHandler } from './revoke-connection.handler.js';

const alice: Principal = { id: 'alice-id', name: 'alice', kind: 'api-key', roles: ['agent'] };

describe('RevokeConnectionHandler', () => {
  it('who is connected, and revoking one (404 when there is none)', async () => {
    const f = connectionsFixture();
    await f.connect(alice);
    const list = new ListSourceConnectionsHandler(f.connections, f.sources, f.clock);
    expect(await list.execute(new ListSourceConnectionsQuery('files'))).toEqual({
      items: [{ principalId: 'alice-id', principalName: 'alice', status: 'connected', scopes: ['read'], expiresAt: '2026-01-01T01:00:00.000Z', connectedAt: '2026-01-01T00:00:00.000Z' }],
    });
    expect((await rejection(list.execute(new ListSourceConnectionsQuery('nope')))).code).toBe('SOURCE_NOT_FOUND');
    const revoke = new RevokeConnectionHandler(f.service, f.sources);
    await revoke.execute(new RevokeConnectionCommand('files', 'alice-id', 'admin'));
    expect((await list.execute(new ListSourceConnectionsQuery('files'))).items).toEqual([]);
    expect((await rejection(revoke.execute(new RevokeConnectionCommand('files', 'alice-id', 'admin')))).code).toBe('CONNECTION_NOT_FOUND');
  });
});
