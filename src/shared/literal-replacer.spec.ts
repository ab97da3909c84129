import fc from 'fast-check';
import { LiteralReplacer } from './literal-replacer.js';

/** What an alternation of the literals, longest first, replaces: the behaviour LiteralReplacer keeps. */
function byRegExp(replacements: Map<string, string>, text: string): string {
  const literals = [...replacements.keys()].filter((literal) => literal.length >= 3).sort((a, b) => b.length - a.length);
  if (literals.length === 0) return text;
  const pattern = new RegExp(literals.map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return text.replace(pattern, (match) => replacements.get(match)!);
}

describe('LiteralReplacer', () => {
  it('replaces the leftmost occurrence first, the longest of those starting there', () => {
    const replacer = new LiteralReplacer(
      new Map([
        ['abcd', '<1>'],
        ['abcdef', '<2>'],
        ['cdefgh', '<3>'],
      ]),
    );
    expect(replacer.replace('xx abcdefgh abcdx abcdefx')).toBe('xx <2>gh <1>x <2>x');
    expect(replacer.replace('no literal here')).toBe('no literal here');
  });

  it('replaces exactly what an alternation of the literals, longest first, would (property)', () => {
    // A small alphabet, so literals overlap, repeat and share starts and ends.
    const text = (maxLength: number) => fc.string({ unit: fc.constantFrom('a', 'b', 'c', '€', '😀'), maxLength });
    fc.assert(
      fc.property(fc.uniqueArray(text(12), { minLength: 1, maxLength: 6 }), fc.array(text(30), { maxLength: 6 }), (literals, pieces) => {
        const replacements = new Map(literals.map((literal, index) => [literal, `<${index}>`]));
        const input = pieces.join(literals[0] ?? '');
        expect(new LiteralReplacer(replacements).replace(input)).toBe(byRegExp(replacements, input));
      }),
      { numRuns: 500 },
    );
  });
});
