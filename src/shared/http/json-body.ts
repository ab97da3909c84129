import secureJson from 'secure-json-parse';
import type { ProblemDetail } from '../domain-error.js';

/**
 * How deep a request body may nest (objects and arrays). Tool arguments may nest 64 levels (the
 * arguments object being the first); the REST invoke body wraps them once (`arguments`) and an MCP
 * `tools/call` twice (`params.arguments`), so every call the argument check accepts fits.
 */
export const MAX_BODY_DEPTH = 66;

const MAX_PATH_CHARS = 200;

export type JsonBody =
  | { ok: true; value: unknown }
  | { ok: false; code: 'INVALID_JSON' | 'BODY_TOO_DEEP' | 'UNSAFE_JSON_KEY'; message: string; details: ProblemDetail[] };

/**
 * Parses a request body the same way on every endpoint: nesting bounded before anything recurses
 * into it, and keys that would reach an object's prototype (`__proto__`, `constructor.prototype`)
 * refused, naming where they are. A plain `constructor` key is data and stays an own property.
 */
export function parseJsonBody(text: string): JsonBody {
  const depth = jsonNestingDepth(text, MAX_BODY_DEPTH);
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

/**
 * The deepest nesting of objects and arrays in a JSON text, in one pass without recursion
 * (brackets inside strings do not count). Stops counting once `stopAbove` is exceeded. For text
 * that is not JSON the answer means nothing; the parser refuses such text anyway.
 */
export function jsonNestingDepth(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = closingQuote(text, i);
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return deepest;
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
