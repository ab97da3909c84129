import { DEFAULT_SCHEMA_LIMITS } from '../../../shared/json-schema/schema-limits.js';
import { AjvArgumentValidator } from './ajv-argument-validator.js';

describe('AjvArgumentValidator', () => {
  const checker = new AjvArgumentValidator(DEFAULT_SCHEMA_LIMITS);
  const validator = {
    validate: async (hash: string, schema: Record<string, unknown>, args: unknown) => {
      const check = await checker.validate(hash, schema, args);
      if ('unusable' in check) throw new Error(`unusable: ${check.unusable}`);
      return check.problems;
    },
  };

  it('validates draft-07 schemas and lists every problem with its path', async () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { a: { type: 'number' }, list: { type: 'array', items: { type: 'string' } }, when: { type: 'string', format: 'date-time' } },
      required: ['a', 'b'],
      additionalProperties: false,
    };
    expect(await validator.validate('h1', schema, { a: 1, b: 2 })).toEqual([{ path: 'arguments.b', message: 'is not allowed by the schema' }]);
    const problems = await validator.validate('h1', schema, { a: 'x', list: ['ok', 3], when: 'yesterday', extra: 1 });
    expect(problems.map((p) => p.path).sort()).toEqual(['arguments.a', 'arguments.b', 'arguments.extra', 'arguments.list[1]', 'arguments.when']);
  });

  it('validates 2020-12 schemas (prefixItems, $defs)', async () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } },
      properties: { at: { $ref: '#/$defs/point' } },
      required: ['at'],
    };
    expect(await validator.validate('h2', schema, { at: [1, 2] })).toEqual([]);
    expect((await validator.validate('h2', schema, { at: [1, 'x'] })).map((p) => p.path)).toEqual(['arguments.at[1]']);
    expect((await validator.validate('h2', schema, { at: [1, 2, 3] })).length).toBeGreaterThan(0);
  });

  it('compiles once per definition hash, and refuses to check against an uncompilable schema', async () => {
    const broken = { type: 'object', properties: { a: { $ref: '#/nowhere' } } };
    expect(await checker.validate('h3', broken, { a: 1 })).toEqual({ unusable: expect.stringMatching(/^its inputSchema cannot be compiled: /) });
    // A new hash means a new definition: the old validator is not reused.
    expect(await validator.validate('h4', { type: 'object', required: ['z'] }, {})).toEqual([{ path: 'arguments.z', message: 'is required' }]);
  });
});
