import type { Principal } from '../../../../shared/principal/principal.js';
import { rejection } from '../../../../shared/testing/rejection.js';
import { connectionsFixture } from '../../testing/connections-fixture.js';
import { ConnectSourceCommand } from './connect-source.command.js';
import { ConnectSourceHandler } from './connect-source.handler.js';

const alice: Principal = { id: 'alice-id', name: 'alice', kind: 'api-key', roles: ['agent'] };
const restricted: Principal = { ...alice, id: 'narrow-id', scope: { sources: ['mail'] } };

describe('ConnectSourceHandler', () => {
  it('starts a flow for a source the principal may use; refuses one its scope hides, and a non-OAuth one', async () => {
    const f = connectionsFixture();
    const handler = new ConnectSourceHandler(f.service, f.sources);
    const started = await handler.execute(new ConnectSourceCommand('files', alice, '/console/connections'));
    expect(started.expiresAt).toBe('2026-01-01T00:10:00.000Z');
    expect(new URL(started.authorizationUrl).searchParams.get('scope')).toBe('read');
    expect((await rejection(handler.execute(new ConnectSourceCommand('files', restricted, null)))).code).toBe('SOURCE_NOT_FOUND');
    expect((await rejection(handler.execute(new ConnectSourceCommand('mail', alice, null)))).code).toBe('SOURCE_NOT_OAUTH');
    expect((await rejection(handler.execute(new ConnectSourceCommand('nope', alice, null)))).code).toBe('SOURCE_NOT_FOUND');
  });
});
