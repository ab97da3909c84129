import { rejection } from '../../../../shared/testing/rejection.js';
import { accessFixture } from '../../testing/access-fixture.js';
import { anApiKey } from '../../testing/builders.js';
import { ListApiKeysHandler } from './list-api-keys.handler.js';
import { ListApiKeysQuery } from './list-api-keys.query.js';

describe('ListApiKeysHandler', () => {
  const keys = [
    anApiKey('first'),
    anApiKey('revoked', { revokedAt: new Date('2026-02-01T00:00:00Z') }),
    anApiKey('expired', { expiresAt: new Date('2026-02-01T00:00:00Z') }),
    anApiKey('last'),
  ];
  const f = accessFixture(keys);
  const list = (limit: number, cursor?: string) => new ListApiKeysHandler(f.keys, f.clock).execute(new ListApiKeysQuery(cursor, limit));

  it('pages newest first, each key with its state now, the cursor of a page leading to the next', async () => {
    const first = await list(3);
    expect(first.items.map(({ name, state }) => ({ name, state }))).toEqual([
      { name: 'last', state: 'active' },
      { name: 'expired', state: 'expired' },
      { name: 'revoked', state: 'revoked' },
    ]);
    expect(first.nextCursor).not.toBeNull();

    const second = await list(3, first.nextCursor!);
    expect(second).toEqual({ items: [expect.objectContaining({ id: keys[0]!.id, name: 'first' })], nextCursor: null });
  });

  it('answers no next cursor when the last page is exactly full', async () => {
    expect((await list(4)).nextCursor).toBeNull();
    const first = await list(2);
    expect((await list(2, first.nextCursor!)).nextCursor).toBeNull();
  });

  it('shows no key and no hash', async () => {
    const text = JSON.stringify(await list(10));
    for (const key of keys) expect(text).not.toContain(key.hash);
    expect((await list(10)).items.every((item) => !('hash' in item) && !('key' in item))).toBe(true);
  });

  it('refuses a cursor it did not issue with INVALID_CURSOR', async () => {
    expect(await rejection(list(10, 'nope!'))).toMatchObject({ code: 'INVALID_CURSOR', details: [{ path: 'cursor' }] });
    expect(await rejection(list(10, Buffer.from('{"t":"2026-01-01T00:00:00Z"}').toString('base64url')))).toMatchObject({ code: 'INVALID_CURSOR' });
  });
});
