import fc from 'fast-check';
import { printable } from './printable-text.js';

// eslint-disable-next-line no-control-regex -- what printable() must never let through
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('printable', () => {
  it('escapes terminal escapes, carriage returns, NUL, bidi overrides and lone surrogates, and keeps the rest', () => {
    expect(printable('\u001b[32mok\u001b[0m\r\n\tdone\u0000')).toBe('\\u001b[32mok\\u001b[0m\\u000d\n\tdone\\u0000');
    expect(printable('a\u202eb\ud800c😀é')).toBe('a\\u202eb\\ud800c😀é');
  });

  it('never lets an unsafe character through, and loses or reorders nothing, for any text', () => {
    const unescape = (text: string) => text.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }).filter((text) => !text.includes('\\')), (text) => {
        const shown = printable(text);
        expect(UNSAFE.test(shown)).toBe(false);
        expect(unescape(shown)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves text without unsafe characters as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        fc.pre(!UNSAFE.test(text));
        expect(printable(text)).toBe(text);
      }),
    );
  });
});
