import { charSet, isDigit, isWord, type Detector } from './detector.js';

const SEPARATOR = charSet(' -');
const DECIMAL_MARK = charSet('.,');
const PLUS = 0x2b;

/**
 * Payment card numbers: 13 to 19 digits that pass the Luhn check, written together or in the
 * groups cards are printed in (fours, the last of one to four digits; 4-6-4 and 4-6-5), separated
 * by single spaces or dashes. A run of digits glued to letters, a decimal fraction or a `+`
 * (a phone number) is none. Within a longer run of groups (`4111 1111 1111 1111 123`) the first
 * card from the left is taken. Linear time: a window holds at most 19 digits.
 */
export class CardDetector implements Detector {
  readonly kind = 'card';

  find(text: string): number[] {
    const spans: number[] = [];
    let at = 0;
    while (at < text.length) {
      if (!isDigit(text.charCodeAt(at))) {
        at++;
        continue;
      }
      const start = at;
      while (at < text.length && isDigit(text.charCodeAt(at))) at++;
      if (!joined(text, at)) {
        // One group, as most numbers are: a card only when it has 13 to 19 digits.
        if (at - start >= 13 && at - start <= 19 && freeBefore(text, start) && freeAfter(text, at) && luhnValid(text, start, at)) spans.push(start, at);
        continue;
      }
      const groups = digitGroups(text, start);
      at = groups.end;
      cardsIn(text, groups, spans);
    }
    return spans;
  }
}

/** The cards in a run of groups; a card at either end of the run must be detached from what is beside it. */
function cardsIn(text: string, groups: DigitGroups, spans: number[]): void {
  const count = groups.starts.length;
  const startsFree = freeBefore(text, groups.starts[0]!);
  const endsFree = freeAfter(text, groups.end);
  let first = startsFree ? 0 : 1;
  while (first < count) {
    const last = longestCard(text, groups, first, endsFree);
    if (last === -1) first++;
    else {
      spans.push(groups.starts[first]!, groups.ends[last]!);
      first = last + 1;
    }
  }
}

/** The last group of the longest card that starts with group `first`, or -1. */
function longestCard(text: string, groups: DigitGroups, first: number, endsFree: boolean): number {
  const lasts: number[] = [];
  const count = groups.starts.length;
  let digits = 0;
  for (let last = first; last < count; last++) {
    digits += groups.ends[last]! - groups.starts[last]!;
    if (digits > 19) break;
    if (digits >= 13 && (last < count - 1 || endsFree) && printedAsCard(groups, first, last)) lasts.push(last);
  }
  for (let index = lasts.length - 1; index >= 0; index--) if (luhnValid(text, groups.starts[first]!, groups.ends[lasts[index]!]!)) return lasts[index]!;
  return -1;
}

function printedAsCard(groups: DigitGroups, first: number, last: number): boolean {
  const size = (index: number) => groups.ends[index]! - groups.starts[index]!;
  if (first === last) return true;
  if (last - first === 2 && size(first) === 4 && size(first + 1) === 6 && (size(last) === 4 || size(last) === 5)) return true;
  for (let index = first; index < last; index++) if (size(index) !== 4) return false;
  return size(last) <= 4;
}

/** The Luhn check over the digits between `start` and `end` (separators skipped). */
export function luhnValid(text: string, start: number, end: number): boolean {
  let sum = 0;
  let double = false;
  for (let at = end - 1; at >= start; at--) {
    const code = text.charCodeAt(at);
    if (!isDigit(code)) continue;
    let digit = code - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Nothing before `start` makes the digits part of a word, a decimal number or a phone number. */
function freeBefore(text: string, start: number): boolean {
  if (start === 0) return true;
  const before = text.charCodeAt(start - 1);
  return !isWord(before) && before !== PLUS && !(DECIMAL_MARK(before) && start > 1 && isDigit(text.charCodeAt(start - 2)));
}

/** Nothing after `end` makes the digits part of a word or a decimal number. */
function freeAfter(text: string, end: number): boolean {
  const after = text.charCodeAt(end);
  return !isWord(after) && !(DECIMAL_MARK(after) && isDigit(text.charCodeAt(end + 1)));
}

/** Groups of digits, each joined to the last by one space or dash: where each starts and ends. */
interface DigitGroups {
  starts: number[];
  ends: number[];
  /** Where the last group ends. */
  end: number;
}

/** The groups of digits that start at `start` (`4111 1111 1111 1111`), read to the end of the run. */
function digitGroups(text: string, start: number): DigitGroups {
  const groups: DigitGroups = { starts: [], ends: [], end: start };
  let at = start;
  for (;;) {
    groups.starts.push(at);
    while (at < text.length && isDigit(text.charCodeAt(at))) at++;
    groups.ends.push(at);
    groups.end = at;
    if (!joined(text, at)) return groups;
    at++;
  }
}

/** Whether the group that ends at `end` is joined to another by a separator. */
function joined(text: string, end: number): boolean {
  return SEPARATOR(text.charCodeAt(end)) && isDigit(text.charCodeAt(end + 1));
}
