/**
 * Control characters (C0 but tab and newline, DEL, C1: terminal escapes, carriage returns, NUL),
 * Unicode's bidirectional overrides and isolates (which reorder what a reader sees) and lone
 * surrogates (which PostgreSQL cannot store).
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A plugin's output as an error message may quote it, to be shown and stored: every character
 * listed above as a visible `\uXXXX` escape, everything else (tabs and newlines included) as it was.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
