import { canonicalJsonWith } from '../canonical-json.js';

/** PostgreSQL text and jsonb hold neither NUL nor lone surrogates (a truncated emoji): both become U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** NUL or any surrogate: a text without one is stored as it is. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const MAY_NEED_REPLACING = /[\u0000\uD800-\uDFFF]/;

/** NUL, or a UTF-16 surrogate without its other half: what PostgreSQL's text and jsonb refuse. */
const UNSTORABLE = new RegExp(`\\u0000|${LONE_SURROGATE.source}`);
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

/** Whether PostgreSQL would refuse the text as it is (a NUL or a lone surrogate in it). */
export function isUnstorableText(text: string): boolean {
  // Most text has no NUL and no surrogate at all, which the simpler pattern settles.
  return MAY_NEED_REPLACING.test(text) && UNSTORABLE.test(text);
}

/** `\u0000`, `\ud800`: each character PostgreSQL refuses as the escape a person would write, as visible text. */
export function escapeUnstorable(text: string): string {
  return isUnstorableText(text) ? text.replace(UNSTORABLE_ALL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`) : text;
}

/**
 * Whether a JSON value holds a key or a string PostgreSQL would refuse, or (given `maxDepth`) nests
 * containers deeper than that. One iterative pass that builds nothing, so that the common answer
 * (no) costs one look at each value.
 */
export function holdsUnstorableText(value: unknown, maxDepth = Number.POSITIVE_INFINITY): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop()!;
    if (typeof current === 'string') {
      if (isUnstorableText(current)) return true;
    } else if (current !== null && typeof current === 'object') {
      if (depth > maxDepth) return true;
      if (Array.isArray(current)) {
        for (let i = 0; i < current.length; i++) {
          values.push(current[i]);
          depths.push(depth + 1);
        }
      } else {
        const record = current as Record<string, unknown>;
        for (const key of Object.keys(record)) {
          if (isUnstorableText(key)) return true;
          values.push(record[key]);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

/** The text as an execution record stores it. */
export function storedText(value: string): string {
  if (!MAY_NEED_REPLACING.test(value)) return value;
  return value.replaceAll('\u0000', '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
}

export function storedNullableText(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : storedText(value);
}

/** A JSON.stringify replacer that stores every string as storedText does. */
export function storedStrings(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? storedText(value) : value;
}

/** The value as JSON text for a jsonb column. */
export function storedJson(value: unknown): string {
  return JSON.stringify(value, storedStrings);
}

/**
 * The value as canonical JSON (see canonicalJson) with every string as storedText makes it: the
 * same text as `JSON.stringify(sortKeys(value), storedStrings)`, in one pass and without calling a
 * replacer per value. Meant for JSON data (what JSON.parse gives); undefined at the top answers undefined.
 */
export function canonicalStoredJson(value: unknown): string | undefined {
  return canonicalJsonWith(value, storedStringJson);
}

function storedStringJson(value: string): string {
  return JSON.stringify(storedText(value));
}
