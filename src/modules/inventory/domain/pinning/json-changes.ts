import { sameJson } from '../../../../shared/canonical-json.js';

export type JsonChangeOp = 'added' | 'removed' | 'changed';

/** One difference between two JSON values, at a JSON Pointer (RFC 6901; '' is the whole value). */
export interface JsonChange {
  path: string;
  op: JsonChangeOp;
  /** Absent for `added`. */
  before?: unknown;
  /** Absent for `removed`. */
  after?: unknown;
}

export interface JsonChanges {
  changes: JsonChange[];
  /** More than `maxChanges` differences: the list stops there. */
  truncated: boolean;
}

export interface JsonChangeLimits {
  /** At most this many changes are listed. */
  maxChanges: number;
  /** Below this depth a difference is reported whole, as one `changed` of the subtree. */
  maxDepth: number;
}

export const DEFAULT_JSON_CHANGE_LIMITS: JsonChangeLimits = { maxChanges: 200, maxDepth: 32 };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

export function pointerSegment(key: string | number): string {
  return String(key).replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * The differences between two JSON values, key order aside: objects compared key by key, arrays
 * index by index (a longer or shorter array adds or removes at its end), anything else as a whole.
 * Each change holds subtrees of the inputs, at paths that never nest, so the answer is never larger
 * than the two values together (plus the paths), and at most `maxChanges` long.
 */
export function jsonChanges(before: unknown, after: unknown, limits: JsonChangeLimits = DEFAULT_JSON_CHANGE_LIMITS): JsonChanges {
  const changes: JsonChange[] = [];
  let truncated = false;
  const push = (change: JsonChange): boolean => {
    if (changes.length >= limits.maxChanges) {
      truncated = true;
      return false;
    }
    changes.push(change);
    return true;
  };
  const walk = (b: unknown, a: unknown, path: string, depth: number): boolean => {
    if (sameJson(b, a)) return true;
    const bothObjects = isObject(b) && isObject(a);
    const bothArrays = Array.isArray(b) && Array.isArray(a);
    if (depth >= limits.maxDepth || (!bothObjects && !bothArrays)) return push({ path, op: 'changed', before: b, after: a });
    if (bothArrays) {
      const shared = Math.min(b.length, a.length);
      for (let i = 0; i < shared; i++) if (!walk(b[i], a[i], `${path}/${i}`, depth + 1)) return false;
      for (let i = shared; i < b.length; i++) if (!push({ path: `${path}/${i}`, op: 'removed', before: b[i] })) return false;
      for (let i = shared; i < a.length; i++) if (!push({ path: `${path}/${i}`, op: 'added', after: a[i] })) return false;
      return true;
    }
    const bo = b as Json;
    const ao = a as Json;
    for (const key of Object.keys(bo)) {
      const at = `${path}/${pointerSegment(key)}`;
      if (!Object.hasOwn(ao, key)) {
        if (!push({ path: at, op: 'removed', before: bo[key] })) return false;
      } else if (!walk(bo[key], ao[key], at, depth + 1)) return false;
    }
    for (const key of Object.keys(ao)) {
      if (!Object.hasOwn(bo, key) && !push({ path: `${path}/${pointerSegment(key)}`, op: 'added', after: ao[key] })) return false;
    }
    return true;
  };
  walk(before, after, '', 0);
  return { changes, truncated };
}

function parsePointer(path: string): string[] {
  if (path === '') return [];
  return path
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function setOwn(target: Json | unknown[], key: string, value: unknown): void {
  if (Array.isArray(target)) target[Number(key)] = value;
  // defineProperty: a key such as "__proto__" is an own property, as JSON.parse made it.
  else Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * `before` with `changes` applied (a copy): for a complete list, a value equal to the `after` the
 * changes were read from. What a reader of a review can rebuild from its diff.
 */
export function applyJsonChanges(before: unknown, changes: readonly JsonChange[]): unknown {
  const root = { value: structuredClone(before) };
  const parentOf = (segments: string[]): Json | unknown[] => {
    let node: unknown = root.value;
    for (const segment of segments.slice(0, -1)) node = Array.isArray(node) ? node[Number(segment)] : (node as Json)[segment];
    return node as Json | unknown[];
  };
  for (const change of changes) {
    if (change.op === 'removed') continue;
    const segments = parsePointer(change.path);
    if (segments.length === 0) root.value = structuredClone(change.after);
    else setOwn(parentOf(segments), segments.at(-1)!, structuredClone(change.after));
  }
  // Removals last, the last first: an array's removed tail is listed in ascending order.
  for (const change of [...changes].reverse()) {
    if (change.op !== 'removed') continue;
    const segments = parsePointer(change.path);
    const parent = parentOf(segments);
    const key = segments.at(-1)!;
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  }
  return root.value;
}
