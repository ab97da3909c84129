import { rejection } from '../../../../shared/testing/rejection.js';
import { InMemoryGroupRepository } from '../../testing/in-memory-group-repository.js';
import { aGroup } from '../../testing/builders.js';
import { GetGroupHandler } from '../get-group/get-group.handler.js';
import { GetGroupQuery } from '../get-group/get-group.query.js';
import { ListGroupsHandler } from './list-groups.handler.js';
import { ListGroupsQuery } from './list-groups.query.js';

describe('ListGroups, GetGroup', () => {
  const groups = new InMemoryGroupRepository();
  for (const name of ['support', 'alpha', 'triage']) groups.groups.set(name, aGroup(name, { include: [`${name}__x`] }));

  it('pages the groups by name, with a cursor that carries on after the last one', async () => {
    const list = new ListGroupsHandler(groups);
    const first = await list.execute(new ListGroupsQuery(undefined, 2));
    expect(first.items.map((g) => g.name)).toEqual(['alpha', 'support']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await list.execute(new ListGroupsQuery(first.nextCursor!, 2));
    expect([second.items.map((g) => g.name), second.nextCursor]).toEqual([['triage'], null]);
  });

  it('answers one group as the API shows it, and GROUP_NOT_FOUND for another', async () => {
    const get = new GetGroupHandler(groups);
    expect(await get.execute(new GetGroupQuery('support'))).toMatchObject({ name: 'support', include: ['support__x'], mcpPath: '/mcp/groups/support', version: 1 });
    expect(await rejection(get.execute(new GetGroupQuery('nothing')))).toMatchObject({ kind: 'not_found', code: 'GROUP_NOT_FOUND' });
  });
});
