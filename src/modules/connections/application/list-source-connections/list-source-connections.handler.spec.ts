import { DomainError } from '../../../../shared/domain-error.js';
import { connectionsFixture } from '../../testing/connections-fixture.js';
import { ListSourceConnectionsHandler } from './list-source-connections.handler.js';
import { ListSourceConnectionsQuery } from './list-source-connections.query.js';

describe('ListSourceConnectionsHandler', () => {
  it("lists every principal's connection to a source with its state, never a token; an unknown source is SOURCE_NOT_FOUND", async () => {
    const f = connectionsFixture();
    await f.connect({ id: 'alice-id', name: 'alice' });
    await f.connect({ id: 'bob-id', name: 'bob' });
    const handler = new ListSourceConnectionsHandler(f.connections, f.sources, f.clock);
    const listed = await handler.execute(new ListSourceConnectionsQuery('files'));
    expect(listed.items.map((item) => [item.principalName, item.status])).toEqual(
      expect.arrayContaining([
        ['alice', 'connected'],
        ['bob', 'connected'],
      ]),
    );
    expect(listed.items).toHaveLength(2);
    expect(Object.keys(listed.items[0]!).sort()).toEqual(['connectedAt', 'expiresAt', 'principalId', 'principalName', 'scopes', 'status']);
    f.clock.advance(3600_000);
    expect((await handler.execute(new ListSourceConnectionsQuery('files'))).items.map((item) => item.status)).toEqual(['expired', 'expired']);
    await expect(handler.execute(new ListSourceConnectionsQuery('nope'))).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND' });
    await expect(handler.execute(new ListSourceConnectionsQuery('nope'))).rejects.toBeInstanceOf(DomainError);
  });
});
