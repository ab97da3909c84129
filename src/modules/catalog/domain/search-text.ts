import type { CatalogSearchText } from './catalog.js';

/** At most this many words of a search take part in the full-text query. */
export const MAX_SEARCH_TERMS = 16;

/**
 * Splits a search into words (letters and digits of any script; `-`, `_`, `.`, spaces and other
 * punctuation separate), lower-cased and de-duplicated. `get-su` gives `get`, `su`: each word then
 * matches as a prefix, so it finds `get-sum`. A blank search is no search.
 */
export function parseSearchText(q: string | undefined): CatalogSearchText | undefined {
  if (q === undefined) return undefined;
  const text = q.trim().replace(/\s+/g, ' ');
  if (text === '') return undefined;
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return { text, terms: [...new Set(words)].slice(0, MAX_SEARCH_TERMS) };
}
