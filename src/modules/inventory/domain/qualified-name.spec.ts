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
