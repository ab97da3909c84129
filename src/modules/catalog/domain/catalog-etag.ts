import { createHash } from 'node:crypto';

/** Bump when the formats change shape, so caches filled by an older Toolplane are not reused. */
export const CATALOG_REPRESENTATION_REVISION = 1;

/**
 * A strong entity tag for one listing: a hash of everything that decides its body — the
 * normalized request (filters, search, format, strict, cursor, limit) and the version of the
 * catalog rows the request can see.
 */
export function catalogEtag(request: unknown, catalogVersion: string): string {
  const digest = createHash('sha256')
    .update(JSON.stringify({ revision: CATALOG_REPRESENTATION_REVISION, request }))
    .update('\n')
    .update(catalogVersion)
    .digest('base64url');
  return `"${digest.slice(0, 32)}"`;
}

/**
 * `If-None-Match` as RFC 9110 reads it for GET: a list of entity tags compared weakly
 * (a `W/` prefix does not matter), or `*`.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const wanted = opaque(etag);
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || opaque(tag) === wanted;
  });
}

function opaque(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}
