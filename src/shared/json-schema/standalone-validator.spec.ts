import { SchemaCompiler } from './schema-compiler.js';
import { DEFAULT_SCHEMA_LIMITS } from './schema-limits.js';
import { validatorFromCode, validatorWithCodeCache } from './standalone-validator.js';

/** Within the limits, among the costliest to compile: 990 properties, 49 patterns, formats. */
function wideSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 990; i++) properties[`p${i}`] = i < 49 ? { type: 'string', pattern: `^(a+)+${i}$` } : { type: 'string', format: i % 2 ? 'email' : 'date-time' };
  return { type: 'object', properties };
}

const code = (() => {
  const compiled = new SchemaCompiler(DEFAULT_SCHEMA_LIMITS, { standalone: true }).compileToCode(wideSchema());
  if (!compiled.usable) throw new Error(compiled.reason);
  return compiled.code;
})();

const cases: unknown[] = [
  { p0: 'aaa0' },
  { p0: 'aaa1' },
  { p0: 'a'.repeat(50_000) + '!' },
  { p48: 'a48', p49: 'a@example.com', p50: '2026-11-25T08:00:00Z' },
  { p49: 'not mail', p50: 'yesterday' },
  { p1: 7 },
  undefined,
  [],
];

const verdicts = (validate: ReturnType<typeof validatorFromCode>) =>
  cases.map((args) => ({ valid: validate(args), errors: (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`) }));

describe('standalone validators', () => {
  it('answer the same with V8 code cache as compiled from source, and as made', () => {
    const made = validatorWithCodeCache(code);
    expect(made.cache.byteLength).toBeGreaterThan(0);
    const expected = verdicts(validatorFromCode(code));
    expect(expected.filter((verdict) => verdict.valid)).toHaveLength(2);
    expect(verdicts(made.validate)).toEqual(expected);
    expect(verdicts(validatorFromCode(code, made.cache))).toEqual(expected);
  });

  it('still work when the cache is not V8 code of this source (V8 refuses it and compiles the source)', () => {
    const other = validatorWithCodeCache('module.exports = () => true;').cache;
    const expected = verdicts(validatorFromCode(code));
    expect(verdicts(validatorFromCode(code, other))).toEqual(expected);
    expect(verdicts(validatorFromCode(code, new Uint8Array(64).fill(7)))).toEqual(expected);
  });

  it('refuse a source that asks for a module outside ajv and Toolplane', () => {
    expect(() => validatorFromCode('require("node:child_process"); module.exports = () => true;')).toThrow('a compiled schema asked for the module "node:child_process"');
  });
});
