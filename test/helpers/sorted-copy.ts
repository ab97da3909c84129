/**
 * The first definition of canonical JSON, kept as the reference the one-pass writers are checked
 * against: a copy with keys sorted at every depth (undefined members left out), for JSON.stringify.
 */
export function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
        .map((key) => [key, sortedCopy((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
