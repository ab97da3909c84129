import { DEFAULT_SCHEMA_LIMITS } from '../../../../shared/json-schema/schema-limits.js';
import { AjvSchemaChecks } from '../../infrastructure/ajv-schema-checks.js';
import { aResult, anInterceptedCall, anInterceptor, text } from '../../testing/engine-fixtures.js';
import type { ExecutionResult } from '../../../executions/domain/execution.js';
import type { OutputSchemaSettings } from '../interceptor.js';
import { SchemaCheck, SchemaChecks } from '../schema-checks.port.js';
import { OutputSchemaEngine } from './output-schema-engine.js';

/** The real checks (ajv, compiled in place without the worker thread), counting what they compile. */
class CountingChecks extends SchemaChecks {
  compiled = 0;
  failNext = false;
  private readonly real = new AjvSchemaChecks(DEFAULT_SCHEMA_LIMITS);

  compile(schema: Record<string, unknown>): Promise<SchemaCheck> {
    this.compiled++;
    if (this.failNext) {
      this.failNext = false;
      return Promise.reject(new Error('worker exited'));
    }
    return this.real.compile(schema);
  }
}

const WEATHER = {
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number' }, readings: { type: 'array', items: { type: 'number' } } },
  required: ['city', 'celsius'],
  additionalProperties: false,
};

describe('OutputSchemaEngine', () => {
  let checks: CountingChecks;
  let engine: OutputSchemaEngine;
  beforeEach(() => {
    checks = new CountingChecks();
    engine = new OutputSchemaEngine(checks);
  });
  const run = (result: ExecutionResult, settings: OutputSchemaSettings = {}, outputSchema: Record<string, unknown> | null = WEATHER, isError?: boolean) =>
    engine.run(anInterceptor('output-schema', settings), 'post', anInterceptedCall({ tool: { qualifiedName: 'weather__now', outputSchema }, result, ...(isError === undefined ? {} : { isError }) }));

  it('allows structuredContent that matches the outputSchema', async () => {
    expect(await run(aResult([text('{}')], { city: 'Oslo', celsius: -3, readings: [1, 2] }))).toEqual({ decision: 'allow' });
  });

  it('turns a mismatch into an error listing the first problems with their paths', async () => {
    const verdict = await run(aResult([], { city: 7, readings: [1, 'x', 'y'], wind: 3 }));
    expect(verdict).toMatchObject({ decision: 'deny' });
    if (verdict.decision !== 'deny') return;
    expect(verdict.message).toMatch(/^The result of weather__now does not match its outputSchema: structuredContent\.\S+ .+; .+; .+ \(and \d+ more\)\.$/);
    expect(verdict.details!.map((detail) => detail.path).sort()).toEqual([
      'structuredContent.celsius',
      'structuredContent.city',
      'structuredContent.readings[1]',
      'structuredContent.readings[2]',
      'structuredContent.wind',
    ]);
  });

  it('only notes a mismatch with onMismatch: warn', async () => {
    expect(await run(aResult([], { city: 'Oslo' }), { onMismatch: 'warn' })).toEqual({
      decision: 'allow',
      warning: 'The result of weather__now does not match its outputSchema: structuredContent.celsius is required.',
    });
  });

  it('counts a missing structuredContent as a mismatch, and checks no tool error', async () => {
    expect(await run(aResult([text('sunny')]))).toEqual({
      decision: 'deny',
      message: 'The result of weather__now does not match its outputSchema: structuredContent is missing: the tool declares an outputSchema.',
      details: [{ path: 'structuredContent', message: 'is missing: the tool declares an outputSchema' }],
    });
    expect(await run(aResult([text('the city is unknown')]), {}, WEATHER, true)).toEqual({ decision: 'allow' });
    expect(await run(aResult([text('failed')], { error: 'unknown city' }), {}, WEATHER, true)).toEqual({ decision: 'allow' });
  });

  it('checks nothing for a tool without an outputSchema', async () => {
    expect(await run(aResult([text('x')], 'anything'), {}, null)).toEqual({ decision: 'allow' });
    expect(checks.compiled).toBe(0);
  });

  it('compiles a schema once, whether it comes again as the same object or as an equal copy', async () => {
    for (let call = 0; call < 3; call++) await run(aResult([], { city: 'Oslo', celsius: 1 }));
    await run(aResult([], { city: 'Oslo', celsius: 1 }), {}, JSON.parse(JSON.stringify(WEATHER)) as Record<string, unknown>);
    expect(checks.compiled).toBe(1);
    await run(aResult([], { a: 1 }), {}, { type: 'object' });
    expect(checks.compiled).toBe(2);
  });

  it('asks again after the compiler failed, and fails (for onError to decide) on a schema that cannot be used', async () => {
    checks.failNext = true;
    await expect(run(aResult([], { city: 'Oslo', celsius: 1 }))).rejects.toThrow('worker exited');
    expect(await run(aResult([], { city: 'Oslo', celsius: 1 }))).toEqual({ decision: 'allow' });
    expect(checks.compiled).toBe(2);
    await expect(run(aResult([], {}), {}, { type: 'object', properties: { a: { $ref: '#/nowhere' } } })).rejects.toThrow(/outputSchema of weather__now cannot be used/);
  });
});
