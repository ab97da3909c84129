import fc from 'fast-check';
import { SecretScrubber } from '../../shared/secret-scrubber.js';
import { StrayOutput } from './stray-output.js';

const none = (text: string) => text;

describe('StrayOutput', () => {
  it('quotes the first lines, line breaks and escapes visible, then what is not finished yet', () => {
    const stray = new StrayOutput();
    expect(stray.seen).toBe(false);
    stray.add('\u001b[1mServer v2\u001b[0m');
    stray.add('listening on :8080');
    expect(stray.seen).toBe(true);
    expect(stray.quoted(none)).toBe(String.raw`"\u001b[1mServer v2\u001b[0m\nlistening on :8080"`);
    expect(stray.quoted(none, 'API key: ')).toBe(String.raw`"\u001b[1mServer v2\u001b[0m\nlistening on :8080\nAPI key: "`);
  });

  it('quotes at most 200 characters of however much was written', () => {
    const stray = new StrayOutput();
    for (let i = 0; i < 1000; i++) stray.add('x'.repeat(100));
    expect(stray.quoted(none)).toBe(`"${'x'.repeat(100)}\\n${'x'.repeat(99)}…"`);
  });

  it('never shows a secret, nor a raw line break or control character, whatever the plugin wrote', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 300 }), { minLength: 1, maxLength: 20 }),
        fc.string({ unit: 'grapheme-ascii', minLength: 6, maxLength: 40 }).filter((secret) => secret.trim() === secret && !secret.includes('\\')),
        fc.nat(),
        (lines, secret, at) => {
          const index = at % lines.length;
          lines[index] = `${lines[index]!.slice(0, at % 250)}${secret}${lines[index]!.slice(at % 250)}`;
          const stray = new StrayOutput();
          for (const line of lines) stray.add(line);
          const quoted = stray.quoted((text) => new SecretScrubber([{ name: 'TOKEN', value: secret }]).text(text));
          expect(quoted).not.toContain(secret);
          // eslint-disable-next-line no-control-regex -- what must never be shown raw
          expect(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/.test(quoted)).toBe(false);
          expect(quoted.length).toBeLessThanOrEqual(2 + 6 * 201);
        },
      ),
      { numRuns: 500 },
    );
  });
});
