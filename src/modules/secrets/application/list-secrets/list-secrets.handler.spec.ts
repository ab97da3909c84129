import { rejection } from '../../../../shared/testing/rejection.js';
import { InMemorySecretRepository } from '../../testing/in-memory-secret-repository.js';
import { ListSecretsHandler } from './list-secrets.handler.js';
import { ListSecretsQuery } from './list-secrets.query.js';

describe('ListSecretsHandler', () => {
  const values = { B_TOKEN: 'value-of-b', A_TOKEN: 'value-of-a', C_TOKEN: 'value-of-c', _PRIVATE: 'value-of-private' };
  const secrets = new InMemorySecretRepository(values, new Date('2026-02-01T00:00:00Z'));
  const list = (limit: number, cursor?: string) => new ListSecretsHandler(secrets).execute(new ListSecretsQuery(cursor, limit));

  it('pages names in order with their times, the cursor of a page leading to the next', async () => {
    const first = await list(3);
    expect(first.items).toEqual(
      ['A_TOKEN', 'B_TOKEN', 'C_TOKEN'].map((name) => ({ name, createdAt: '2026-02-01T00:00:00.000Z', updatedAt: '2026-02-01T00:00:00.000Z' })),
    );
    expect((await list(3, first.nextCursor!)).items.map((item) => item.name)).toEqual(['_PRIVATE']);
    expect((await list(3, first.nextCursor!)).nextCursor).toBeNull();
  });

  it('answers no next cursor when the last page is exactly full', async () => {
    expect((await list(4)).nextCursor).toBeNull();
    const first = await list(2);
    expect((await list(2, first.nextCursor!)).nextCursor).toBeNull();
  });

  it('never shows a value, nor reveals one', async () => {
    const text = JSON.stringify(await list(10));
    for (const value of Object.values(values)) expect(text).not.toContain(value);
    expect(secrets.revealed).toEqual([]);
  });

  it('refuses a cursor it did not issue with INVALID_CURSOR', async () => {
    expect(await rejection(list(10, '$$'))).toMatchObject({ code: 'INVALID_CURSOR', details: [{ path: 'cursor' }] });
    expect(await rejection(list(10, Buffer.from('{"name":"A_TOKEN"}').toString('base64url')))).toMatchObject({ code: 'INVALID_CURSOR' });
  });
});
