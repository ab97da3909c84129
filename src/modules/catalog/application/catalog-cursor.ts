import { createHash } from 'node:crypto';
import { ValidationFailed } from '../../../shared/domain-error.js';
import { decodeCursor, encodeCursor } from '../../../shared/http/cursor.js';
import type { CatalogCursor } from '../domain/catalog.js';
import type { SearchQuery } from '../domain/tool-search.js';

const RANK = /^\d{1,9}(\.\d{1,6})?$/;

/**
 * Catalog cursors: the last qualified name (`n`); for a search also its rank (`r`) and a short
 * hash of the search text (`s`), so a cursor is only ever used with the search that issued it
 * (results of a search are ordered by rank descending, then qualified name: the keyset is both).
 */
export function encodeCatalogCursor(cursor: CatalogCursor, search: SearchQuery | undefined): string {
  if (!search) return encodeCursor({ n: cursor.name });
  return encodeCursor({ n: cursor.name, r: cursor.rank ?? '0', s: searchHash(search) });
}

export function decodeCatalogCursor(cursor: string | undefined, search: SearchQuery | undefined): CatalogCursor | undefined {
  const decoded = decodeCursor<{ n: string; r?: string; s?: string }>(cursor, ['n']);
  if (!decoded) return undefined;
  if (typeof decoded.n !== 'string') throw invalid('is not a cursor this endpoint issued');
  if (!search) {
    if (decoded.r !== undefined || decoded.s !== undefined) throw invalid('was issued for a search (q); repeat the same q with it');
    return { name: decoded.n };
  }
  if (typeof decoded.r !== 'string' || !RANK.test(decoded.r) || typeof decoded.s !== 'string') {
    throw invalid('was not issued for a search (q); use it without q');
  }
  if (decoded.s !== searchHash(search)) throw invalid('was issued for a different search (q)');
  return { name: decoded.n, rank: decoded.r };
}

function searchHash(search: SearchQuery): string {
  return createHash('sha256').update(search.text).digest('base64url').slice(0, 8);
}

function invalid(message: string): ValidationFailed {
  return new ValidationFailed([{ path: 'cursor', message }], 'The cursor is invalid.', 'INVALID_CURSOR');
}
