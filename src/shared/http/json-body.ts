import secureJson from 'secure-json-parse';
import type { ProblemDetail } from '../domain-error.js';

/**
 * How deep a request body may nest (objects and arrays). Tool arguments may nest 64 levels (the
 * arguments object being the first); the REST invoke body wraps them once (`arguments`) and an MCP
 * `tools/call` twice (`params.arguments`), so every call the argument check accepts fits.
 */
export const MAX_BODY_DEPTH = 66;
/**
 * How many values (objects, arrays, members and elements) a request body may hold. Every pass
 * over a body (parsing, checking, recording) costs time in proportion to its values, on the event
 * loop: a 1 MiB body of 180,000 values held it about 130 ms; 20,000 cost about 15 ms.
 */
export const MAX_BODY_VALUES = 20_000;

const MAX_PATH_CHARS = 200;

export type JsonBody =
  | { ok: true; value: unknown }
  | { ok: false; code: 'INVALID_JSON' | 'BODY_TOO_DEEP' | 'BODY_TOO_MANY_VALUES' | 'UNSAFE_JSON_KEY'; message: string; details: ProblemDetail[] };

/**
 * Parses a request body the same way on every endpoint: nesting and the number of values bounded
 * before anything recurses into it, and keys that would reach an object's prototype (`__proto__`, `constructor.prototype`)
 * refused, naming where they are. A plain `constructor` key is data and stays an own property.
 */
export function parseJsonBody(text: string): JsonBody {
  const { depth, values } = jsonShape(text, MAX_BODY_DEPTH, MAX_BODY_VALUES);
  if (values > MAX_BODY_VALUES) {
    return {
      ok: false,
      code: 'BODY_TOO_MANY_VALUES',
      message: `The request body holds more than ${MAX_BODY_VALUES.toLocaleString('en-US')} values (objects, arrays and their members).`,
      details: [{ path: 'body', message: `holds more than ${MAX_BODY_VALUES} values` }],
    };
  }
  if (depth > MAX_BODY_DEPTH) {
    return {
      ok: false,
      code: 'BODY_TOO_DEEP',
      message: `The request body nests deeper than ${MAX_BODY_DEPTH} levels.`,
      details: [{ path: 'body', message: `nests deeper than ${MAX_BODY_DEPTH} levels` }],
    };
  }
  try {
    return { ok: true, value: secureJson.parse(text, null, { protoAction: 'error', constructorAction: 'error' }) };
  } catch {
    // Either not JSON at all, or JSON with a key that secure-json-parse refuses: tell them apart.
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      code: 'INVALID_JSON',
      message: 'The request body is not valid JSON.',
      details: [{ path: 'body', message: error instanceof Error ? error.message : 'not JSON' }],
    };
  }
  const path = unsafeKeyPath(value) ?? 'body';
  return {
    ok: false,
    code: 'UNSAFE_JSON_KEY',
    message: 'The request body contains a key that is not accepted (__proto__, or constructor.prototype).',
    details: [{ path, message: 'is not an accepted key' }],
  };
}

/** The deepest nesting of objects and arrays in a JSON text (see jsonShape). */
export function jsonNestingDepth(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  return jsonShape(text, stopAbove).depth;
}

/**
 * The deepest nesting of objects and arrays in a JSON text and how many values it holds, counted
 * as 1 + containers + commas (exact, except that an empty object or array counts one more), in
 * one pass without recursion (brackets and commas inside strings do not count). Stops once
 * either exceeds its bound. For text that is not JSON the answer means nothing; the parser
 * refuses such text anyway.
 */
export function jsonShape(text: string, stopDepthAbove = Number.POSITIVE_INFINITY, stopValuesAbove = Number.POSITIVE_INFINITY): { depth: number; values: number } {
  let depth = 0;
  let deepest = 0;
  let values = 1;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = closingQuote(text, i);
    } else if (c === 0x2c /* , */) {
      if (++values > stopValuesAbove) break;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (++values > stopValuesAbove) break;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopDepthAbove) break;
      }
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return { depth: deepest, values };
}

/** Index of the quote that closes the string opened at `open` (the text's length if none does). */
function closingQuote(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return text.length;
    // Escaped when preceded by an odd run of backslashes; each run is looked at once, so this stays linear.
    let backslash = quote - 1;
    while (backslash > open && text.charCodeAt(backslash) === 0x5c) backslash--;
    if ((quote - 1 - backslash) % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** Where the first `__proto__` key, or `constructor` object with a `prototype`, is (iterative walk). */
export function unsafeKeyPath(value: unknown): string | undefined {
  const pending: Array<{ node: unknown; path: string }> = [{ node: value, path: '' }];
  while (pending.length > 0) {
    const { node, path } = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) pending.push({ node: node[i], path: `${path}[${i}]` });
      continue;
    }
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const at = path ? `${path}.${key}` : key;
      if (key === '__proto__') return at.slice(0, MAX_PATH_CHARS);
      const inner = record[key];
      if (key === 'constructor' && inner !== null && typeof inner === 'object' && Object.hasOwn(inner, 'prototype')) {
        return `${at}.prototype`.slice(0, MAX_PATH_CHARS);
      }
      pending.push({ node: inner, path: at });
    }
  }
  return undefined;
}
