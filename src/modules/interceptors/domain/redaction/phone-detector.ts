import { charSet, isDigit, isWord, type Detector } from './detector.js';

const SEPARATOR = charSet(' -.');
/** Not right before a number: it would be part of a decimal, a time, a path or an address. */
const NOT_BEFORE = charSet('.,:/+@');
/** Not right after a number when a digit follows: `12:30`, `1.5`, `3/4`. */
const NOT_AFTER = charSet('.,:/');
const OPEN = 0x28;
const CLOSE = 0x29;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const MAX_GROUP = 8;

/** A run of digit groups, as a phone number would be written. */
interface Groups {
  international: boolean;
  sizes: number[];
  /** The group was in parentheses: `(555)`, `(0)30`. */
  parenthesised: boolean[];
  /** The separator before each group after the first (0: none, after a parenthesis). */
  separators: number[];
  digits: number;
  end: number;
}

/**
 * Phone numbers: the international form (`+` and 7 to 15 digits, grouped or not: `+44 20 7946
 * 0958`, `+1 (555) 123-4567`) and grouped national forms of 7 to 15 digits (`(555) 123-4567`,
 * `555-123-4567`, `020 7946 0958`, `06 12 34 56 78`). What is written like a date (`2024-01-15`,
 * `15.01.2024`), an amount with thousands separators (`1 250 000`), an IPv4 address, a decimal, a
 * version, a time or an id (a plain run of digits, or one glued to letters) is not a phone
 * number; two groups are one only after a trunk `0` or an area code in parentheses (`0151
 * 12345678`, `(030) 1234567`), so ranges (`1000-2000`) stay. Linear time: every run is read once.
 */
export class PhoneDetector implements Detector {
  readonly kind = 'phone';

  find(text: string): number[] {
    const spans: number[] = [];
    const starts = /[+(]?[0-9]/g;
    for (let found = starts.exec(text); found !== null; found = starts.exec(text)) {
      const start = found.index;
      const groups = readGroups(text, start);
      if (groups === undefined) {
        starts.lastIndex = start + 1;
        continue;
      }
      starts.lastIndex = groups.end;
      if (detached(text, start, groups.end) && isPhoneNumber(text, start, groups)) spans.push(start, groups.end);
    }
    return spans;
  }
}

function readGroups(text: string, start: number): Groups | undefined {
  const groups: Groups = { international: text.charCodeAt(start) === PLUS, sizes: [], parenthesised: [], separators: [], digits: 0, end: start };
  let at = groups.international ? start + 1 : start;
  let separator = 0;
  for (;;) {
    const parenthesised = text.charCodeAt(at) === OPEN;
    if (parenthesised) {
      if (!parenthesisedGroupAt(text, at)) return undefined; // only the first can be unclosed: the others are looked at first
      at++;
    }
    const groupStart = at;
    while (at < text.length && isDigit(text.charCodeAt(at))) at++;
    groups.sizes.push(at - groupStart);
    groups.parenthesised.push(parenthesised);
    groups.separators.push(separator);
    groups.digits += at - groupStart;
    if (parenthesised) at++;
    groups.end = at;
    const next = text.charCodeAt(at);
    if (parenthesised && isDigit(next)) separator = 0;
    else if (next === OPEN && parenthesisedGroupAt(text, at)) separator = 0;
    else if (SEPARATOR(next) && (isDigit(text.charCodeAt(at + 1)) || parenthesisedGroupAt(text, at + 1))) {
      separator = next;
      at++;
    } else return groups;
  }
}

/** `(` with 1 to 5 digits and `)` at `at`. */
function parenthesisedGroupAt(text: string, at: number): boolean {
  if (text.charCodeAt(at) !== OPEN) return false;
  let end = at + 1;
  while (end - at <= 6 && isDigit(text.charCodeAt(end))) end++;
  return end > at + 1 && end - at <= 6 && text.charCodeAt(end) === CLOSE;
}

function detached(text: string, start: number, end: number): boolean {
  if (start > 0) {
    const before = text.charCodeAt(start - 1);
    if (isWord(before) || NOT_BEFORE(before)) return false;
  }
  const after = text.charCodeAt(end);
  return !isWord(after) && !(NOT_AFTER(after) && isDigit(text.charCodeAt(end + 1)));
}

function isPhoneNumber(text: string, start: number, groups: Groups): boolean {
  const { sizes, parenthesised, separators, digits } = groups;
  if (digits < 7 || digits > 15) return false;
  if (groups.international) return true;
  const count = sizes.length;
  if (count < 2) return false;
  for (let index = 0; index < count; index++) if (sizes[index]! > MAX_GROUP || (index > 0 && sizes[index]! < 2)) return false;
  const firstDigit = text.charCodeAt(parenthesised[0] ? start + 1 : start);
  if (count === 2) return (parenthesised[0]! || firstDigit === ZERO) && separators[1] !== DOT;
  if (parenthesised.some(Boolean)) return true;
  const oneSeparator = separators.every((separator, index) => index === 0 || separator === separators[1]);
  const shape = sizes.join('-');
  if (oneSeparator && (shape === '4-2-2' || shape === '2-2-4')) return false; // a date
  if (oneSeparator && separators[1] !== 0x2d && sizes[0]! <= 3 && firstDigit !== ZERO && sizes.slice(1).every((size) => size === 3)) return false; // thousands
  if (count === 4 && separators.slice(1).every((separator) => separator === DOT) && sizes.every((size) => size <= 3)) return false; // IPv4
  return true;
}
