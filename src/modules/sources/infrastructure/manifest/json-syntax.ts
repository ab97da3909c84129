/**
 * Locates the first syntax error in a JSON text, for messages with a line and column that
 * do not quote the file's content (JSON.parse messages may, and vary between Node versions).
 * Iterative, so deeply nested input cannot exhaust the stack.
 */
export interface JsonSyntaxError {
  reason: string;
  line: number;
  column: number;
}

type State = 'value' | 'firstValue' | 'key' | 'firstKey' | 'colon' | 'after';

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const ESCAPABLE = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const stack: ('object' | 'array')[] = [];
  let state: State = 'value';
  let afterComma = false;
  let i = 0;
  const fail = (reason: string, offset = i): JsonSyntaxError => ({ reason, ...lineAndColumn(text, offset) });

  for (;;) {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
    if (i >= text.length) {
      return state === 'after' && stack.length === 0 ? undefined : fail('unexpected end of input');
    }
    const c = text[i]!;

    if (state === 'value' || state === 'firstValue') {
      if (c === ']' && state === 'firstValue') {
        stack.pop();
        i++;
        state = 'after';
      } else if (c === '{' || c === '[') {
        stack.push(c === '{' ? 'object' : 'array');
        i++;
        state = c === '{' ? 'firstKey' : 'firstValue';
      } else if (c === '"') {
        const error = scanString();
        if (error) return error;
        state = 'after';
      } else if (c === '-' || (c >= '0' && c <= '9')) {
        NUMBER.lastIndex = i;
        const match = NUMBER.exec(text);
        if (!match) return fail('invalid number');
        i += match[0].length;
        state = 'after';
      } else if (text.startsWith('true', i) || text.startsWith('null', i)) {
        i += 4;
        state = 'after';
      } else if (text.startsWith('false', i)) {
        i += 5;
        state = 'after';
      } else if (afterComma && (c === ']' || c === '}')) {
        return fail(`trailing comma before '${c}'`);
      } else {
        return fail(`expected a value, found ${describeChar(c)}`);
      }
      afterComma = false;
    } else if (state === 'key' || state === 'firstKey') {
      if (c === '}' && state === 'firstKey') {
        stack.pop();
        i++;
        state = 'after';
      } else if (c === '"') {
        const error = scanString();
        if (error) return error;
        state = 'colon';
        afterComma = false;
      } else if (c === '}') {
        return fail("trailing comma before '}'");
      } else {
        return fail(`expected a property name in double quotes, found ${describeChar(c)}`);
      }
    } else if (state === 'colon') {
      if (c !== ':') return fail(`expected ':' after the property name, found ${describeChar(c)}`);
      i++;
      state = 'value';
    } else {
      const top = stack[stack.length - 1];
      if (top === undefined) return fail(`unexpected ${describeChar(c)} after the end of the JSON value`);
      if (c === ',') {
        i++;
        state = top === 'object' ? 'key' : 'value';
        afterComma = true;
      } else if ((c === '}' && top === 'object') || (c === ']' && top === 'array')) {
        stack.pop();
        i++;
      } else {
        return fail(`expected ',' or '${top === 'object' ? '}' : ']'}', found ${describeChar(c)}`);
      }
    }
  }

  function scanString(): JsonSyntaxError | undefined {
    const start = i;
    i++;
    for (;;) {
      if (i >= text.length) return fail('unterminated string', start);
      const c = text[i]!;
      if (c === '"') {
        i++;
        return undefined;
      }
      if (c === '\\') {
        const next = text[i + 1];
        if (next === 'u') {
          if (!HEX4.test(text.slice(i + 2, i + 6))) return fail('invalid \\u escape in string');
          i += 6;
        } else if (next !== undefined && ESCAPABLE.has(next)) {
          i += 2;
        } else {
          return fail('invalid escape in string');
        }
      } else if (c < ' ') {
        return fail(c === '\n' || c === '\r' ? 'line break inside a string (use \\n)' : 'control character inside a string');
      } else {
        i++;
      }
    }
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Names a single character without quoting more of the file. */
function describeChar(c: string): string {
  const code = c.codePointAt(0)!;
  return code >= 0x20 && code < 0x7f ? `'${c}'` : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
