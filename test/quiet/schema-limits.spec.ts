import { SchemaCompiler } from '../../src/shared/json-schema/schema-compiler.js';
import { DEFAULT_SCHEMA_LIMITS } from '../../src/shared/json-schema/schema-limits.js';

/**
 * A hostile upstream's schema over a limit is refused before anything expensive is done with it:
 * on the event loop, during discovery. Timed here, alone, where other suites' load is not measured.
 */
describe('schema limits', () => {
  it('refuses a 40,000-property schema in well under 50 ms (best of three)', () => {
    const compiler = new SchemaCompiler(DEFAULT_SCHEMA_LIMITS);
    const huge = { type: 'object', properties: Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`p${i}`, { type: 'string', pattern: `^p${i}[a-z]+$` }])) };
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const compiled = compiler.compile(huge);
      runs.push(performance.now() - started);
      expect(compiled.usable).toBe(false);
    }
    expect(Math.min(...runs)).toBeLessThan(50);
  });
});
