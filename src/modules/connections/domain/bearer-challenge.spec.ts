import fc from 'fast-check';
import { parseChallenges, resourceMetadataOf } from './bearer-challenge.js';

describe('resourceMetadataOf', () => {
  it('reads resource_metadata from a Bearer challenge, quoted or not, among other challenges and parameters', () => {
    expect(resourceMetadataOf('Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"')).toBe(
      'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
    );
    expect(resourceMetadataOf('Basic realm="x", Bearer error="invalid_token", scope="a b", resource_metadata="https://r.example/m"')).toBe('https://r.example/m');
    expect(resourceMetadataOf('Basic YWxhZGRpbjpvcGVuc2VzYW1l, bearer Resource_Metadata=https://r.example/m')).toBe('https://r.example/m');
    expect(resourceMetadataOf('Bearer resource_metadata="https://r.example/a\\"b"')).toBe('https://r.example/a"b');
  });

  it('answers undefined for no Bearer challenge, no parameter, or a malformed header', () => {
    for (const header of [null, undefined, '', 'Basic realm="x"', 'Bearer', 'Bearer scope="a"', 'Bearer resource_metadata="unterminated', '=oops', 'Bearer resource_metadata=', 'Bearer a="1" b']) {
      expect(resourceMetadataOf(header)).toBeUndefined();
    }
    expect(resourceMetadataOf(`Bearer resource_metadata="${'x'.repeat(9000)}"`)).toBeUndefined();
  });

  it('finds any value it was given back through quoting, beside arbitrary other parameters', () => {
    const token = fc.stringMatching(/^[a-z][a-z0-9_-]{0,10}$/).filter((name) => name !== 'resource_metadata');
    const quotedText = fc.string({ maxLength: 60 }).filter((text) => [...text].every((char) => char.charCodeAt(0) >= 0x20 && char.charCodeAt(0) !== 0x7f));
    fc.assert(
      fc.property(fc.array(fc.tuple(token, quotedText), { maxLength: 4 }), quotedText, fc.boolean(), (others, value, before) => {
        const quote = (text: string) => `"${text.replace(/(["\\])/g, '\\$1')}"`;
        const params = others.map(([name, text]) => `${name}=${quote(text)}`);
        const ours = `resource_metadata=${quote(value)}`;
        const header = `Bearer ${(before ? [ours, ...params] : [...params, ours]).join(', ')}`;
        // A parameter repeated keeps its first value; ours is unique here.
        expect(resourceMetadataOf(header)).toBe(value);
      }),
    );
  });

  it('never throws and answers a string or undefined for any header text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (header) => {
        const answer = resourceMetadataOf(header);
        expect(answer === undefined || typeof answer === 'string').toBe(true);
        const parsed = parseChallenges(header);
        expect(parsed === undefined || Array.isArray(parsed)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
