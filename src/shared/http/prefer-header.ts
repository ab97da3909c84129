/**
 * The preferences a `Prefer` header (RFC 7240) names, lower-cased, in order: each preference's
 * name, its value and parameters left out. Anything that is not a token where a name belongs is
 * skipped, so a malformed header asks for nothing rather than failing the request; a comma inside
 * a quoted value separates nothing.
 */
export function preferenceNames(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  const text = Array.isArray(header) ? header.join(',') : header;
  const names: string[] = [];
  for (const preference of splitOutsideQuotes(text.slice(0, MAX_PREFER_LENGTH))) {
    const name = /^[ \t]*([!#$%&'*+.^_`|~0-9A-Za-z-]+)[ \t]*(?:$|[=;])/.exec(preference)?.[1];
    if (name !== undefined) names.push(name.toLowerCase());
  }
  return names;
}

/** Whether the caller prefers an asynchronous answer (`Prefer: respond-async`). */
export function prefersRespondAsync(header: string | string[] | undefined): boolean {
  return preferenceNames(header).includes('respond-async');
}

/** Beyond what any real header holds; the rest is not read. */
const MAX_PREFER_LENGTH = 4096;

/** The comma-separated elements of a header, a comma inside a quoted string (with `\` escapes) kept. */
function splitOutsideQuotes(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === '\\') i++;
    else if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
