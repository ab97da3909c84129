import { rejection } from '../../../../shared/testing/rejection.js';
import { groupsFixture } from '../../testing/groups-fixture.js';
import { CreateGroupCommand } from '../create-group/create-group.command.js';
import { CreateGroupHandler } from '../create-group/create-group.handler.js';
import { DeleteGroupCommand } from './delete-group.command.js';
import { DeleteGroupHandler } from './delete-group.handler.js';

function setup() {
  const f = groupsFixture();
  const create = new CreateGroupHandler(f.writes);
  const remove = new DeleteGroupHandler(f.writes);
  return {
    ...f,
    create: (input: Record<string, unknown>) => create.execute(new CreateGroupCommand(input, 'admin')),
    remove: (name: string) => remove.execute(new DeleteGroupCommand(name, 'admin')),
  };
}

describe('DeleteGroupHandler', () => {
  it('removes a group with its audit event and tells the views', async () => {
    const f = setup();
    await f.create({ name: 'support' });
    expect((await f.remove('support')).name).toBe('support');
    expect(f.groups.groups.size).toBe(0);
    expect(f.audit.events.at(-1)).toMatchObject({ action: 'group.removed', targetName: 'support' });
    expect(f.notifier.groups).toEqual(['support', 'support']);
    expect(await rejection(f.remove('support'))).toMatchObject({ code: 'GROUP_NOT_FOUND' });
  });
});
