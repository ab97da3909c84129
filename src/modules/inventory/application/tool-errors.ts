import { NotFound } from '../../../shared/domain-error.js';

export function toolNotFound(qualifiedName: string): NotFound {
  return new NotFound('TOOL_NOT_FOUND', `No tool named "${qualifiedName.slice(0, 100)}".`);
}
