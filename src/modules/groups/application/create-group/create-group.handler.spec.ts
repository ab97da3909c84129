import { GroupsChanged } from '../../../../shared/catalog-events.js';
import { rejection } from '../../../../shared/testing/rejection.js';
import { groupsFixture, NOW } from '../../testing/groups-fixture.js';

describe('CreateGroupHandler', () => {
  it('stores a group, audits it in the unit of work, and tells this process and the others', async () => {
    const f = groupsFixture();
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
    const f = groupsFixture();
    const error = await rejection(f.create({ name: '-x', include: 'ev__echo', overrides: { ev__echo: { name: 'a b' } } }));
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'name' }, { path: 'include' }, { path: 'overrides.ev__echo.name' }] });
    expect([f.groups.groups.size, f.audit.events.length, f.events.published.length]).toEqual([0, 0, 0]);
  });
});
