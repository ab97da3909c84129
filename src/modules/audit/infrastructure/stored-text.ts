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
