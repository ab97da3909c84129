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
const DASH = 0x2d;
const SPACE = 0x20;
const MAX_GROUP = 8;
const MAX_INNER_GROUP = 5;

/** A run of digit groups, as a phone number would be written. */
interface Groups {
  international: boolean;
  /** Where each group starts (its `(`, or the `+` of the first) and ends (after its `)`). */
  starts: number[];
  ends: number[];
  sizes: number[];
  /** The group was in parentheses: `(555)`, `(0)30`. */
  parenthesised: boolean[];
  /** The separator before each group after the first (0: none, after a parenthesis). */
  separators: number[];
}

/**
 * Phone numbers: the international form (`+` and 7 to 15 digits, grouped or not: `+44 20 7946
 * 0958`, `+1 (555) 123-4567`) and grouped national forms of 7 to 15 digits (`(555) 123-4567`,
 * `555-123-4567`, `020 7946 0958`, `06 12 34 56 78`): groups of two digits or more after the
 * first, at most five but the last, one separator throughout unless there are parentheses. What
 * is written like a date (`2024-01-15`, `15.01.2024`), an amount with thousands separators
 * (`1 250 000`), an IPv4 address, a decimal, a version, a time or an id (a plain run of digits,
 * or one glued to letters) is not a phone number; two groups are one only after a trunk `0` or an
 * area code in parentheses (`0151 12345678`, `(030) 1234567`), so ranges (`1000-2000`) stay.
 * A phone number starts where a run of groups starts or at a `(`, ends where the run ends or at a
 * space, and is the longest that fits, so that numbers after it (`call (555) 123-4567 24/7`) stay. Linear time: every run is read
 * once, and a number spans at most 15 digits.
 */
export class PhoneDetector implements Detector {
  readonly kind = 'phone';

  find(text: string): number[] {
    const spans: number[] = [];
    let at = 0;
    while (at < text.length) {
      const code = text.charCodeAt(at);
      if (!isDigit(code) && !((code === PLUS || code === OPEN) && isDigit(text.charCodeAt(at + 1)))) {
        at++;
        continue;
      }
      if (isDigit(code)) {
        let end = at + 1;
        while (end < text.length && isDigit(text.charCodeAt(end))) end++;
        const next = text.charCodeAt(end);
        if (!SEPARATOR(next) && next !== OPEN) {
          // One group without a `+`, as most numbers are: never a phone number.
          at = end;
          continue;
        }
      }
      const groups = readGroups(text, at);
      if (groups === undefined) {
        at++;
        continue;
      }
      phoneNumbersIn(text, groups, spans);
      at = groups.ends.at(-1)!;
    }
    return spans;
  }
}

function readGroups(text: string, start: number): Groups | undefined {
  const international = text.charCodeAt(start) === PLUS;
  const groups: Groups = { international, starts: [], ends: [], sizes: [], parenthesised: [], separators: [] };
  let at = international ? start + 1 : start;
  let separator = 0;
  for (;;) {
    groups.starts.push(groups.starts.length === 0 ? start : at);
    const parenthesised = text.charCodeAt(at) === OPEN;
    if (parenthesised) {
      if (!parenthesisedGroupAt(text, at)) return undefined; // only the first can be unclosed: the others are looked at first
      at++;
    }
    const digitsStart = at;
    while (at < text.length && isDigit(text.charCodeAt(at))) at++;
    groups.sizes.push(at - digitsStart);
    groups.parenthesised.push(parenthesised);
    groups.separators.push(separator);
    if (parenthesised) at++;
    groups.ends.push(at);
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

/** The phone numbers in a run of groups, from the left, each the longest that fits. */
function phoneNumbersIn(text: string, groups: Groups, spans: number[]): void {
  const count = groups.sizes.length;
  const endsFree = freeAfter(text, groups.ends[count - 1]!);
  let first = 0;
  while (first < count) {
    const last = startsNumber(text, groups, first) ? longestPhoneNumber(text, groups, first, endsFree) : -1;
    if (last === -1) first++;
    else {
      spans.push(groups.starts[first]!, groups.ends[last]!);
      first = last + 1;
    }
  }
}

/** Whether a number can start at group `first`: where the run starts, or at a `(` (an area code). */
function startsNumber(text: string, groups: Groups, first: number): boolean {
  return first === 0 ? freeBefore(text, groups.starts[0]!) : groups.parenthesised[first]!;
}

function longestPhoneNumber(text: string, groups: Groups, first: number, endsFree: boolean): number {
  const count = groups.sizes.length;
  let digits = 0;
  let longest = -1;
  for (let last = first; last < count; last++) {
    digits += groups.sizes[last]!;
    if (digits > 15) break;
    // A number ends where the run does, or at a space: never inside a token such as `2024-01-15` or `38.5`.
    const ends = last < count - 1 ? groups.separators[last + 1] === SPACE : endsFree;
    if (ends && isPhoneNumber(text, groups, first, last, digits)) longest = last;
  }
  return longest;
}

function freeBefore(text: string, start: number): boolean {
  if (start === 0) return true;
  const before = text.charCodeAt(start - 1);
  return !isWord(before) && !NOT_BEFORE(before);
}

function freeAfter(text: string, end: number): boolean {
  const after = text.charCodeAt(end);
  return !isWord(after) && !(NOT_AFTER(after) && isDigit(text.charCodeAt(end + 1)));
}

/** Whether groups `first` to `last` (holding `digits` digits) are written as a phone number. */
function isPhoneNumber(text: string, groups: Groups, first: number, last: number, digits: number): boolean {
  if (digits < 7) return false;
  const sizes = groups.sizes.slice(first, last + 1);
  const parenthesised = groups.parenthesised.slice(first, last + 1);
  // The separators between the window's groups.
  const separators = groups.separators.slice(first + 1, last + 1);
  const count = sizes.length;
  // Groups of two digits or more after the first (but a trunk `(0)`); only the last may be long (`0151 12345678`).
  for (let index = 1; index < count; index++) if (sizes[index]! < 2 && !parenthesised[index]) return false;
  if (groups.international && first === 0) return true;
  for (let index = 0; index < count; index++) if (sizes[index]! > (index === count - 1 ? MAX_GROUP : MAX_INNER_GROUP)) return false;
  // A first group of one digit is a country code (`1 800 555 1234`), before three groups or more.
  if (count < 2 || (sizes[0] === 1 && !parenthesised[0] && count < 4)) return false;
  const firstDigit = text.charCodeAt(parenthesised[0] ? groups.starts[first]! + 1 : groups.starts[first]!);
  if (count === 2) return (parenthesised[0]! || firstDigit === ZERO) && separators[0] !== DOT;
  // An area code in parentheses comes first (`(555) 123-4567`); anywhere else it is none.
  if (parenthesised.some((inParentheses, index) => inParentheses && index > 0)) return false;
  if (parenthesised[0]) return true;
  // Without parentheses, one separator throughout.
  if (!separators.every((separator) => separator === separators[0])) return false;
  const shape = sizes.join('-');
  if (shape === '4-2-2' || shape === '2-2-4') return false; // a date
  if (separators[0] !== DASH && sizes[0]! <= 3 && firstDigit !== ZERO && sizes.slice(1).every((size) => size === 3)) return false; // thousands
  if (count === 4 && separators[0] === DOT && sizes.every((size) => size <= 3)) return false; // IPv4
  return true;
}
