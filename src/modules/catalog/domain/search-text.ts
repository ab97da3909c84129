import type { CatalogSearchText } from './catalog.js';

/** English function words that agents put in requests ("send an email to the team"). */
const STOP_WORDS = new Set(
  'a an the and or of on in into onto to for with without by from at as is are was were be been being it its this that these those my our your their me us we you i he she they them all any some every each please can could should would will shall may might do does did has have had there here what which who whom whose how when where why right now just also so than then someone something somebody anyone anything'.split(' '),
);

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
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
  // Function words say nothing about a tool; a search of nothing else keeps them.
  const meaningful = words.filter((word) => !STOP_WORDS.has(word));
  return { text, terms: (meaningful.length > 0 ? meaningful : words).slice(0, MAX_SEARCH_TERMS) };
}
