import { createHash } from 'node:crypto';
import { rejection } from '../../../../shared/testing/rejection.js';
import type { ApiKey } from '../../domain/api-key.js';
import { ApiKeyChanged } from '../../domain/api-key-changed.event.js';
import { accessFixture } from '../../testing/access-fixture.js';
import { aKeyValue, anApiKey } from '../../testing/builders.js';
import type { ApiKeySpecInput } from '../api-key-spec.js';
import { UpdateApiKeyCommand } from './update-api-key.command.js';
import { UpdateApiKeyHandler } from './update-api-key.handler.js';

function setup(key: ApiKey = anApiKey('ci', { owner: 'platform', scope: { sources: ['files'] } })) {
  const f = accessFixture([key]);
  const handler = new UpdateApiKeyHandler(f.keys, f.secrets, f.audit, f.uow, f.clock, f.events.bus);
  const update = (input: ApiKeySpecInput, presetKey?: string, id = key.id) => handler.execute(new UpdateApiKeyCommand(id, input, 'admin', presetKey));
  return { ...f, key, update };
}

describe('UpdateApiKeyHandler', () => {
  it('gives the key the settings declared, all of them, audits what changed, and tells the key caches', async () => {
    const f = setup();

    const view = await f.update({ name: 'ci', role: 'operator', allowedTools: ['files__*'], allowedGroups: ['support'], rateLimitPerMinute: 10 });

    expect(view).toMatchObject({ role: 'operator', owner: null, allowedSources: null, allowedTools: ['files__*'], allowedGroups: ['support'], rateLimitPerMinute: 10, state: 'active' });
    expect(f.keys.stored(f.key.id)).toMatchObject({ role: 'operator', owner: null, scope: { tools: ['files__*'], groups: ['support'] }, hash: f.key.hash, prefix: f.key.prefix });
    expect(f.audit.events).toEqual([
      {
        actor: 'admin',
        action: 'api-key.updated',
        targetType: 'api-key',
        targetId: f.key.id,
        targetName: 'ci',
        details: {
          fields: ['role', 'owner', 'allowedSources', 'allowedTools', 'allowedGroups', 'rateLimitPerMinute'],
          role: 'operator',
          owner: null,
          prefix: f.key.prefix,
          expiresAt: null,
          allowedSources: null,
          allowedTools: ['files__*'],
          allowedGroups: ['support'],
          rateLimitPerMinute: 10,
        },
      },
    ]);
    expect(f.events.published).toEqual([new ApiKeyChanged(f.key.hash)]);
  });

  it('changes, audits and tells nothing when the settings declared are the key’s own', async () => {
    const f = setup();
    const view = await f.update({ name: 'ci', role: 'agent', owner: 'platform', allowedSources: ['files'] });
    expect(view).toMatchObject({ name: 'ci', allowedSources: ['files'] });
    expect(f.audit.events).toEqual([]);
    expect(f.events.published).toEqual([]);
  });

  it('replaces the key by a given one, auditing it as its new prefix and never the key; the caches forget the former hash', async () => {
    const f = setup();
    const rotated = aKeyValue('rotated');

    const view = await f.update({ name: 'ci', role: 'agent', owner: 'platform', allowedSources: ['files'] }, rotated);

    expect(view.prefix).toBe(rotated.slice(0, 11));
    expect(f.keys.stored(f.key.id)?.hash).toBe(createHash('sha256').update(rotated).digest('hex'));
    expect(f.audit.events[0]?.details).toMatchObject({ fields: ['key'], prefix: rotated.slice(0, 11) });
    expect(JSON.stringify(f.audit.events)).not.toContain(rotated);
    expect(f.events.published).toEqual([new ApiKeyChanged(f.key.hash)]);

    await f.update({ name: 'ci', role: 'agent', owner: 'platform', allowedSources: ['files'] }, rotated);
    expect(f.audit.events).toHaveLength(1);
  });

  it('takes an expiry already past: the key expires now', async () => {
    const f = setup();
    const view = await f.update({ name: 'ci', role: 'agent', owner: 'platform', allowedSources: ['files'], expiresAt: '2026-01-01T00:00:00Z' });
    expect(view).toMatchObject({ state: 'expired', expiresAt: '2026-01-01T00:00:00.000Z' });
    expect(f.audit.events[0]?.details).toMatchObject({ fields: ['expiresAt'] });
  });

  it('does not bring back a revoked or expired key, nor find an unknown one: API_KEY_NOT_FOUND', async () => {
    for (const key of [anApiKey('gone', { revokedAt: new Date('2026-02-01T00:00:00Z') }), anApiKey('old', { expiresAt: new Date('2026-02-01T00:00:00Z') })]) {
      const f = setup(key);
      expect(await rejection(f.update({ name: 'gone', role: 'admin' }))).toMatchObject({ kind: 'not_found', code: 'API_KEY_NOT_FOUND', message: 'No active API key with this id.' });
      expect(f.keys.stored(key.id)?.role).toBe('agent');
      expect(f.audit.events).toEqual([]);
    }
    const f = setup();
    expect(await rejection(f.update({ name: 'ci', role: 'agent' }, undefined, '00000000-0000-4000-b000-ffffffffffff'))).toMatchObject({ code: 'API_KEY_NOT_FOUND' });
  });

  it('reports every problem of the settings at once and changes nothing', async () => {
    const f = setup();
    const error = await rejection(f.update({ name: 'x'.repeat(101), role: 'root', allowedSources: 'files' }));
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The API key settings are invalid.' });
    expect(error.details.map((d) => d.path)).toEqual(['name', 'role', 'allowedSources']);
    expect(f.keys.stored(f.key.id)).toEqual(f.key);
    expect(f.audit.events).toEqual([]);
  });
});
