import { isDigit, isUpper, isWord, type Detector } from './detector.js';

/** The length of an IBAN by its country (the IBAN registry). */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28, CH: 21, CR: 22, CY: 28, CZ: 24,
  DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FK: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27,
  GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20,
  LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20, MR: 27, MT: 31, MU: 30, NI: 28, NL: 18, NO: 15, OM: 23, PK: 24, PL: 28,
  PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, RU: 33, SA: 24, SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28,
  TL: 23, TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20, YE: 30,
};

/** Where an IBAN may start: a country code and two check digits (no nested quantifier: linear). */
const STARTS = /[A-Z]{2}[0-9]{2}/g;
const SPACE = 0x20;

/**
 * IBANs: a country code of the registry, two check digits and the country's length of letters and
 * digits, written together or in groups of four separated by one space, verified by the mod-97
 * check. Each candidate is read over at most its country's length: linear time.
 */
export class IbanDetector implements Detector {
  readonly kind = 'iban';

  find(text: string): number[] {
    const spans: number[] = [];
    // One search at a time (find runs to its end synchronously): the expression is shared.
    const starts = STARTS;
    starts.lastIndex = 0;
    for (let found = starts.exec(text); found !== null; found = starts.exec(text)) {
      const start = found.index;
      const end = start > 0 && isWord(text.charCodeAt(start - 1)) ? -1 : ibanEnd(text, start);
      if (end !== -1) {
        spans.push(start, end);
        starts.lastIndex = end;
      }
    }
    return spans;
  }
}

/** Where the IBAN that starts at `start` ends, or -1 when there is none. */
function ibanEnd(text: string, start: number): number {
  const length = IBAN_LENGTHS[text.slice(start, start + 2)];
  if (length === undefined) return -1;
  const characters: number[] = [];
  let at = start;
  while (characters.length < length) {
    // One space between groups of four.
    if (characters.length > 0 && characters.length % 4 === 0 && text.charCodeAt(at) === SPACE) at++;
    const code = text.charCodeAt(at);
    if (!isUpper(code) && !isDigit(code)) return -1;
    characters.push(code);
    at++;
  }
  if (at < text.length && isWord(text.charCodeAt(at))) return -1;
  return mod97(characters) === 1 ? at : -1;
}

/** ISO 7064 mod 97-10 of the IBAN with its first four characters moved to the end, letters as 10–35. */
function mod97(characters: readonly number[]): number {
  let remainder = 0;
  for (let index = 0; index < characters.length; index++) {
    const code = characters[(index + 4) % characters.length]!;
    remainder = isDigit(code) ? (remainder * 10 + (code - 48)) % 97 : (remainder * 100 + (code - 55)) % 97;
  }
  return remainder;
}
