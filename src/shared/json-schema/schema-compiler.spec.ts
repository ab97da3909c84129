import { SchemaCompiler } from './schema-compiler.js';
import { DEFAULT_SCHEMA_LIMITS, schemaLimitBreach } from './schema-limits.js';

const compiler = new SchemaCompiler(DEFAULT_SCHEMA_LIMITS);
const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });
const usable = (schema: Record<string, unknown>) => {
  const compiled = compiler.compile(schema);
  if (!compiled.usable) throw new Error(`expected a usable schema, got: ${compiled.reason}`);
  return compiled.validate;
};
const reasonOf = (schema: Record<string, unknown>) => {
  const compiled = compiler.compile(schema);
  return compiled.usable ? undefined : compiled.reason;
};

describe('SchemaCompiler', () => {
  it('keeps ECMAScript pattern syntax working: classes, escapes, unicode, named groups', () => {
    const validate = usable(
      object({
        id: { type: 'string', pattern: '^[\\w.-]+$' },
        zip: { type: 'string', pattern: '^\\d{5}(-\\d{4})?$' },
        accent: { type: 'string', pattern: '\\u00e9' },
        year: { type: 'string', pattern: '^(?<year>\\d{4})$' },
      }),
    );
    expect(validate({ id: 'a.b-c_1', zip: '12345-6789', accent: 'café', year: '2026' })).toBe(true);
    expect(validate({ id: 'a b' })).toBe(false);
    expect(validate({ zip: '1234' })).toBe(false);
    expect(validate({ accent: 'cafe' })).toBe(false);
  });

  it('refuses, with a reason, patterns a linear engine cannot run', () => {
    expect(reasonOf(object({ a: { type: 'string', pattern: '(a)\\1' } }))).toMatch(/cannot be compiled/);
    expect(reasonOf(object({ a: { type: 'string', pattern: 'a(?=b)' } }))).toMatch(/cannot be compiled/);
    expect(reasonOf(object({}, { patternProperties: { '(?<!x)y': { type: 'string' } } }))).toMatch(/cannot be compiled/);
  });

  it('refuses $ref loops, missing definitions and invalid keywords', () => {
    expect(reasonOf({ type: 'object', $ref: '#/definitions/a', definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } } })).toMatch(
      /cannot be compiled/,
    );
    expect(reasonOf(object({ x: { $ref: '#/definitions/missing' } }))).toMatch(/cannot be compiled/);
    expect(reasonOf(object({ x: { type: 'no-such-type' } }))).toMatch(/cannot be compiled/);
    expect(reasonOf(object({ x: { type: 'string', minLength: -1 } }))).toMatch(/cannot be compiled/);
  });

  it('accepts a recursive schema that terminates (a tree)', () => {
    const validate = usable({ $ref: '#/definitions/node', definitions: { node: object({ children: { type: 'array', items: { $ref: '#/definitions/node' } } }) } });
    expect(validate({ children: [{ children: [] }] })).toBe(true);
    expect(validate({ children: [{ children: 1 }] })).toBe(false);
  });

  it('refuses schemas over a limit, however large they are (how fast: test/quiet/schema-limits.spec.ts)', () => {
    const huge = object(Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`p${i}`, { type: 'string', pattern: `^p${i}[a-z]+$` }])));
    expect(reasonOf(huge)).toMatch(/has more than 50 patterns|larger than|more than 1000 objects/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 5000; i++) deep = object({ next: deep });
    expect(reasonOf(deep)).toBe('its inputSchema nests deeper than 32 levels');
    expect(reasonOf(object({ d: { type: 'string', description: 'x'.repeat(200_000) } }))).toBe('its inputSchema is larger than 131072 bytes');
  });

  it('checks uniqueItems with JSON equality', () => {
    const validate = usable(object({ a: { type: 'array', uniqueItems: true } }));
    expect(validate({ a: [{ x: 1, y: 2 }, { y: 2, x: 1 }] })).toBe(false);
    expect(validate({ a: [1, 1.0] })).toBe(false);
    expect(validate({ a: [1, '1', [1], { 1: 1 }] })).toBe(true);
    expect(usable(object({ a: { type: 'array', uniqueItems: false } }))({ a: [1, 1] })).toBe(true);
  });

  it('names each limit by what it measures', () => {
    const limits = { maxBytes: 1000, maxDepth: 4, maxPatterns: 1, maxObjects: 3 };
    expect(schemaLimitBreach(object({ a: { pattern: 'x' }, b: { pattern: 'y' } }), { ...limits, maxObjects: 10 })).toBe('its inputSchema has more than 1 patterns');
    expect(schemaLimitBreach(object({ a: {}, b: {}, c: {} }), limits)).toBe('its inputSchema has more than 3 objects');
    expect(schemaLimitBreach({ a: { b: { c: { d: {} } } } }, { ...limits, maxObjects: 10 })).toBe('its inputSchema nests deeper than 4 levels');
    expect(schemaLimitBreach({ a: 'x'.repeat(2000) }, limits)).toBe('its inputSchema is larger than 1000 bytes');
    expect(schemaLimitBreach(object({ a: { type: 'string' } }), limits)).toBeUndefined();
  });
});
