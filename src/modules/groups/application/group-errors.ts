import { Conflict, NotFound } from '../../../shared/domain-error.js';

export function groupNotFound(name: string): NotFound {
  return new NotFound('GROUP_NOT_FOUND', `No group named "${name.slice(0, 100)}".`);
}

export function groupNameTaken(name: string): Conflict {
  return new Conflict('GROUP_NAME_TAKEN', `A group named "${name}" exists already.`, [{ path: 'name', message: 'is taken' }]);
}
