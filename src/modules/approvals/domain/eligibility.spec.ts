import { isApprover, isOwnCall } from './eligibility.js';

describe('approval eligibility', () => {
  const ops = { id: 'key-2', name: 'ops', roles: ['operator'] };

  it('admits a principal by a role it has, or by its id or name listed', () => {
    expect(isApprover({ roles: ['operator'] }, ops)).toBe(true);
    expect(isApprover({ principals: ['key-2'] }, ops)).toBe(true);
    expect(isApprover({ principals: ['ops'] }, ops)).toBe(true);
    expect(isApprover({ roles: ['admin'], principals: ['someone'] }, ops)).toBe(false);
    expect(isApprover({}, ops)).toBe(false);
  });

  it('knows the call’s own caller by id, not by a name another principal may share', () => {
    expect(isOwnCall('key-2', ops)).toBe(true);
    expect(isOwnCall('ops', ops)).toBe(false);
  });
});
