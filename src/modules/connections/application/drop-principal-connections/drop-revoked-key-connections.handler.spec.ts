import type { ApiKey } from '../../../access/domain/api-key.js';
import { ApiKeyChanged } from '../../../access/domain/api-key-changed.event.js';
import { InMemoryApiKeyRepository } from '../../../access/testing/in-memory-api-key-repository.js';
import { rejection } from '../../../../shared/testing/rejection.js';
import { connectionsFixture, OAUTH_SOURCE } from '../../testing/connections-fixture.js';
import { DropRevokedKeyConnectionsHandler } from './drop-revoked-key-connections.handler.js';

describe('DropRevokedKeyConnectionsHandler', () => {
  it("a revoked key's principal loses its connections and pending authorizations; a changed, still valid key keeps them", async () => {
    const f = connectionsFixture();
    const key = (id: string, hash: string, revokedAt: Date | null): ApiKey => ({
      id, name: id, owner: null, role: 'agent', prefix: 'tp_x', hash, createdAt: new Date(0), createdBy: 'admin', expiresAt: null, revokedAt, lastUsedAt: null, scope: {}, rateLimitPerMinute: null,
    });
    await f.connect({ id: 'alice-id', name: 'alice' });
    await f.connect({ id: 'bob-id', name: 'bob' });
    const pending = await f.service.begin({ id: 'alice-id', name: 'alice' }, OAUTH_SOURCE, null);
    const handler = new DropRevokedKeyConnectionsHandler(new InMemoryApiKeyRepository([key('alice-id', 'h-alice', new Date(1)), key('bob-id', 'h-bob', null)]), f.service);
    await handler.handle(new ApiKeyChanged('h-bob'));
    await handler.handle(new ApiKeyChanged('h-unknown'));
    expect(f.connections.rows.size).toBe(2);
    await handler.handle(new ApiKeyChanged('h-alice'));
    expect([...f.connections.rows.values()].map((row) => row.principalId)).toEqual(['bob-id']);
    expect(f.servers.revoked.map((revoked) => revoked.hint)).toEqual(['refresh_token', 'access_token']);
    // An authorization it started before cannot complete any more.
    expect((await rejection(f.service.complete(f.callbackFor(pending.authorizationUrl)))).code).toBe('OAUTH_STATE_INVALID');
  });
});
