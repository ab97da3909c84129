import { NotFound } from '../../../shared/domain-error.js';

export function sourceNotFound(idOrName: string): NotFound {
  return new NotFound('SOURCE_NOT_FOUND', `No source with id or name "${idOrName.slice(0, 100)}".`);
}
