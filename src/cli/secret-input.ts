import { UsageError } from './errors.js';

/**
 * A secret's value, never from the command line: typed at a prompt that does not show it when
 * standard input is a terminal, else all of standard input (a pipe, a file) without the one line
 * break that ends it.
 */
export async function readSecretValue(name: string, input: NodeJS.ReadStream = process.stdin, prompt: NodeJS.WriteStream = process.stderr): Promise<string> {
  if (input.isTTY) return promptHidden(`value of ${name} (not shown): `, input, prompt);
  return (await readAll(input)).replace(/\r?\n$/, '');
}

async function readAll(input: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a line in raw mode, echoing nothing: Enter ends it, Backspace takes back a character, Ctrl-C cancels. */
function promptHidden(question: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of String(chunk)) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish();
        if (char === '\u0003') return finish(new UsageError('cancelled: no value was given'));
        if (char === '\u007f' || char === '\b') value = [...value].slice(0, -1).join('');
        // An escape sequence (an arrow key, say) is not part of a value: the rest of the chunk goes with it.
        else if (char === '\u001b') return;
        else if (char >= ' ') value += char;
      }
    };
    output.write(question);
    input.setRawMode(true);
    input.setEncoding('utf8');
    input.on('data', onData);
    input.resume();
  });
}
