import { rejection } from '../../../../shared/testing/rejection.js';
import { ApiKeyChanged } from '../../domain/api-key-changed.event.js';
import { accessFixture, NOW } from '../../testing/access-fixture.js';
import { anApiKey } from '../../testing/builders.js';
import { RevokeApiKeyCommand } from './revoke-api-key.command.js';
import { RevokeApiKeyHandler } from './revoke-api-key.handler.js';

function setup() {
  const key = anApiKey('ci', { role: 'operator' });
  const f = accessFixture([key, anApiKey('other')]);
  const handler = new RevokeApiKeyHandler(f.keys, f.audit, f.uow, f.clock, f.events.bus);
  const revoke = (id: string) => handler.execute(new RevokeApiKeyCommand(id, 'admin'));
  return { ...f, key, revoke };
}

describe('RevokeApiKeyHandler', () => {
  it('revokes the key, audits it in the unit of work, and tells the key caches to forget it', async () => {
    const f = setup();

    const view = await f.revoke(f.key.id);

    expect(view).toMatchObject({ id: f.key.id, state: 'revoked', revokedAt: NOW });
    expect(f.keys.stored(f.key.id)?.revokedAt).toEqual(new Date(NOW));
    expect(f.audit.events).toEqual([
      { actor: 'admin', action: 'api-key.revoked', targetType: 'api-key', targetId: f.key.id, targetName: 'ci', details: { role: 'operator', prefix: f.key.prefix } },
    ]);
    expect(f.events.published).toEqual([new ApiKeyChanged(f.key.hash)]);
  });

  it('changes nothing when the key was revoked already: the first revocation stands, audited once', async () => {
    const f = setup();
    await f.revoke(f.key.id);
    f.clock.advance(60_000);

    const again = await f.revoke(f.key.id);

    expect(again).toMatchObject({ state: 'revoked', revokedAt: NOW });
    expect(f.audit.events).toHaveLength(1);
  });

  it('answers API_KEY_NOT_FOUND for an unknown id, and for what is not a uuid without looking it up, and tells no one', async () => {
    const f = setup();
    for (const id of ['00000000-0000-4000-b000-ffffffffffff', 'ci']) {
      expect(await rejection(f.revoke(id))).toMatchObject({ kind: 'not_found', code: 'API_KEY_NOT_FOUND' });
    }
    expect(f.keys.lookedUp).toEqual(['00000000-0000-4000-b000-ffffffffffff']);
    expect(f.audit.events).toEqual([]);
    expect(f.events.published).toEqual([]);
    expect(f.keys.stored(f.key.id)?.revokedAt).toBeNull();
  });
});
