import { canonicalJsonWith } from '../../inventory/domain/canonical-json.js';

/** PostgreSQL text and jsonb hold neither NUL nor lone surrogates (a truncated emoji): both become U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text as an execution record stores it. */
export function storedText(value: string): string {
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

/** JSON.stringify's escapes of what storedText replaces: NUL, and a surrogate (maybe lone). */
const MAY_NEED_STORING = /\\u0000|\\ud[89a-f]/i;

/**
 * The value as canonical JSON (see canonicalJson) with every string as storedText makes it: the
 * same text as `JSON.stringify(sortKeys(value), storedStrings)`, in one pass and without calling a
 * replacer per value. Meant for JSON data (what JSON.parse gives); undefined at the top answers undefined.
 */
export function canonicalStoredJson(value: unknown): string | undefined {
  return canonicalJsonWith(value, storedStringJson);
}

function storedStringJson(value: string): string {
  const text = JSON.stringify(value);
  // Most strings need no storing: their JSON has no NUL and no surrogate escape.
  return MAY_NEED_STORING.test(text) ? JSON.stringify(storedText(value)) : text;
}
