import { DEFAULT_SCHEMA_LIMITS } from '../../../../shared/json-schema/schema-limits.js';
import { AjvSchemaChecks } from '../../infrastructure/ajv-schema-checks.js';
import { anInterceptedCall, anInterceptor } from '../../testing/engine-fixtures.js';
import { INTERCEPTOR_KINDS } from '../interceptor.js';
import { builtinEngines } from './builtin-engines.js';

describe('builtinEngines', () => {
  it('builds an engine for every kind but webhook, each under its own kind', () => {
    const engines = builtinEngines({ schemaChecks: new AjvSchemaChecks(DEFAULT_SCHEMA_LIMITS) });
    expect(Object.keys(engines).sort()).toEqual(INTERCEPTOR_KINDS.filter((kind) => kind !== 'webhook').sort());
    for (const [kind, engine] of Object.entries(engines)) expect(engine.kind).toBe(kind);
  });

  it('refuses an interceptor of another kind rather than misreading its settings', () => {
    const engines = builtinEngines({ schemaChecks: new AjvSchemaChecks(DEFAULT_SCHEMA_LIMITS) });
    const deny = anInterceptor('deny', { rules: [] });
    const call = anInterceptedCall();
    expect(() => engines.lock.run(deny, 'pre', call, new AbortController().signal)).toThrow('the lock engine was given a deny interceptor');
    expect(() => engines.cap.run(deny, 'post', call, new AbortController().signal)).toThrow('the cap engine was given a deny interceptor');
  });
});
