import { GroupsChanged } from '../../../../shared/catalog-events.js';
import { rejection } from '../../../../shared/testing/rejection.js';
import { groupsFixture, NOW } from '../../testing/groups-fixture.js';
import { DeleteGroupCommand } from '../delete-group/delete-group.command.js';
import { DeleteGroupHandler } from '../delete-group/delete-group.handler.js';
import { UpdateGroupCommand } from '../update-group/update-group.command.js';
import { UpdateGroupHandler } from '../update-group/update-group.handler.js';
import { CreateGroupCommand } from './create-group.command.js';
import { CreateGroupHandler } from './create-group.handler.js';

function setup() {
  const f = groupsFixture();
  const create = new CreateGroupHandler(f.writes);
  const update = new UpdateGroupHandler(f.writes);
  const remove = new DeleteGroupHandler(f.writes);
  return {
    ...f,
    create: (input: Record<string, unknown>) => create.execute(new CreateGroupCommand(input, 'admin')),
    update: (name: string, input: Record<string, unknown>) => update.execute(new UpdateGroupCommand(name, input, 'admin')),
    remove: (name: string) => remove.execute(new DeleteGroupCommand(name, 'admin')),
  };
}

describe('CreateGroup, UpdateGroup, DeleteGroup', () => {
  it('stores a group, audits it in the unit of work, and tells this process and the others', async () => {
    const f = setup();
    const view = await f.create({ name: 'support', include: ['ev__echo'], overrides: { ev__echo: { name: 'say', locked: { message: 'hi' } } } });
    expect(view).toEqual({
      name: 'support',
      description: '',
      select: [],
      include: ['ev__echo'],
      exclude: [],
      overrides: { ev__echo: { name: 'say', locked: { message: 'hi' } } },
      mcpPath: '/mcp/groups/support',
      version: 1,
      createdAt: NOW,
      updatedAt: NOW,
      createdBy: 'admin',
      updatedBy: 'admin',
    });
    expect(f.audit.events).toEqual([
      {
        actor: 'admin',
        action: 'group.created',
        targetType: 'group',
        targetId: 'group-1',
        targetName: 'support',
        details: { name: 'support', description: '', select: [], include: ['ev__echo'], exclude: [], overrides: { ev__echo: { name: 'say', locked: { message: 'hi' } } } },
      },
    ]);
    expect(f.notifier.groups).toEqual(['support']);
    expect(f.events.of(GroupsChanged)).toEqual([new GroupsChanged('support')]);
    expect(await rejection(f.create({ name: 'support' }))).toMatchObject({ code: 'GROUP_NAME_TAKEN', kind: 'conflict' });
  });

  it('refuses an invalid group with every problem, storing nothing', async () => {
    const f = setup();
    const error = await rejection(f.create({ name: '-x', include: 'ev__echo', overrides: { ev__echo: { name: 'a b' } } }));
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'name' }, { path: 'include' }, { path: 'overrides.ev__echo.name' }] });
    expect([f.groups.groups.size, f.audit.events.length, f.events.published.length]).toEqual([0, 0, 0]);
  });

  it('changes only the fields given, audits what changed before and after, and bumps the version; a change that changes nothing is not one', async () => {
    const f = setup();
    await f.create({ name: 'support', include: ['ev__echo'] });
    const changed = await f.update('support', { description: 'for the bot', include: ['ev__echo'] });
    expect([changed.description, changed.include, changed.version]).toEqual(['for the bot', ['ev__echo'], 2]);
    expect(f.audit.events.at(-1)).toMatchObject({ action: 'group.updated', details: { before: { description: '' }, after: { description: 'for the bot' } } });
    const published = f.events.published.length;
    expect((await f.update('support', { description: 'for the bot' })).version).toBe(2);
    expect(f.events.published.length).toBe(published);
    expect(await rejection(f.update('support', { name: 'renamed' }))).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'name' }] });
    expect(await rejection(f.update('nope', { description: 'x' }))).toMatchObject({ code: 'GROUP_NOT_FOUND', kind: 'not_found' });
  });

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
