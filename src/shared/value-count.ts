/** Whether `value` holds more than `limit` values (itself, members and elements); stops counting there. */
export function holdsMoreValues(value: unknown, limit: number): boolean {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (++count > limit) return true;
    if (next !== null && typeof next === 'object') {
      const inner = Array.isArray(next) ? next : Object.values(next);
      if (count + inner.length > limit) return true;
      for (const item of inner) pending.push(item);
    }
  }
  return false;
}
