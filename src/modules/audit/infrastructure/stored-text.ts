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
 * The value as canonical JSON (object keys sorted at every depth, undefined members left out)
 * with every string as storedText makes it: the same text as
 * `JSON.stringify(sortKeys(value), storedStrings)`, in one pass and without calling a replacer
 * per value. Meant for JSON data (what JSON.parse gives); undefined at the top answers undefined.
 */
export function canonicalStoredJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string': {
      const text = JSON.stringify(value);
      // Most strings need no storing: their JSON has no NUL and no surrogate escape.
      return MAY_NEED_STORING.test(text) ? JSON.stringify(storedText(value)) : text;
    }
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += `${i > 0 ? ',' : ''}${canonicalStoredJson(value[i]) ?? 'null'}`;
        return `${out}]`;
      }
      const members: string[] = [];
      const record = value as Record<string, unknown>;
      for (const key of keyOrder(Object.keys(record))) {
        const text = canonicalStoredJson(record[key]);
        if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
      }
      return `{${members.join(',')}}`;
    }
    case 'function':
    case 'symbol':
    case 'undefined':
      return undefined;
    default:
      // numbers (NaN and ±Infinity become null), booleans; a bigint throws, as JSON.stringify does.
      return JSON.stringify(value);
  }
}

const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;

/**
 * The order the sorted copy had its keys in: an object lists array-index keys ("0", "10") first,
 * in numeric order, whatever order they were added in; then the others, sorted.
 */
function keyOrder(keys: string[]): string[] {
  const sorted = keys.sort();
  const indexes = sorted.filter((key) => ARRAY_INDEX.test(key) && Number(key) <= 4_294_967_294);
  if (indexes.length === 0) return sorted;
  const isIndex = new Set(indexes);
  return [...indexes.sort((a, b) => Number(a) - Number(b)), ...sorted.filter((key) => !isIndex.has(key))];
}
