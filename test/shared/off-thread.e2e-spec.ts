import { DEFAULT_SCHEMA_LIMITS } from '../../src/shared/json-schema/schema-limits.js';
import { OffThreadSchemaCompiler } from '../../src/shared/off-thread/off-thread-schema-compiler.js';
import { OffThreadWorker } from '../../src/shared/off-thread/off-thread-worker.js';
import { AjvArgumentValidator } from '../../src/modules/execution/infrastructure/ajv-argument-validator.js';

/**
 * The worker thread as Toolplane runs it: the built script (npm test builds first), real ajv
 * standalone code turned into validators on this side.
 */
const script = new URL('../../dist/src/shared/off-thread/worker.js', import.meta.url);
const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('the worker thread', () => {
  const worker = new OffThreadWorker(script);
  afterAll(() => worker.close());

  it('is built', () => {
    expect(worker.available).toBe(true);
  });

  it('parses messages, keeping __proto__ and constructor keys as own properties', async () => {
    const text = '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"é ✓"}],"structuredContent":{"__proto__":{"polluted":true},"constructor":1}}}';
    const payload = bytes(text);
    const value = (await worker.run({ kind: 'parse', bytes: new Uint8Array(payload) })) as Record<string, any>;
    expect(value).toEqual(JSON.parse(text));
    const structured = value.result.structuredContent;
    expect(Object.keys(structured)).toEqual(['__proto__', 'constructor']);
    // An own property, not the prototype: nothing leaked into the object's behaviour.
    expect(Object.getOwnPropertyDescriptor(structured, '__proto__')?.value).toEqual({ polluted: true });
    expect(structured.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('trims oversized schemas of a tools/list result before sending it back, and keeps the others', async () => {
    const huge = { type: 'object', properties: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`p${i}`, { type: 'string', pattern: '^a+$' }])) };
    const small = { type: 'object', properties: { q: { type: 'string' } } };
    const listing = { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'huge', inputSchema: huge }, { name: 'small', inputSchema: small }] } };
    const value = (await worker.run({ kind: 'parse', bytes: new Uint8Array(bytes(JSON.stringify(listing))), schemaLimits: DEFAULT_SCHEMA_LIMITS })) as any;
    expect(value.result.tools[0].inputSchema).toEqual({ type: 'object', 'x-toolplane-trimmed': expect.stringMatching(/^its inputSchema has more than/) });
    expect(value.result.tools[1].inputSchema).toEqual(small);
  });

  it('answers a parse error as a rejection and goes on working', async () => {
    await expect(worker.run({ kind: 'parse', bytes: new Uint8Array(bytes('{"jsonrpc":')) })).rejects.toThrow(/JSON/);
    await expect(worker.run({ kind: 'parse', bytes: new Uint8Array(bytes('[1]')) })).resolves.toEqual([1]);
  });

  it('fails the waiting jobs when stopped, and starts again on the next job', async () => {
    const other = new OffThreadWorker(script);
    const big = new Uint8Array(bytes(JSON.stringify(Array.from({ length: 200_000 }, (_, i) => ({ i })))));
    const waiting = other.run({ kind: 'parse', bytes: big });
    await other.close();
    await expect(waiting).rejects.toThrow(/stopped/);
    await expect(other.run({ kind: 'parse', bytes: new Uint8Array(bytes('true')) })).resolves.toBe(true);
    await other.close();
  });
});

describe('schemas compiled on the worker thread', () => {
  const worker = new OffThreadWorker(script);
  const compiler = new OffThreadSchemaCompiler(DEFAULT_SCHEMA_LIMITS, worker);
  afterAll(() => worker.close());

  it('become validators here that check patterns in linear time, formats, uniqueItems and 2020-12 keywords', async () => {
    const compiled = await compiler.compile({
      type: 'object',
      properties: {
        text: { type: 'string', pattern: '^(a+)+$' },
        mail: { type: 'string', format: 'email' },
        tags: { type: 'array', uniqueItems: true },
        name: { type: 'string', minLength: 2 },
      },
      required: ['text'],
    });
    if (!compiled.usable) throw new Error(compiled.reason);
    expect(compiled.validate({ text: 'aaa', mail: 'a@example.com', tags: [{ a: 1, b: 2 }, { b: 2, a: 3 }], name: 'ok' })).toBe(true);
    const started = performance.now();
    expect(compiled.validate({ text: `${'a'.repeat(100_000)}!` })).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000); // backtracking would take longer than the universe
    expect(compiled.validate({ text: 'a', tags: [{ a: 1, b: 2 }, { b: 2, a: 1 }] })).toBe(false);
    expect(compiled.validate.errors?.map((e) => e.keyword)).toEqual(['uniqueItems']);
    expect(compiled.validate({ text: 'a', mail: 'not mail', name: 'é' })).toBe(false);
    expect(compiled.validate.errors?.map((e) => e.keyword).sort()).toEqual(['format', 'minLength']);

    const modern = await compiler.compile({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } },
      properties: { at: { $ref: '#/$defs/point' } },
    });
    if (!modern.usable) throw new Error(modern.reason);
    expect(modern.validate({ at: [1, 2] })).toBe(true);
    expect(modern.validate({ at: [1, 2, 3] })).toBe(false);
  });

  it('are unusable, with the reason, when they loop, point nowhere or are over a limit', async () => {
    const loop = { type: 'object', $ref: '#/definitions/a', definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } } };
    expect(await compiler.verdict(loop)).toEqual({ usable: false, reason: expect.stringMatching(/^its inputSchema cannot be compiled: /) });
    expect(await compiler.compile({ type: 'object', properties: { x: { $ref: '#/nowhere' } } })).toEqual({ usable: false, reason: expect.stringMatching(/can't resolve reference/) });
    expect(await compiler.verdict({ type: 'object', properties: { x: { pattern: '(a)\\1' } } })).toEqual({ usable: false, reason: expect.stringMatching(/^its inputSchema cannot be compiled: /) });
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { x: deep } };
    expect(await compiler.verdict(deep)).toEqual({ usable: false, reason: 'its inputSchema nests deeper than 32 levels' });
  });

  it('serve the argument validator: duplicates among 6,000 objects are found', async () => {
    const validator = new AjvArgumentValidator(DEFAULT_SCHEMA_LIMITS, compiler);
    const schema = { type: 'object', properties: { list: { type: 'array', uniqueItems: true, items: { type: 'object' } } } };
    const list = Array.from({ length: 6_000 }, (_, i) => ({ k: i, v: 'x' }));
    expect(await validator.validate('big', schema, { list })).toEqual({ problems: [] });
    list.push({ v: 'x', k: 17 });
    expect(await validator.validate('big', schema, { list })).toEqual({ problems: [{ path: 'arguments.list', message: 'must NOT have duplicate items' }] });
    expect(await validator.validate('big', schema, { list: [{ a: 1 }, { a: 1 }] })).toEqual({ problems: [{ path: 'arguments.list', message: 'must NOT have duplicate items' }] });
    expect(await validator.validate('big', schema, { list: [1] })).toEqual({ problems: [{ path: 'arguments.list[0]', message: 'must be object' }] });
  });
});
