import { outOfScope } from './interceptor-scope.js';

const CALL = { source: 'files', group: null, tool: 'files__read' };

describe('outOfScope', () => {
  it('lets in a call every field of the scope matches; an empty scope lets in every call', () => {
    expect(outOfScope({}, CALL)).toBeUndefined();
    expect(outOfScope({ source: 'files', tools: ['*__read'] }, CALL)).toBeUndefined();
    expect(outOfScope({ group: 'support' }, { ...CALL, group: 'support' })).toBeUndefined();
  });

  it('names the first field that leaves the call out', () => {
    expect(outOfScope({ source: 'git', tools: ['x'] }, CALL)).toBe('its scope is source "git"; files__read is a tool of "files"');
    expect(outOfScope({ group: 'support' }, CALL)).toBe('its scope is group "support"; the call comes through no group');
    expect(outOfScope({ group: 'support' }, { ...CALL, group: 'sales' })).toBe('its scope is group "support"; the call comes through group "sales"');
    expect(outOfScope({ tools: ['files__write*', 'git__*'] }, CALL)).toBe('none of its tool patterns (files__write*, git__*) matches files__read');
  });
});
