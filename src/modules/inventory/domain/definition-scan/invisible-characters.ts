import type { DefinitionFinding } from './definition-finding.js';
import type { DefinitionText } from './definition-texts.js';
import { excerptAround, isInvisible } from './excerpt.js';

const isTag = (codePoint: number): boolean => codePoint >= 0xe0000 && codePoint <= 0xe007f;
const isBidi = (codePoint: number): boolean => (codePoint >= 0x202a && codePoint <= 0x202e) || (codePoint >= 0x2066 && codePoint <= 0x2069);

/** What tag characters (U+E0020–E007E, which mirror ASCII) spell in a text, or '' when none do. */
export function textInTagCharacters(text: string): string {
  let spelled = '';
  for (let index = 0; index < text.length; index++) {
    if (text.charCodeAt(index) !== 0xdb40) continue;
    const codePoint = text.codePointAt(index)!;
    if (codePoint >= 0xe0020 && codePoint <= 0xe007e) spelled += String.fromCharCode(codePoint - 0xe0000);
    index++;
  }
  return spelled;
}

/** Whether a UTF-16 unit ends (or, `starting`, begins) a pictograph: an emoji of the astral planes, a dingbat or symbol (U+2600–27BF), or the emoji presentation selector U+FE0F. */
function pictographAt(text: string, index: number, starting: boolean): boolean {
  const code = text.charCodeAt(index);
  if (code === 0xfe0f || (code >= 0x2600 && code <= 0x27bf)) return true;
  if (starting) return code >= 0xd83c && code <= 0xd83e;
  const high = text.charCodeAt(index - 1);
  return code >= 0xdc00 && code <= 0xdfff && high >= 0xd83c && high <= 0xd83e;
}

/**
 * `invisible-unicode` (high): tag, zero-width and bidirectional-control characters in a text. A
 * zero-width joiner between two pictographs is how emoji sequences are written (👩‍💻) and is not
 * counted.
 */
export function invisibleCharacters(text: DefinitionText): DefinitionFinding | undefined {
  let first = -1;
  let firstEnd = -1;
  let tags = 0;
  let bidi = 0;
  let zeroWidth = 0;
  const { text: value } = text;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    // Every invisible code point is either U+2xxx, U+FEFF or a tag (surrogates DB40 + DC00–DC7F).
    if (code !== 0xdb40 && code !== 0xfeff && (code < 0x200b || code > 0x2069)) continue;
    const codePoint = value.codePointAt(index)!;
    const width = codePoint > 0xffff ? 2 : 1;
    const emojiJoiner = code === 0x200d && index > 0 && pictographAt(value, index - 1, false) && pictographAt(value, index + 1, true);
    if (isInvisible(codePoint) && !emojiJoiner) {
      if (first < 0) [first, firstEnd] = [index, index + width];
      if (isTag(codePoint)) tags++;
      else if (isBidi(codePoint)) bidi++;
      else zeroWidth++;
    }
    index += width - 1;
  }
  if (first < 0) return undefined;
  const kinds = [
    tags > 0 ? `${tags} tag character${tags === 1 ? '' : 's'}` : '',
    zeroWidth > 0 ? `${zeroWidth} zero-width character${zeroWidth === 1 ? '' : 's'}` : '',
    bidi > 0 ? `${bidi} bidirectional control${bidi === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  const spelled = tags > 0 ? textInTagCharacters(value) : '';
  const hidden = spelled.length > 0 ? `, which spell hidden text: "${spelled.length > 80 ? `${spelled.slice(0, 80)}…` : spelled}"` : '';
  return {
    rule: 'invisible-unicode',
    severity: 'high',
    path: text.path,
    excerpt: excerptAround(value, first, firstEnd),
    message: `The ${text.path} holds characters a reader cannot see (${kinds.join(', ')})${hidden}.`,
  };
}
