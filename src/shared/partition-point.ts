/**
 * The first index of `items` whose item `isAfter` holds, by binary search: `items` must hold every
 * item it rejects before every item it accepts (as a list in name order does for "named after x").
 */
export function partitionPoint<T>(items: readonly T[], isAfter: (item: T) => boolean): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (isAfter(items[mid]!)) high = mid;
    else low = mid + 1;
  }
  return low;
}
