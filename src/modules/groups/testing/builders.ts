import type { Group, GroupSpec } from '../domain/group.js';

const AT = new Date('2026-01-01T00:00:00.000Z');

/** A stored group: nothing selected unless `spec` says so. */
export function aGroup(name: string, spec: Partial<GroupSpec> = {}): Group {
  return {
    id: `group-${name}`,
    name,
    description: '',
    select: [],
    include: [],
    exclude: [],
    overrides: {},
    createdAt: AT,
    updatedAt: AT,
    createdBy: 'admin',
    updatedBy: 'admin',
    version: 1,
    ...spec,
  };
}
