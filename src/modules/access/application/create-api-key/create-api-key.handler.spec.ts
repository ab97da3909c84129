import { createHash } from 'node:crypto';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import { rejection } from '../../../../shared/testing/rejection.js';
import { ApiKeyChanged } from '../../domain/api-key-changed.event.js';
import { accessFixture, NOW } from '../../testing/access-fixture.js';
import { aKeyValue } from '../../testing/builders.js';
import { API_KEY_FORMAT, type ApiKeySpecInput } from '../api-key-spec.js';
import { CreateApiKeyCommand } from './create-api-key.command.js';
import { CreateApiKeyHandler } from './create-api-key.handler.js';

function setup() {
  const f = accessFixture();
  const handler = new CreateApiKeyHandler(f.keys, f.secrets, f.audit, f.uow, f.clock, f.ids, f.events.bus);
  const create = (input: ApiKeySpecInput, presetKey?: string, shapeProblems: readonly ProblemDetail[] = []) => handler.execute(new CreateApiKeyCommand(input, 'admin', presetKey, shapeProblems));
  return { ...f, create };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('CreateApiKeyHandler', () => {
  it('makes a key, shows it this once, stores only its hash and prefix, and audits it in the same unit of work', async () => {
    const f = setup();

    const created = await f.create({ name: ' ci ', role: 'agent', owner: 'platform', expiresAt: '2026-06-01T00:00:00Z', allowedSources: ['files', 'files'], rateLimitPerMinute: 30 });

    expect(created.key).toMatch(API_KEY_FORMAT);
    expect(created).toEqual({
      id: 'key-1',
      name: 'ci',
      owner: 'platform',
      role: 'agent',
      prefix: created.key.slice(0, 11),
      state: 'active',
      createdAt: NOW,
      createdBy: 'admin',
      expiresAt: '2026-06-01T00:00:00.000Z',
      revokedAt: null,
      lastUsedAt: null,
      allowedSources: ['files'],
      allowedTools: null,
      allowedGroups: null,
      rateLimitPerMinute: 30,
      key: created.key,
    });
    expect(f.keys.stored('key-1')).toMatchObject({ hash: sha256(created.key), prefix: created.key.slice(0, 11), scope: { sources: ['files'] } });
    expect(JSON.stringify(f.keys.stored('key-1'))).not.toContain(created.key);
    expect(f.uow.runs).toBe(1);
    expect(f.audit.events).toEqual([
      {
        actor: 'admin',
        action: 'api-key.created',
        targetType: 'api-key',
        targetId: 'key-1',
        targetName: 'ci',
        details: { role: 'agent', owner: 'platform', prefix: created.prefix, expiresAt: '2026-06-01T00:00:00.000Z', allowedSources: ['files'], allowedTools: null, allowedGroups: null, rateLimitPerMinute: 30 },
      },
    ]);
    expect(JSON.stringify(f.audit.events)).not.toContain(created.key);
    expect(f.events.published).toEqual([]);
  });

  it('makes a different key each time', async () => {
    const f = setup();
    const [one, two] = [await f.create({ name: 'a', role: 'agent' }), await f.create({ name: 'a', role: 'agent' })];
    expect(one.key).not.toBe(two.key);
  });

  it('takes a given key, audits that it was given, and tells the key caches, which may have read it as unknown', async () => {
    const f = setup();
    const given = aKeyValue('from the file');

    const created = await f.create({ name: 'deploy', role: 'operator' }, given);

    expect(created.key).toBe(given);
    expect(f.keys.stored('key-1')?.hash).toBe(sha256(given));
    expect(f.audit.events[0]?.details).toMatchObject({ given: true, prefix: given.slice(0, 11) });
    expect(f.events.published).toEqual([new ApiKeyChanged(sha256(given))]);
  });

  it('reports every problem at once, the request shape included, and stores and audits nothing', async () => {
    const f = setup();

    const error = await rejection(
      f.create({ name: '', role: 'root', expiresAt: '2026-01-01T00:00:00Z', allowedTools: ['ok', 'not ok'], allowedGroups: 'support', rateLimitPerMinute: 0 }, undefined, [{ path: 'colour', message: 'is not a known property' }]),
    );

    expect(error).toMatchObject({ kind: 'invalid', code: 'VALIDATION_FAILED', message: 'The API key request is invalid.' });
    expect(error.details.map((d) => d.path)).toEqual(['colour', 'name', 'role', 'expiresAt', 'allowedTools[1]', 'allowedGroups', 'rateLimitPerMinute']);
    expect(error.details.find((d) => d.path === 'expiresAt')?.message).toBe('must be in the future');
    expect(await f.keys.list(undefined, 10)).toEqual([]);
    expect(f.audit.events).toEqual([]);
  });
});
