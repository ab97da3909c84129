import { hash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth, so equal definitions hash equally: the text of
 * `JSON.stringify` over a copy with sorted keys (undefined members left out, every object taken as
 * its own enumerable keys), written in one pass without the copy. Undefined at the top answers
 * undefined, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  return canonicalJsonWith(value, JSON.stringify)!;
}

/**
 * Whether two JSON values are equal, key order aside: whether their canonicalJson texts are,
 * answered without writing them and without recursion (an upstream's or a caller's JSON may be
 * nested deeper than the stack). Two values that are not both objects are equal only if identical.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const pending: [unknown, unknown][] = [[a, b]];
  while (pending.length > 0) {
    const [x, y] = pending.pop()!;
    if (x === y) continue;
    const xIsObject = typeof x === 'object' && x !== null;
    const yIsObject = typeof y === 'object' && y !== null;
    if (!xIsObject || !yIsObject) {
      if (xIsObject || yIsObject || leafJson(x) !== leafJson(y)) return false;
      continue;
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const other = y as unknown[];
      if (x.length !== other.length) return false;
      // In an array, what JSON cannot hold is written null.
      for (let i = 0; i < x.length; i++) pending.push([orNull(x[i]), orNull(other[i])]);
      continue;
    }
    const xRecord = x as Record<string, unknown>;
    const yRecord = y as Record<string, unknown>;
    // In an object, a member JSON cannot hold is left out.
    const xKeys = Object.keys(xRecord).filter((key) => writable(xRecord[key]));
    const yKeys = Object.keys(yRecord).filter((key) => writable(yRecord[key]));
    if (xKeys.length !== yKeys.length) return false;
    for (const key of xKeys) {
      if (!Object.prototype.hasOwnProperty.call(yRecord, key) || !writable(yRecord[key])) return false;
      pending.push([xRecord[key], yRecord[key]]);
    }
  }
  return true;
}

/** A value that is not an object, as canonicalJson writes it (undefined: left out). */
function leafJson(value: unknown): string | undefined {
  return value === null || typeof value === 'string' ? JSON.stringify(value) : canonicalJsonWith(value, JSON.stringify);
}

function writable(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

function orNull(value: unknown): unknown {
  return writable(value) ? value : null;
}

/** canonicalJson with each string written by `stringJson` (its JSON text, quotes included). */
export function canonicalJsonWith(value: unknown, stringJson: (text: string) => string): string | undefined {
  switch (typeof value) {
    case 'string':
      return stringJson(value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += `${i > 0 ? ',' : ''}${canonicalJsonWith(value[i], stringJson) ?? 'null'}`;
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      let out = '{';
      for (const key of keyOrder(Object.keys(record))) {
        const text = canonicalJsonWith(record[key], stringJson);
        if (text !== undefined) out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${text}`;
      }
      return `${out}}`;
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
 * The order a sorted copy has its keys in: an object lists array-index keys ("0", "10") first, in
 * numeric order, whatever order they were added in; then the others, sorted.
 */
function keyOrder(keys: string[]): string[] {
  const sorted = keys.sort();
  // Most objects have no key that could be an index: a look at first characters settles it.
  if (!sorted.some(startsWithDigit)) return sorted;
  const indexes = sorted.filter((key) => ARRAY_INDEX.test(key) && Number(key) <= 4_294_967_294);
  if (indexes.length === 0) return sorted;
  const isIndex = new Set(indexes);
  return [...indexes.sort((a, b) => Number(a) - Number(b)), ...sorted.filter((key) => !isIndex.has(key))];
}

function startsWithDigit(key: string): boolean {
  const code = key.charCodeAt(0);
  return code >= 48 && code <= 57;
}

export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}
