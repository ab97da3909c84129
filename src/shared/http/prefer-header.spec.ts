import fc from 'fast-check';
import { preferenceNames, prefersRespondAsync } from './prefer-header.js';

describe('the Prefer header', () => {
  it('finds respond-async among other preferences, in any case, with parameters and whitespace', () => {
    expect(prefersRespondAsync('respond-async')).toBe(true);
    expect(prefersRespondAsync('Respond-Async')).toBe(true);
    expect(prefersRespondAsync('return=minimal, respond-async, wait=10')).toBe(true);
    expect(prefersRespondAsync('wait=10,respond-async ;foo=bar')).toBe(true);
    expect(prefersRespondAsync(['return=minimal', 'respond-async'])).toBe(true);
    expect(preferenceNames('return=representation; a="x;y", respond-async, handling=lenient')).toEqual(['return', 'respond-async', 'handling']);
  });

  it('asks for nothing when the header is absent, empty or malformed', () => {
    for (const header of [undefined, '', ' ', ',,,', 'respond-asynchronous', 'respond async', 'no-respond-async', '"respond-async"', ';respond-async', '=respond-async', 'respond-async/x', '\u0000respond-async']) {
      expect(prefersRespondAsync(header)).toBe(false);
    }
  });

  it('does not read a preference out of a quoted value', () => {
    expect(prefersRespondAsync('foo="a, respond-async"')).toBe(false);
    expect(prefersRespondAsync('foo="a\\", respond-async"')).toBe(false);
    expect(prefersRespondAsync('foo="a\\\\", respond-async')).toBe(true);
    expect(prefersRespondAsync('foo="unterminated, respond-async')).toBe(false);
  });

  it('reads only the first 4 KB of a header', () => {
    expect(prefersRespondAsync(`${'a'.repeat(5000)}, respond-async`)).toBe(false);
    expect(prefersRespondAsync(`${'a'.repeat(4000)}, respond-async`)).toBe(true);
  });

  it('never throws on any text, and names only tokens', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.array(fc.string({ maxLength: 50 }), { maxLength: 5 })), (header) => {
        for (const name of preferenceNames(header)) expect(name).toMatch(/^[!#$%&'*+.^_`|~0-9a-z-]+$/);
      }),
      { numRuns: 3000 },
    );
  });

  it('finds respond-async wherever it stands as its own element among well-formed preferences', () => {
    const token = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/).filter((name) => name !== 'respond-async');
    const value = fc.oneof(token, fc.string({ maxLength: 10 }).map((text) => `"${text.replace(/["\\]/g, '')}"`));
    const preference = fc.tuple(token, fc.option(value, { nil: undefined })).map(([name, v]) => (v === undefined ? name : `${name}=${v}`));
    fc.assert(
      fc.property(fc.array(preference, { maxLength: 6 }), fc.nat(6), fc.boolean(), (others, at, asked) => {
        const list = [...others];
        if (asked) list.splice(Math.min(at, list.length), 0, 'respond-async');
        expect(prefersRespondAsync(list.join(', '))).toBe(asked);
      }),
      { numRuns: 2000 },
    );
  });
});
