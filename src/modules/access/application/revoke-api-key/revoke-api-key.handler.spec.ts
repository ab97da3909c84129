import { rejection } from '../../../../shared/testing/rejection.js';
import { ApiKeyChanged, ApiKeyRevoked } from '../../domain/api-key-changed.event.js';
import { InMemoryUserSecrets } from '../../../secrets/testing/in-memory-user-secrets.js';
import { accessFixture, NOW } from '../../testing/access-fixture.js';
import { anApiKey } from '../../testing/builders.js';
import { RevokeApiKeyCommand } from './revoke-api-key.command.js';
import { RevokeApiKeyHandler } from './revoke-api-key.handler.js';

function setup() {
  const key = anApiKey('ci', { role: 'operator' });
  const f = accessFixture([key, anApiKey('other')]);
  const userSecrets = new InMemoryUserSecrets({ someone: { GITHUB_TOKEN: 'ghp-2' } });
  const handler = new RevokeApiKeyHandler(f.keys, f.audit, f.uow, f.clock, f.events.bus, userSecrets);
  const revoke = (id: string) => handler.execute(new RevokeApiKeyCommand(id, 'admin'));
  return { ...f, key, revoke, userSecrets };
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
    expect(f.events.published).toEqual([new ApiKeyChanged(f.key.hash), new ApiKeyRevoked(f.key.id)]);
  });

  it("drops the key's own user secrets with it (counted in the audit event, never their values); other principals keep theirs", async () => {
    const f = setup();
    await f.userSecrets.put(f.key.id, 'GITHUB_TOKEN', 'ghp-1', new Date(NOW));
    await f.userSecrets.put(f.key.id, 'JIRA_TOKEN', 'jira-1', new Date(NOW));

    await f.revoke(f.key.id);

    expect(await f.userSecrets.list(f.key.id)).toEqual([]);
    expect([...(await f.userSecrets.reveal('someone', ['GITHUB_TOKEN'])).values()]).toEqual(['ghp-2']);
    expect(f.audit.events[0]?.details).toEqual({ role: 'operator', prefix: f.key.prefix, userSecretsDropped: 2 });
    expect(JSON.stringify(f.audit.events)).not.toContain('ghp-1');
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
