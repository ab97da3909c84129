import { aFirstRevision } from '../../../shared/testing/revisions.js';
import type { Group, GroupSpec } from '../domain/group.js';

/** A stored group: nothing selected unless `spec` says so. */
export function aGroup(name: string, spec: Partial<GroupSpec> = {}): Group {
  return { ...aFirstRevision(`group-${name}`), name, description: '', select: [], include: [], exclude: [], overrides: {}, ...spec };
}
