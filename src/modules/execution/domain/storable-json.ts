import { escapeUnstorable, holdsUnstorableText, isUnstorableText as isUnstorable } from '../../../shared/database/stored-text.js';
import type { ProblemDetail } from '../../../shared/domain-error.js';

/** How deep a stored copy nests; deeper containers are kept as a note (PostgreSQL's jsonb recurses). */
export const MAX_STORED_DEPTH = 100;
const MAX_REPORTED = 20;

/**
 * Where a JSON value holds text that cannot be recorded as it is (keys and strings with NUL or a
 * lone surrogate), so a call can be refused before it reaches an upstream. Iterative; the paths are
 * only written when there is something to report.
 */
export function unstorablePaths(value: unknown): ProblemDetail[] {
  const problems: ProblemDetail[] = [];
  if (!holdsUnstorableText(value)) return problems;
  const stack: [unknown, string][] = [[value, 'arguments']];
  while (stack.length > 0 && problems.length < MAX_REPORTED) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (isUnstorable(current)) problems.push({ path, message: 'holds a NUL character or a lone UTF-16 surrogate, which cannot be recorded' });
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], `${path}[${i}]`]);
    } else if (current !== null && typeof current === 'object') {
      for (const [key, inner] of Object.entries(current).reverse()) {
        if (isUnstorable(key)) {
          problems.push({ path: `${path}.${escapeUnstorable(key)}`, message: 'is a key with a NUL character or a lone UTF-16 surrogate, which cannot be recorded' });
        } else stack.push([inner, `${path}.${key}`]);
      }
    }
  }
  return problems;
}

/**
 * A copy of a JSON value that PostgreSQL can store: NUL and lone surrogates in keys and strings
 * become their visible escapes (`\u0000`), containers deeper than {@link MAX_STORED_DEPTH} a note.
 * Keys such as `__proto__` stay own properties. The same value when nothing needed changing.
 * Iterative, so an upstream's deep result cannot exhaust the stack.
 */
export function storableCopy<T>(value: T): T {
  if (!holdsUnstorableText(value, MAX_STORED_DEPTH)) return value;
  if (typeof value === 'string') return escapeUnstorable(value) as T;
  const root = emptyLike(value as object);
  const stack: [source: object, target: Record<string, unknown> | unknown[], depth: number][] = [[value as object, root, 1]];
  while (stack.length > 0) {
    const [source, target, depth] = stack.pop()!;
    for (const [key, inner] of Object.entries(source)) {
      let copy: unknown = inner;
      if (typeof inner === 'string') copy = escapeUnstorable(inner);
      else if (inner !== null && typeof inner === 'object') {
        if (depth >= MAX_STORED_DEPTH) copy = `[nested deeper than ${MAX_STORED_DEPTH} levels: not recorded]`;
        else {
          copy = emptyLike(inner);
          stack.push([inner, copy as Record<string, unknown> | unknown[], depth + 1]);
        }
      }
      if (Array.isArray(target)) target[Number(key)] = copy;
      else Object.defineProperty(target, escapeUnstorable(key), { value: copy, enumerable: true, writable: true, configurable: true });
    }
  }
  return root as T;
}

function emptyLike(value: object): Record<string, unknown> | unknown[] {
  return Array.isArray(value) ? new Array<unknown>(value.length) : {};
}
