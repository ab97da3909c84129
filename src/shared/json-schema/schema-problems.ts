import type { ErrorObject } from 'ajv';
import type { ProblemDetail } from '../domain-error.js';

/**
 * ajv's errors as problems a person can act on, at JSON paths under `base` (`arguments`,
 * `structuredContent`): a missing or unexpected property is named in the path.
 */
export function schemaProblems(errors: readonly ErrorObject[] | null | undefined, base: string, max: number): ProblemDetail[] {
  return (errors ?? []).slice(0, max).map((error) => toProblem(error, base));
}

function toProblem(error: ErrorObject, root: string): ProblemDetail {
  const base = root + pointerToPath(error.instancePath);
  switch (error.keyword) {
    case 'required':
      return { path: `${base}.${(error.params as { missingProperty: string }).missingProperty}`, message: 'is required' };
    case 'additionalProperties':
      return { path: `${base}.${(error.params as { additionalProperty: string }).additionalProperty}`, message: 'is not allowed by the schema' };
    default:
      return { path: base, message: error.message ?? `fails ${error.keyword}` };
  }
}

/** `/items/0/name` → `.items[0].name` */
function pointerToPath(pointer: string): string {
  if (!pointer) return '';
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`))
    .join('');
}
