import fc from 'fast-check';
import { disambiguatedName, QUALIFIED_NAME_PATTERN, qualifiedNameFor } from './qualified-name.js';

describe('qualifiedNameFor', () => {
  it('joins source and tool with a double underscore when the result is already valid', () => {
    expect(qualifiedNameFor('github', 'create_issue')).toBe('github__create_issue');
  });

  it.each([
    ['get.file', 'fs'],
    ['a tool with spaces/and:colons', 'fs'],
    ['名前', 'fs'],
    ['', 'fs'],
    ['x'.repeat(200), 'fs'],
    ['short', 'a'.repeat(63)],
  ])('always matches the LLM name pattern (%s on %s)', (tool, source) => {
    const name = qualifiedNameFor(source, tool);
    expect(name).toMatch(QUALIFIED_NAME_PATTERN);
    expect(name).toBe(qualifiedNameFor(source, tool)); // stable
  });

  it('keeps names that sanitize alike apart', () => {
    const dotted = qualifiedNameFor('fs', 'read.file');
    const slashed = qualifiedNameFor('fs', 'read/file');
    const plain = qualifiedNameFor('fs', 'read_file');
    expect(new Set([dotted, slashed, plain]).size).toBe(3);
    expect(plain).toBe('fs__read_file');
  });

  it('has a longer, still valid and stable, fallback', () => {
    const name = disambiguatedName('fs', 'read_file');
    expect(name).toMatch(QUALIFIED_NAME_PATTERN);
    expect(name).not.toBe(qualifiedNameFor('fs', 'read_file'));
    expect(name).toBe(disambiguatedName('fs', 'read_file'));
  });
});

describe('qualifiedNameFor, with long names', () => {
  const longSource = 'everything-with-a-rather-long-but-valid-source-name-0123456789'; // 62 characters

  it("shortens the source part first, so the tool's own name stays readable", () => {
    const echo = qualifiedNameFor(longSource, 'echo');
    const sum = qualifiedNameFor(longSource, 'get-sum');
    expect(echo).toMatch(/^everything-with-a-rather-long-but-valid-source-name_[0-9a-f]{6}__echo$/);
    expect(sum).toMatch(/__get-sum$/);
    expect(echo.length).toBeLessThanOrEqual(64);
    expect(sum.length).toBeLessThanOrEqual(64);
  });

  it('cuts the tool name only when it alone leaves no room for the source', () => {
    const name = qualifiedNameFor('search', 't'.repeat(80));
    expect(name).toMatch(QUALIFIED_NAME_PATTERN);
    expect(name.startsWith('search_')).toBe(true);
    expect(name).toMatch(/__t+$/);
    expect(name).toHaveLength(64);
  });

  it('is valid, stable, and keeps any tool name of up to 47 characters whole, for every source name', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,62}$/), fc.string({ maxLength: 100 }), (source, tool) => {
        const name = qualifiedNameFor(source, tool);
        expect(name).toMatch(QUALIFIED_NAME_PATTERN);
        expect(qualifiedNameFor(source, tool)).toBe(name);
        const sanitized = tool.replace(/[^a-zA-Z0-9_-]/g, '_');
        if (sanitized.length > 0 && sanitized.length <= 47) expect(name.includes(`__${sanitized}`)).toBe(true);
        expect(disambiguatedName(source, tool)).toMatch(QUALIFIED_NAME_PATTERN);
        expect(disambiguatedName(source, tool)).not.toBe(name);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps names that shorten alike apart', () => {
    const names = ['alpha', 'beta', 'gamma', 'delta'].map((tool) => qualifiedNameFor(longSource, `${'x'.repeat(60)}-${tool}`));
    expect(new Set(names).size).toBe(names.length);
  });
});
