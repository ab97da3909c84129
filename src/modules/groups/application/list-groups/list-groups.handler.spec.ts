import { InMemoryGroupRepository } from '../../testing/in-memory-group-repository.js';
import { aGroup } from '../../testing/builders.js';
import { ListGroupsHandler } from './list-groups.handler.js';
import { ListGroupsQuery } from './list-groups.query.js';

describe('ListGroupsHandler', () => {
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
});
