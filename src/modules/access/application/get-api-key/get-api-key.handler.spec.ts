import { rejection } from '../../../../shared/testing/rejection.js';
import { accessFixture } from '../../testing/access-fixture.js';
import { anApiKey } from '../../testing/builders.js';
import { GetApiKeyHandler } from './get-api-key.handler.js';
import { GetApiKeyQuery } from './get-api-key.query.js';

describe('GetApiKeyHandler', () => {
  const active = anApiKey('ci', { scope: { tools: ['files__*'] }, lastUsedAt: new Date('2026-02-01T00:00:00Z') });
  const expired = anApiKey('old', { expiresAt: new Date('2026-03-01T11:59:59Z') });
  const f = accessFixture([active, expired]);
  const get = (id: string) => new GetApiKeyHandler(f.keys, f.clock).execute(new GetApiKeyQuery(id));

  it('answers the key as the API shows it: its state now, never its hash', async () => {
    const view = await get(active.id);
    expect(view).toEqual({
      id: active.id,
      name: 'ci',
      owner: null,
      role: 'agent',
      prefix: active.prefix,
      state: 'active',
      createdAt: active.createdAt.toISOString(),
      createdBy: 'admin',
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: '2026-02-01T00:00:00.000Z',
      allowedSources: null,
      allowedTools: ['files__*'],
      allowedGroups: null,
      rateLimitPerMinute: null,
    });
    expect(JSON.stringify(view)).not.toContain(active.hash);
    expect(await get(expired.id)).toMatchObject({ state: 'expired', expiresAt: '2026-03-01T11:59:59.000Z' });
  });

  it('answers API_KEY_NOT_FOUND for an unknown id, and for what is not a uuid without looking it up', async () => {
    f.keys.lookedUp.splice(0);
    for (const id of ['00000000-0000-4000-b000-ffffffffffff', 'ci', "' OR 1=1 --"]) {
      expect(await rejection(get(id))).toMatchObject({ kind: 'not_found', code: 'API_KEY_NOT_FOUND', message: 'No API key with this id.' });
    }
    expect(f.keys.lookedUp).toEqual(['00000000-0000-4000-b000-ffffffffffff']);
  });
});
