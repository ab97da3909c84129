/**
 * Text for a terminal, whoever wrote it (an upstream's tool, result or error, an agent's client
 * name): every character a terminal acts on is replaced by a visible escape, so that no text can
 * clear the screen, set the window title, write the clipboard (OSC 52), move the cursor or reorder
 * what is shown. C0 controls, DEL and C1 controls show as `\x1b`; line and paragraph separators and
 * the bidi embeddings, overrides and isolates as `\u202e`. Newline and tab are kept (a result's own
 * lines); a carriage return only as part of CRLF, which becomes a newline.
 */
export function terminalText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(TERMINAL_CONTROLS, visibleEscape);
}

// eslint-disable-next-line no-control-regex -- these are the characters to find
const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function visibleEscape(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Text for one line of a table cell or a message: line breaks and tabs become spaces, none at either end. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ').replace(/\t/g, ' ').trim();
}

/** A text's further lines indented under its first, so that none reads as a line of its own (a label, a message). */
export function indentLines(text: string, spaces: number): string {
  return text.replace(/\r?\n/g, '\n' + ' '.repeat(spaces));
}

/**
 * JSON as `JSON.stringify` writes it, with the characters it leaves raw escaped as well: DEL, the
 * C1 controls, the line and paragraph separators and the bidi controls. They occur only inside
 * strings, where `\uXXXX` is the same value, so the text parses back to what was given.
 */
export function jsonText(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? 'null').replace(JSON_RAW, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const JSON_RAW = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
