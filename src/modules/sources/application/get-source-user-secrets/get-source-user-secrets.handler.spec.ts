import { rejection } from '../../../../shared/testing/rejection.js';
import { InMemoryUserSecrets } from '../../../secrets/testing/in-memory-user-secrets.js';
import { aRemoteSource } from '../../testing/builders.js';
import { InMemorySourceRepository } from '../../testing/in-memory-source-repository.js';
import { GetSourceUserSecretsHandler } from './get-source-user-secrets.handler.js';
import { GetSourceUserSecretsQuery } from './get-source-user-secrets.query.js';

describe('GetSourceUserSecretsHandler', () => {
  const source = aRemoteSource({
    name: 'jira',
    headers: { Authorization: 'Bearer ${user-secret:JIRA_TOKEN}', 'X-Tenant': '${user-secret:JIRA_TENANT}' },
    upstreamAuth: { mode: 'user-secret' },
  });

  it('names the referenced values and which principals hold which, never a value', async () => {
    const userSecrets = new InMemoryUserSecrets({
      alice: { JIRA_TOKEN: 'alice-token-value', JIRA_TENANT: 'acme', OTHER: 'x' },
      bob: { JIRA_TOKEN: 'bob-token-value' },
      carol: { OTHER: 'y' },
    });
    const handler = new GetSourceUserSecretsHandler(new InMemorySourceRepository([source]), userSecrets);

    const answer = await handler.execute(new GetSourceUserSecretsQuery('jira'));

    expect(answer).toEqual({
      names: ['JIRA_TENANT', 'JIRA_TOKEN'],
      items: [
        { principalId: 'alice', holds: ['JIRA_TENANT', 'JIRA_TOKEN'], missing: [] },
        { principalId: 'bob', holds: ['JIRA_TOKEN'], missing: ['JIRA_TENANT'] },
      ],
    });
    expect(JSON.stringify(answer)).not.toMatch(/token-value|acme/);
  });

  it('answers SOURCE_NOT_FOUND for an unknown source', async () => {
    const handler = new GetSourceUserSecretsHandler(new InMemorySourceRepository([]), new InMemoryUserSecrets());
    expect(await rejection(handler.execute(new GetSourceUserSecretsQuery('nope')))).toMatchObject({ code: 'SOURCE_NOT_FOUND' });
  });
});
