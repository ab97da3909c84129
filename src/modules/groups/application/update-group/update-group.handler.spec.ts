import { rejection } from '../../../../shared/testing/rejection.js';
import { groupsFixture } from '../../testing/groups-fixture.js';

describe('UpdateGroupHandler', () => {
  it('changes only the fields given, audits what changed before and after, and bumps the version; a change that changes nothing is not one', async () => {
    const f = groupsFixture();
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
});
