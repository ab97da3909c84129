import { PassThrough } from 'node:stream';
import { UsageError } from './errors.js';
import { readSecretValue } from './secret-input.js';

function terminal() {
  const input = Object.assign(new PassThrough(), { isTTY: true, rawModes: [] as boolean[] });
  (input as unknown as { setRawMode(mode: boolean): void }).setRawMode = (mode: boolean) => input.rawModes.push(mode);
  const written: string[] = [];
  const output = { write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
  return { input, stdin: input as unknown as NodeJS.ReadStream, output, shown: () => written.join('') };
}

describe('reading a secret\'s value', () => {
  it('prompts on a terminal without showing what is typed; Backspace takes back a character', async () => {
    const { input, stdin, output, shown } = terminal();
    const value = readSecretValue('GITHUB_TOKEN', stdin, output);
    input.write('s3cr');
    input.write('\u007fret');
    input.write('\r');
    await expect(value).resolves.toBe('s3cret');
    expect(shown()).toBe('value of GITHUB_TOKEN (not shown): \n');
    expect(input.rawModes).toEqual([true, false]);
  });

  it('is cancelled by Ctrl-C, leaving the terminal as it was', async () => {
    const { input, stdin, output } = terminal();
    const value = readSecretValue('X', stdin, output);
    input.write('abc\u0003');
    await expect(value).rejects.toThrow(UsageError);
    expect(input.rawModes).toEqual([true, false]);
  });

  it('reads a pipe whole, without the line break that ends it', async () => {
    const pipe = (text: string) => Object.assign(PassThrough.from([Buffer.from(text)]), { isTTY: false }) as unknown as NodeJS.ReadStream;
    await expect(readSecretValue('X', pipe('v4lue\n'))).resolves.toBe('v4lue');
    await expect(readSecretValue('X', pipe('line one\nline two\r\n'))).resolves.toBe('line one\nline two');
    await expect(readSecretValue('X', pipe(''))).resolves.toBe('');
  });
});
