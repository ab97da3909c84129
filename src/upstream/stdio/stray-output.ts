import { printable } from './printable-text.js';

/** Characters of a server's stray stdout output an error message quotes. */
const QUOTED_CHARS = 200;
/** Characters kept: more than are quoted, so a secret that runs past the quoted part is still scrubbed whole. */
const KEPT_CHARS = 4096;

/**
 * What a server wrote on stdout that is not JSON-RPC, before it sent any message that is: its first
 * lines, at most KEPT_CHARS of them, to quote in an error.
 */
export class StrayOutput {
  private text = '';

  add(line: string): void {
    if (this.text.length >= KEPT_CHARS) return;
    this.text = (this.text === '' ? line : `${this.text}\n${line}`).slice(0, KEPT_CHARS);
  }

  get seen(): boolean {
    return this.text !== '';
  }

  /**
   * The output, followed by `unfinished` (a line not ended yet), in quotes for a message: secrets
   * scrubbed, at most QUOTED_CHARS, unprintable characters and line breaks escaped.
   */
  quoted(scrub: (text: string) => string, unfinished = ''): string {
    const text = scrub([this.text, unfinished].filter((part) => part !== '').join('\n'));
    const cut = text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text;
    return `"${printable(cut).replaceAll('\n', '\\n')}"`;
  }
}
