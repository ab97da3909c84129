import { findJsonSyntaxError } from './json-syntax.js';

describe('findJsonSyntaxError', () => {
  it.each([
    '{}',
    '[]',
    ' {"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"], "b": {}} ',
    '"just a string"',
    '0',
  ])('accepts %s', (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(findJsonSyntaxError(text)).toBeUndefined();
  });

  it.each([
    ['', 'unexpected end of input', 1, 1],
    ['{"a": 1', 'unexpected end of input', 1, 8],
    ['{"a": 1,}', "trailing comma before '}'", 1, 9],
    ['[1, 2,\n]', "trailing comma before ']'", 2, 1],
    ['{"a" 1}', "expected ':' after the property name, found '1'", 1, 6],
    ["{'a': 1}", "expected a property name in double quotes, found '''", 1, 2],
    ['{"a": 1 "b": 2}', "expected ',' or '}', found '\"'", 1, 9],
    ['{"a": }', "expected a value, found '}'", 1, 7],
    ['{"a": 1, "b": }', "expected a value, found '}'", 1, 15],
    ['{"a": undefined}', "expected a value, found 'u'", 1, 7],
    ['{"a": "x', 'unterminated string', 1, 7],
    ['{"a": "x\ny"}', 'line break inside a string (use \\n)', 1, 9],
    ['["\\x"]', 'invalid escape in string', 1, 3],
    ['["\\u12"]', 'invalid \\u escape in string', 1, 3],
    ['{} {}', "unexpected '{' after the end of the JSON value", 1, 4],
    ['-', 'invalid number', 1, 1],
    ['{\n  "a": 1\n  "b": 2\n}', "expected ',' or '}', found '\"'", 3, 3],
    ['[\u0001]', 'expected a value, found U+0001', 1, 2],
  ])('locates the error in %j', (text, reason, line, column) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(findJsonSyntaxError(text)).toEqual({ reason, line, column });
  });

  it('handles deep nesting without recursion', () => {
    expect(findJsonSyntaxError(`${'['.repeat(500_000)}${']'.repeat(499_999)}`)).toEqual({
      reason: 'unexpected end of input',
      line: 1,
      column: 1_000_000,
    });
  });
});
