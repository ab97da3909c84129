import { ALPHANUMERIC, charSet, isAlphanumeric, isLower, isUpper, runEnd, type Detector } from './detector.js';

/** RFC 5322's atext and `.`: what a local part (before `@`) is written with. */
const isLocal = charSet(`${ALPHANUMERIC}!#$%&'*+/=?^_\`{|}~.-`);
const isDomain = charSet(`${ALPHANUMERIC}.-`);
const MAX_LOCAL = 64;
const MAX_DOMAIN = 255;
const DOT = 0x2e;

/**
 * E-mail addresses: a local part of at most 64 characters, `@`, and a domain of at least two
 * labels (letters, digits, inner `-`) ending in a top-level label of letters (or `xn--…`). A
 * domain followed by what cannot continue it (`a@b.com.`, `a@b.com-`) ends at its last good
 * label. Each `@` is looked at once, within 64 characters before it and 255 after: linear time.
 */
export class EmailDetector implements Detector {
  readonly kind = 'email';

  find(text: string): number[] {
    const spans: number[] = [];
    let floor = 0;
    for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
      let start = at;
      const limit = Math.max(floor, at - MAX_LOCAL);
      while (start > limit && isLocal(text.charCodeAt(start - 1))) start--;
      if (start === at) continue;
      const end = domainEnd(text, at + 1);
      if (end === -1) continue;
      spans.push(start, end);
      floor = end;
      at = end - 1;
    }
    return spans;
  }
}

/** Where the domain that starts at `from` ends, or -1 when there is none. */
function domainEnd(text: string, from: number): number {
  const runStop = runEnd(text, from, isDomain, MAX_DOMAIN);
  let end = -1;
  let labels = 0;
  let start = from;
  while (start < runStop) {
    let stop = start;
    while (stop < runStop && text.charCodeAt(stop) !== DOT) stop++;
    if (!isLabel(text, start, stop)) break;
    labels++;
    if (labels >= 2 && isTopLevel(text, start, stop)) end = stop;
    start = stop + 1;
  }
  return end;
}

function isLabel(text: string, start: number, stop: number): boolean {
  const length = stop - start;
  return length >= 1 && length <= 63 && isAlphanumeric(text.charCodeAt(start)) && isAlphanumeric(text.charCodeAt(stop - 1));
}

function isTopLevel(text: string, start: number, stop: number): boolean {
  if (stop - start < 2) return false;
  if (text.startsWith('xn--', start)) return stop - start > 4;
  for (let at = start; at < stop; at++) {
    const code = text.charCodeAt(at);
    if (!isUpper(code) && !isLower(code)) return false;
  }
  return true;
}
