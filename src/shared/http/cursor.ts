import { ValidationFailed } from '../domain-error.js';
import type { Page } from '../page.js';

/** Opaque keyset cursors: base64url JSON of the last row's sort key. */
export function encodeCursor(key: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor<T extends Record<string, string | number>>(cursor: string | undefined, fields: (keyof T)[]): T | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    if (cursor.length > 512 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('malformed');
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as T;
    if (parsed === null || typeof parsed !== 'object') throw new Error('malformed');
    for (const field of fields) {
      const v = parsed[field];
      if (typeof v !== 'string' && typeof v !== 'number') throw new Error('malformed');
    }
    return parsed;
  } catch {
    throw new ValidationFailed([{ path: 'cursor', message: 'is not a cursor this endpoint issued' }], 'The cursor is invalid.', 'INVALID_CURSOR');
  }
}

/**
 * One page of a listing by name: the rows after the cursor's name, read one more than `limit` to
 * know whether a next page follows, each shown as `view` shows it.
 */
export async function pageByName<T extends { name: string }, V>(
  cursor: string | undefined,
  limit: number,
  read: (after: string | undefined, limit: number) => Promise<T[]>,
  view: (row: T) => V,
): Promise<Page<V>> {
  const after = decodeCursor<{ n: string }>(cursor, ['n']);
  return pageOf(await read(after?.n, limit + 1), limit, view, (last) => ({ n: last.name }));
}

/**
 * The page of a keyset listing: the first `limit` of `rows` (read one beyond `limit`), each shown as
 * `view` shows it, and when more follow, the cursor of the last one's sort key.
 */
export function pageOf<T, V>(rows: readonly T[], limit: number, view: (row: T) => V, keyOf: (last: T) => Record<string, string | number>): Page<V> {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { items: page.map((row) => view(row)), nextCursor: rows.length > limit && last !== undefined ? encodeCursor(keyOf(last)) : null };
}

/** The sort key of a listing newest first: when it was made, then its id. */
export const createdKey = (row: { createdAt: Date; id: string }) => ({ at: row.createdAt.toISOString(), id: row.id });
