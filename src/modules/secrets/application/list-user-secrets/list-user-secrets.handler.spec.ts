import { InMemoryUserSecrets } from '../../testing/in-memory-user-secrets.js';
import { ListUserSecretsHandler } from './list-user-secrets.handler.js';
import { ListUserSecretsQuery } from './list-user-secrets.query.js';

describe('ListUserSecretsHandler', () => {
  it("lists the principal's own names and times, sorted, never a value nor another principal's", async () => {
    const handler = new ListUserSecretsHandler(new InMemoryUserSecrets({ alice: { ZED: 'z-value', JIRA: 'j-value' }, bob: { BOBS: 'b-value' } }));
    const listed = await handler.execute(new ListUserSecretsQuery('alice'));
    expect(listed).toEqual({
      items: [
        { name: 'JIRA', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' },
        { name: 'ZED', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' },
      ],
    });
    expect(JSON.stringify(listed)).not.toContain('value');
    expect(await handler.execute(new ListUserSecretsQuery('carol'))).toEqual({ items: [] });
  });
});
