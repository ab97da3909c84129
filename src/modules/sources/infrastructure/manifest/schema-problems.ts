import type { ErrorObject } from 'ajv';
import { type JsonPathSegment, manifestPath, truncate } from '../../domain/manifest/manifest-path.js';
import type { ManifestFileName, ManifestProblem } from '../../domain/manifest/plugin-manifest.js';
import { PATTERN_MESSAGES } from './schema-patterns.js';

/**
 * Turns ajv errors (allErrors mode) into problems with readable paths and messages: one
 * problem per fault, without the bookkeeping errors ajv adds around if/then and anyOf.
 * Past `limit` problems, the rest are only counted.
 */
export function schemaProblems(
  file: ManifestFileName,
  errors: readonly ErrorObject[],
  document: unknown,
  limit = Number.POSITIVE_INFINITY,
): ManifestProblem[] {
  // Errors inside a failed anyOf explain its branches; the anyOf itself is reported once.
  // (ajv drops branch errors of an anyOf that passed, so whatever sits below one belongs to a failure.)
  const anyOfPaths = [...new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => `${e.schemaPath}/`))];
  const isBranch = (error: ErrorObject): boolean => anyOfPaths.some((p) => error.schemaPath.startsWith(p));

  // A value of the wrong type fails its enum/pattern/... too: only the type error is worth showing.
  const wrongType = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));

  const problems: ManifestProblem[] = [];
  const seen = new Set<string>();
  let omitted = 0;
  errors.forEach((error, index) => {
    if (error.keyword === 'if' || isBranch(error)) return;
    if (error.keyword !== 'type' && wrongType.has(error.instancePath)) return;
    if (problems.length >= limit) {
      omitted++;
      return;
    }
    const problem = toProblem(file, error, document, error.keyword === 'anyOf' ? branchesBefore(errors, index) : []);
    const key = `${problem.path}\n${problem.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    problems.push(problem);
  });
  if (omitted > 0) problems.push({ path: file, message: `${omitted} more problems not shown` });
  return problems;
}

/** ajv reports a failed anyOf right after the errors of its branches for the same value. */
function branchesBefore(errors: readonly ErrorObject[], anyOfIndex: number): ErrorObject[] {
  const anyOf = errors[anyOfIndex]!;
  const branches: ErrorObject[] = [];
  for (let i = anyOfIndex - 1; i >= 0; i--) {
    const e = errors[i]!;
    const sameValue = e.instancePath === anyOf.instancePath || e.instancePath.startsWith(`${anyOf.instancePath}/`);
    if (!sameValue || !e.schemaPath.startsWith(`${anyOf.schemaPath}/`)) break;
    branches.unshift(e);
  }
  return branches;
}

function toProblem(file: ManifestFileName, error: ErrorObject, document: unknown, branches: ErrorObject[]): ManifestProblem {
  const { segments, value } = locate(document, error.instancePath);
  const params = error.params as Record<string, unknown>;
  const path = (...extra: JsonPathSegment[]): string => manifestPath(file, [...segments, ...extra]);

  switch (error.keyword) {
    case 'required':
      return { path: path(String(params.missingProperty)), message: 'is required' };
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      return { path: path(name), message: `unknown property '${truncate(name)}'` };
    }
    case 'type':
      return { path: path(), message: `must be ${withArticle(String(params.type))}, got ${describe(value)}` };
    case 'enum':
      return { path: path(), message: `must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}` };
    case 'const':
      return { path: path(), message: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'pattern': {
      const pattern = String(params.pattern);
      return { path: path(), message: PATTERN_MESSAGES[pattern] ?? `must match the pattern ${pattern}` };
    }
    case 'format':
      return { path: path(), message: params.format === 'uri' ? 'must be an absolute URI, e.g. https://example.com' : `must be a valid ${String(params.format)}` };
    case 'minLength':
      return { path: path(), message: params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters long` };
    case 'maxLength':
      return { path: path(), message: `must be at most ${String(params.limit)} characters long` };
    case 'minItems':
      return { path: path(), message: `must have at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}` };
    case 'maxItems':
      return { path: path(), message: `must have at most ${String(params.limit)} items` };
    case 'maxProperties':
      return { path: path(), message: `must have at most ${String(params.limit)} entries` };
    case 'anyOf': {
      const missing = branches.filter((e) => e.keyword === 'required' && e.instancePath === error.instancePath);
      if (missing.length > 0 && missing.length === branches.length) {
        const names = missing.map((e) => `"${String((e.params as Record<string, unknown>).missingProperty)}"`);
        return { path: path(), message: `needs ${names.join(' or ')}` };
      }
      return { path: path(), message: 'does not match any of the allowed forms' };
    }
    default:
      return { path: path(), message: error.message ?? 'is invalid' };
  }
}

/**
 * Follows a JSON pointer through the document, so that indexes and object keys that look
 * like numbers are told apart, and returns the value found there.
 */
function locate(document: unknown, pointer: string): { segments: JsonPathSegment[]; value: unknown } {
  const segments: JsonPathSegment[] = [];
  let node: unknown = document;
  if (pointer === '') return { segments, value: node };
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      const index = Number(key);
      segments.push(index);
      node = node[index];
    } else {
      segments.push(key);
      node = node !== null && typeof node === 'object' && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
    }
  }
  return { segments, value: node };
}

function withArticle(type: string): string {
  if (type === 'integer' || type === 'object' || type === 'array') return `an ${type}`;
  return `a ${type}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return withArticle(typeof value);
}
