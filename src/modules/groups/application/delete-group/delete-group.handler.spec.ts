import { rejection } from '../../../../shared/testing/rejection.js';
import { groupsFixture } from '../../testing/groups-fixture.js';

describe('DeleteGroupHandler', () => {
  it('removes a group with its audit event and tells the views', async () => {
    const f = groupsFixture();
    await f.create({ name: 'support' });
    expect((await f.remove('support')).name).toBe('support');
    expect(f.groups.groups.size).toBe(0);
    expect(f.audit.events.at(-1)).toMatchObject({ action: 'group.removed', targetName: 'support' });
    expect(f.notifier.groups).toEqual(['support', 'support']);
    expect(await rejection(f.remove('support'))).toMatchObject({ code: 'GROUP_NOT_FOUND' });
  });
});
