import { randomBytes } from 'node:crypto';

/** ANSI styles, applied only when the stream is a terminal and NO_COLOR is not set (https://no-color.org). */
export interface Colors {
  enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

export function useColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env, forceOff = false): boolean {
  if (forceOff) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

/**
 * A style is written as a mark, not as its escape sequence: the Output first makes the whole text
 * harmless (terminalText), then turns the marks into escape sequences. The marks hold a nonce drawn
 * at start, so text from outside cannot forge one.
 */
const NONCE = randomBytes(8).toString('hex');
const STYLE_MARK = new RegExp(`\uE000${NONCE}(\\d{1,2})\uE001`, 'g');

const styleMark = (code: number) => `\uE000${NONCE}${code}\uE001`;

/** The escape sequences of the styles marked in `text`. */
export function applyStyles(text: string): string {
  return text.replace(STYLE_MARK, (_mark, code: string) => `\u001b[${code}m`);
}

export function colors(enabled: boolean): Colors {
  const style = (open: number, close: number) => (text: string) => (enabled && text !== '' ? `${styleMark(open)}${text}${styleMark(close)}` : text);
  return {
    enabled,
    bold: style(1, 22),
    dim: style(2, 22),
    red: style(31, 39),
    green: style(32, 39),
    yellow: style(33, 39),
    cyan: style(36, 39),
  };
}

/** How a state word reads at a glance: good green, bad red, in between yellow. */
export function colorState(c: Colors, state: string): string {
  switch (state) {
    case 'succeeded':
    case 'healthy':
    case 'active':
    case 'enabled':
    case 'ok':
    case 'create':
    case 'connected':
      return c.green(state);
    case 'degraded':
    case 'unknown':
    case 'input_required':
    case 'deprecated':
    case 'disabled':
    case 'update':
    case 'expired':
    case 'warn':
    case 'not_connected':
    case 'awaiting_connection':
      return c.yellow(state);
    case 'unchanged':
    case 'skip':
      return c.dim(state);
    default:
      return /error|unhealthy|rejected|timeout|open|cancelled|interrupted|invalid|revoked|delete|fail|unusable|bad/.test(state) ? c.red(state) : state;
  }
}
