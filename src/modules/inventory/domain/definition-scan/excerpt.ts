/** The longest excerpt a finding carries. */
export const EXCERPT_MAX_CHARS = 160;

/**
 * Code points a reader cannot see or that turn the text around: tag characters (U+E0000–E007F),
 * zero-width ones (U+200B–U+200D, U+2060, U+FEFF) and bidirectional overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069).
 */
export function isInvisible(codePoint: number): boolean {
  return (
    (codePoint >= 0xe0000 && codePoint <= 0xe007f) ||
    (codePoint >= 0x200b && codePoint <= 0x200d) ||
    codePoint === 0x2060 ||
    codePoint === 0xfeff ||
    (codePoint >= 0x202a && codePoint <= 0x202e) ||
    (codePoint >= 0x2066 && codePoint <= 0x2069)
  );
}

/** Whether a code point is shown as an escape in an excerpt: the invisible ones and control characters. */
function isEscaped(codePoint: number): boolean {
  return isInvisible(codePoint) || codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f) || (codePoint >= 0xd800 && codePoint <= 0xdfff);
}

function visible(codePoint: number): string {
  if (codePoint === 0x0a || codePoint === 0x0d || codePoint === 0x09) return ' ';
  return isEscaped(codePoint) ? `\\u{${codePoint.toString(16).toUpperCase()}}` : String.fromCodePoint(codePoint);
}

/**
 * The text around `[start, end)`, at most EXCERPT_MAX_CHARS characters, with invisible and control
 * characters written as `\u{…}` and line breaks as spaces; `…` marks where it was cut. Reads only
 * a window around the match, however long the text.
 */
export function excerptAround(text: string, start: number, end: number): string {
  const budget = EXCERPT_MAX_CHARS - 2;
  const before = Math.max(0, start - 48);
  let out = '';
  let index = before;
  const limit = Math.min(text.length, Math.max(end, start + 1) + budget);
  while (index < limit) {
    const codePoint = text.codePointAt(index)!;
    const shown = visible(codePoint);
    if (out.length + shown.length > budget) break;
    out += shown;
    index += codePoint > 0xffff ? 2 : 1;
  }
  return `${before > 0 ? '…' : ''}${out.trim()}${index < text.length ? '…' : ''}`;
}
