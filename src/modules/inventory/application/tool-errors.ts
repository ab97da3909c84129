import { NotFound } from '../../../shared/domain-error.js';

export function toolNotFound(qualifiedName: string): NotFound {
  return new NotFound('TOOL_NOT_FOUND', `No tool named "${qualifiedName.slice(0, 100)}".`);
}

export function reviewNotFound(id: string): NotFound {
  return new NotFound('REVIEW_NOT_FOUND', `No review "${id.slice(0, 100)}".`);
}
