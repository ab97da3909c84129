type Container = Record<string, unknown> | unknown[];

/**
 * A JSON value with every string in it (keys aside) replaced by `replace`, called once for each:
 * the value itself when none changed, else a copy (keys such as `__proto__` stay own properties).
 * Iterative, so an upstream's deep value cannot exhaust the stack.
 */
export function withStringsReplaced(value: unknown, replace: (text: string) => string): unknown {
  if (typeof value === 'string') return replace(value);
  if (value === null || typeof value !== 'object') return value;
  const changes: [container: object, key: string, text: string][] = [];
  const stack: object[] = [value];
  while (stack.length > 0) {
    const container = stack.pop()!;
    for (const [key, inner] of Object.entries(container)) {
      if (typeof inner === 'string') {
        const next = replace(inner);
        if (next !== inner) changes.push([container, key, next]);
      } else if (inner !== null && typeof inner === 'object') stack.push(inner);
    }
  }
  if (changes.length === 0) return value;
  const copies = new Map<object, Container>();
  const root = copyOf(value, copies);
  for (const [container, key, text] of changes) set(copies.get(container)!, key, text);
  return root;
}

/** A deep copy of a JSON container, each original container mapped to its copy. */
function copyOf(value: object, copies: Map<object, Container>): Container {
  const root = emptyLike(value);
  copies.set(value, root);
  const stack: [source: object, target: Container][] = [[value, root]];
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    for (const [key, inner] of Object.entries(source)) {
      let copy = inner;
      if (inner !== null && typeof inner === 'object') {
        copy = emptyLike(inner);
        copies.set(inner, copy as Container);
        stack.push([inner, copy as Container]);
      }
      set(target, key, copy);
    }
  }
  return root;
}

function set(target: Container, key: string, value: unknown): void {
  if (Array.isArray(target)) target[Number(key)] = value;
  else Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function emptyLike(value: object): Container {
  return Array.isArray(value) ? new Array<unknown>(value.length) : {};
}
