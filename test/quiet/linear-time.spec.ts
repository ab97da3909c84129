import fc from 'fast-check';
import { jsonNestingDepth, MAX_BODY_DEPTH } from '../../src/shared/http/json-body.js';
import { SchemaCompiler } from '../../src/shared/json-schema/schema-compiler.js';
import { DEFAULT_SCHEMA_LIMITS } from '../../src/shared/json-schema/schema-limits.js';
import { LiteralReplacer } from '../../src/shared/literal-replacer.js';

/**
 * The work Toolplane does on foreign input (upstream schemas, request bodies, texts to scrub) takes
 * time linear in the input. Timed here, alone, where other suites' load is not measured.
 */
const timed = <T>(run: () => T): { value: T; ms: number } => {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
};

describe('SchemaCompiler', () => {
  const compiler = new SchemaCompiler(DEFAULT_SCHEMA_LIMITS);
  const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });
  const usable = (schema: Record<string, unknown>) => {
    const compiled = compiler.compile(schema);
    if (!compiled.usable) throw new Error(`expected a usable schema, got: ${compiled.reason}`);
    return compiled.validate;
  };

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

  it('checks uniqueItems in linear time', () => {
    const validate = usable(object({ a: { type: 'array', uniqueItems: true } }));
    const distinct = Array.from({ length: 60_000 }, (_, i) => ({ x: i, y: [i] }));
    const check = timed(() => validate({ a: distinct }));
    expect(check.value).toBe(true);
    expect(check.ms).toBeLessThan(1000);
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

describe('jsonNestingDepth', () => {
  it('scans a megabyte body in a few milliseconds', () => {
    const body = JSON.stringify({ arguments: { items: Array.from({ length: 20_000 }, (_, i) => ({ id: i, text: `item ${i} [with] "quotes"` })) } });
    expect(body.length).toBeGreaterThan(800_000);
    const started = performance.now();
    for (let i = 0; i < 10; i++) jsonNestingDepth(body, MAX_BODY_DEPTH);
    expect((performance.now() - started) / 10).toBeLessThan(20);
  });
});

describe('LiteralReplacer', () => {
  it('takes time linear in the text, however the text and the literals repeat themselves', () => {
    const text = 'a'.repeat(1_000_000);
    const cost = (literal: string) => {
      const replacer = new LiteralReplacer(new Map([[literal, 'x']]));
      const started = performance.now();
      expect(replacer.replace(text)).toBe(text);
      return performance.now() - started;
    };
    cost('a'.repeat(9) + 'b');
    // Compared character by character at each position, the long literal would cost about 100 times the short one.
    expect(cost('a'.repeat(1000) + 'b')).toBeLessThan(5 * cost('a'.repeat(9) + 'b') + 100);
  });
});
