/**
 * The value at a dotted path into a call's arguments (`options.path`, `files.0.name`): own
 * properties of objects, and indexes of arrays; undefined where the path leads nowhere.
 */
export function valueAt(args: Readonly<Record<string, unknown>>, segments: readonly string[]): unknown {
  let current: unknown = args;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      if (!ARRAY_INDEX.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (current !== null && typeof current === 'object' && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else return undefined;
  }
  return current;
}

const ARRAY_INDEX = /^(?:0|[1-9]\d{0,8})$/;
