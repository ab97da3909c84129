import type { Group } from '../../../groups/domain/group.js';

/** A group as a file declares it: its name, and each setting that is not its default (empty). */
export function exportedGroup(group: Group): Record<string, unknown> {
  return {
    name: group.name,
    ...(group.description !== '' ? { description: group.description } : {}),
    ...(group.select.length > 0 ? { select: group.select } : {}),
    ...(group.include.length > 0 ? { include: group.include } : {}),
    ...(group.exclude.length > 0 ? { exclude: group.exclude } : {}),
    ...(Object.keys(group.overrides).length > 0 ? { overrides: group.overrides } : {}),
  };
}
