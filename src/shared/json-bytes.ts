/** Sizes of JSON values as text (UTF-8), as results are measured and cut. */

export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? 'null', 'utf8');
}

/** Serialized (JSON, UTF-8) size of a result's content plus its structuredContent. */
export function resultBytes(content: readonly unknown[], structuredContent: unknown): number {
  return jsonBytes(content) + (structuredContent === undefined ? 0 : jsonBytes(structuredContent));
}

/** The longest prefix of `text` whose JSON string body (escaped, UTF-8) takes at most `maxBytes`. */
export function jsonPrefix(text: string, maxBytes: number): string {
  let used = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.codePointAt(index)!;
    const units = code > 0xffff ? 2 : 1;
    const bytes = escapedBytes(code);
    if (used + bytes > maxBytes) break;
    used += bytes;
    index += units;
  }
  return text.slice(0, index);
}

function escapedBytes(code: number): number {
  if (code === 0x22 || code === 0x5c) return 2; // \" \\
  if (code < 0x20) return code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdfff) return 6; // a lone surrogate is escaped as \\uXXXX
  if (code < 0x10000) return 3;
  return 4;
}
