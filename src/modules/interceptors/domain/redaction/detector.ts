/**
 * Finds one kind of value in a text. `find` answers where, as `[start, end)` offsets in pairs
 * (`[s0, e0, s1, e1, …]`), in order and not overlapping; its time is linear in the text.
 */
export interface Detector {
  /** What a found value is masked as: `[kind]`. */
  readonly kind: string;
  find(text: string): number[];
}

/** Characters by class, for the scanners: ASCII only (a code ≥ 128 is in no class). */
const DIGIT = 1;
const UPPER = 2;
const LOWER = 4;
const WORD = 8; // letters, digits, `_`

const CLASSES = new Uint8Array(128);
for (let code = 48; code <= 57; code++) CLASSES[code] = DIGIT | WORD;
for (let code = 65; code <= 90; code++) CLASSES[code] = UPPER | WORD;
for (let code = 97; code <= 122; code++) CLASSES[code] = LOWER | WORD;
CLASSES[95] = WORD;

export const isDigit = (code: number): boolean => code < 128 && (CLASSES[code]! & DIGIT) !== 0;
export const isUpper = (code: number): boolean => code < 128 && (CLASSES[code]! & UPPER) !== 0;
export const isLower = (code: number): boolean => code < 128 && (CLASSES[code]! & LOWER) !== 0;
export const isAlphanumeric = (code: number): boolean => code < 128 && (CLASSES[code]! & (DIGIT | UPPER | LOWER)) !== 0;
/** A letter, digit or `_`: what `\w` matches. */
export const isWord = (code: number): boolean => code < 128 && (CLASSES[code]! & WORD) !== 0;

/** A set of ASCII characters, for runs. */
export function charSet(characters: string): (code: number) => boolean {
  const members = new Uint8Array(128);
  for (let index = 0; index < characters.length; index++) members[characters.charCodeAt(index)] = 1;
  return (code) => code < 128 && members[code] === 1;
}

export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Where the run of characters `inRun` that starts at `from` ends (at most `limit` characters on). */
export function runEnd(text: string, from: number, inRun: (code: number) => boolean, limit = Infinity): number {
  const stop = Math.min(text.length, from + limit);
  let at = from;
  while (at < stop && inRun(text.charCodeAt(at))) at++;
  return at;
}
