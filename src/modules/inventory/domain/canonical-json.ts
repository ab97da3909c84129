import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth, so equal definitions hash equally; `replacer` as JSON.stringify's. */
export function canonicalJson(value: unknown, replacer?: (key: string, value: unknown) => unknown): string {
  return JSON.stringify(sortKeys(value), replacer);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
