import { canonicalJson } from '../canonical-json.js';

/** JSON equality, as uniqueItems means it: key order aside, 1 and 1.0 the same. Linear: canonical JSON in a set. */
export function allDistinct(items: unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    const key = canonicalJson(item);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}
