import fc from 'fast-check';
import { stringify } from 'yaml';
import { MAX_YAML_VALUES, parseYamlText } from './yaml-text.js';

describe('parseYamlText', () => {
  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const result = parseYamlText(text);
        if (!result.ok) expect(result.problems.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on YAML-looking text (indentation, flow collections, anchors, tags)', () => {
    const token = fc.constantFrom('a', 'b:', '- ', '  ', '\n', '[', ']', '{', '}', ',', '&x ', '*x', '!!str ', '!tag ', '? ', '|', '>', '"', "'", '#', '<<: ', '__proto__: ', '---\n', '...\n');
    fc.assert(
      fc.property(fc.array(token, { maxLength: 60 }), (tokens) => {
        const result = parseYamlText(tokens.join(''));
        if (result.ok && result.value !== null && typeof result.value === 'object') {
          expect(Object.getPrototypeOf(result.value)).toBe(Array.isArray(result.value) ? Array.prototype : Object.prototype);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('reads back any JSON document it is given as YAML', () => {
    const json = fc.jsonValue({ maxDepth: 5 }).filter((value) => !JSON.stringify(value).includes('__proto__'));
    fc.assert(
      fc.property(json, (value) => {
        const result = parseYamlText(stringify(value));
        expect(result.ok).toBe(true);
        // As JSON (where the value goes): YAML keeps -0, which JSON writes as 0.
        expect(JSON.stringify(result.ok && result.value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses documents that are too large, too deep or prototype-reaching, naming where', () => {
    const wide = stringify({ sources: Array.from({ length: MAX_YAML_VALUES }, (_, i) => i) });
    expect(parseYamlText(wide)).toEqual({ ok: false, problems: [{ path: 'body', message: `holds more than ${MAX_YAML_VALUES} values` }] });
    expect(parseYamlText(`${'['.repeat(80)}${']'.repeat(80)}`)).toMatchObject({ ok: false, problems: [{ path: 'body', message: 'nests deeper than 64 levels' }] });
    expect(parseYamlText('a:\n  b:\n    __proto__: 1\n')).toEqual({ ok: false, problems: [{ path: 'line 3', message: 'the key "__proto__" is not allowed' }] });
    expect(parseYamlText('a: 1\na: 2\n')).toMatchObject({ ok: false, problems: [{ path: 'line 2, column 1', message: expect.stringContaining('unique') }] });
    expect(parseYamlText('a: !!binary aGk=\nb: !!timestamp 2001-12-14\n')).toEqual({
      ok: false,
      problems: [
        { path: 'line 1', message: 'the tag "!!binary" is not allowed (the file is JSON data)' },
        { path: 'line 2', message: 'the tag "!!timestamp" is not allowed (the file is JSON data)' },
      ],
    });
    expect(parseYamlText('a: !!str 1\nb: !!int "2"\n')).toEqual({ ok: true, value: { a: '1', b: 2 } });
  });
});
