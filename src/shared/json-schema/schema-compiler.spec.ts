import fc from 'fast-check';
import { SchemaCompiler } from './schema-compiler.js';
import { DEFAULT_SCHEMA_LIMITS, schemaLimitBreach } from './schema-limits.js';

const compiler = new SchemaCompiler(DEFAULT_SCHEMA_LIMITS);
const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });
const timed = <T>(run: () => T): { value: T; ms: number } => {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
};
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
  it('matches a catastrophic pattern in linear time', () => {
    const validate = usable(object({ text: { type: 'string', pattern: '^(a+)+$' } }));
    const hostile = timed(() => validate({ text: 'a'.repeat(100_000) + '!' }));
    expect(hostile.value).toBe(false);
    expect(hostile.ms).toBeLessThan(200);
    expect(validate({ text: 'aaaa' })).toBe(true);
  });

  it('matches a catastrophic patternProperties key in linear time', () => {
    const validate = usable(object({}, { patternProperties: { '^(a+)+$': { type: 'integer' } } }));
    const hostile = timed(() => validate({ ['a'.repeat(50_000) + '!']: 'x', aaa: 'not an integer' }));
    expect(hostile.value).toBe(false);
    expect(hostile.ms).toBeLessThan(200);
  });

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

  it('checks uniqueItems in linear time, with JSON equality', () => {
    const validate = usable(object({ a: { type: 'array', uniqueItems: true } }));
    const distinct = Array.from({ length: 60_000 }, (_, i) => ({ x: i, y: [i] }));
    const check = timed(() => validate({ a: distinct }));
    expect(check.value).toBe(true);
    expect(check.ms).toBeLessThan(1000);
    expect(validate({ a: [{ x: 1, y: 2 }, { y: 2, x: 1 }] })).toBe(false);
    expect(validate({ a: [1, 1.0] })).toBe(false);
    expect(validate({ a: [1, '1', [1], { 1: 1 }] })).toBe(true);
    expect(usable(object({ a: { type: 'array', uniqueItems: false } }))({ a: [1, 1] })).toBe(true);
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

  it('names each limit by what it measures', () => {
    const limits = { maxBytes: 1000, maxDepth: 4, maxPatterns: 1, maxObjects: 3 };
    expect(schemaLimitBreach(object({ a: { pattern: 'x' }, b: { pattern: 'y' } }), { ...limits, maxObjects: 10 })).toBe('its inputSchema has more than 1 patterns');
    expect(schemaLimitBreach(object({ a: {}, b: {}, c: {} }), limits)).toBe('its inputSchema has more than 3 objects');
    expect(schemaLimitBreach({ a: { b: { c: { d: {} } } } }, { ...limits, maxObjects: 10 })).toBe('its inputSchema nests deeper than 4 levels');
    expect(schemaLimitBreach({ a: 'x'.repeat(2000) }, limits)).toBe('its inputSchema is larger than 1000 bytes');
    expect(schemaLimitBreach(object({ a: { type: 'string' } }), limits)).toBeUndefined();
  });

  it('never throws and stays fast on arbitrary JSON as a schema', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.jsonValue({ maxDepth: 4 }), (schema, args) => {
        const candidate = schema !== null && typeof schema === 'object' && !Array.isArray(schema) ? (schema as Record<string, unknown>) : { const: schema };
        const started = performance.now();
        const compiled = compiler.compile(candidate);
        if (compiled.usable) compiled.validate(args);
        expect(performance.now() - started).toBeLessThan(250);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary patterns, and matches them in bounded time', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.string({ maxLength: 2000 }), (pattern, text) => {
        const compiled = compiler.compile(object({ t: { type: 'string', pattern } }));
        if (!compiled.usable) return;
        const started = performance.now();
        compiled.validate({ t: text });
        expect(performance.now() - started).toBeLessThan(100);
      }),
      { numRuns: 300 },
    );
  });
});
