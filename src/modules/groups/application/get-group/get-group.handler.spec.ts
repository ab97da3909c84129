import { rejection } from '../../../../shared/testing/rejection.js';
import { InMemoryGroupRepository } from '../../testing/in-memory-group-repository.js';
import { aGroup } from '../../testing/builders.js';
import { GetGroupHandler } from './get-group.handler.js';
import { GetGroupQuery } from './get-group.query.js';

describe('GetGroupHandler', () => {
  const groups = new InMemoryGroupRepository();
  groups.groups.set('support', aGroup('support', { include: ['support__x'] }));

  it('answers one group as the API shows it, and GROUP_NOT_FOUND for another', async () => {
    const get = new GetGroupHandler(groups);
    expect(await get.execute(new GetGroupQuery('support'))).toMatchObject({ name: 'support', include: ['support__x'], mcpPath: '/mcp/groups/support', version: 1 });
    expect(await rejection(get.execute(new GetGroupQuery('nothing')))).toMatchObject({ kind: 'not_found', code: 'GROUP_NOT_FOUND' });
  });
});
