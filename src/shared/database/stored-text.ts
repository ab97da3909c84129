import { canonicalJsonWith } from '../canonical-json.js';

/** PostgreSQL text and jsonb hold neither NUL nor lone surrogates (a truncated emoji): both become U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** NUL or any surrogate: a text without one is stored as it is. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const MAY_NEED_REPLACING = /[\u0000\uD800-\uDFFF]/;

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
