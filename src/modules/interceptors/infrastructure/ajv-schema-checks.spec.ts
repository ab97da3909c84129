import { DEFAULT_SCHEMA_LIMITS } from '../../../shared/json-schema/schema-limits.js';
import { AjvSchemaChecks } from './ajv-schema-checks.js';

describe('AjvSchemaChecks', () => {
  const checks = new AjvSchemaChecks(DEFAULT_SCHEMA_LIMITS);
  const compiled = async (schema: Record<string, unknown>) => {
    const check = await checks.compile(schema);
    if (!check.usable) throw new Error(check.reason);
    return check;
  };

  it('lists the problems of a value at paths under the base it is given (2020-12 too)', async () => {
    const check = await compiled({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { at: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }] } },
      required: ['at', 'id'],
    });
    expect(check.problems({ at: [1, 2], id: 1 }, 'structuredContent')).toEqual([]);
    expect(check.problems({ at: [1, 'x'] }, 'structuredContent').map((problem) => problem.path).sort()).toEqual(['structuredContent.at[1]', 'structuredContent.id']);
  });

  it('matches patterns in linear time', async () => {
    const check = await compiled({ type: 'string', pattern: '^(a+)+$' });
    const started = performance.now();
    expect(check.problems(`${'a'.repeat(50_000)}!`, 'structuredContent')).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('says why a schema cannot be used', async () => {
    expect(await checks.compile({ type: 'object', properties: { a: { $ref: '#/nowhere' } } })).toEqual({ usable: false, reason: expect.any(String) });
  });
});
