import { anInterceptedCall, anInterceptor } from '../../testing/engine-fixtures.js';
import { DefaultsEngine } from './defaults-engine.js';

describe('DefaultsEngine', () => {
  const engine = new DefaultsEngine();
  const defaults = anInterceptor('defaults', { arguments: { limit: 10, options: { deep: true } } });
  const run = (args: Record<string, unknown>) => engine.run(defaults, 'pre', anInterceptedCall({ arguments: args }));

  it('fills the arguments the call leaves out and names them', () => {
    expect(run({ query: 'x' })).toEqual({
      decision: 'modify',
      arguments: { query: 'x', limit: 10, options: { deep: true } },
      changes: { paths: ['arguments.limit', 'arguments.options'] },
    });
  });

  it("keeps a value the caller gives, whatever it is, and fills one sent as null (a strict-mode client's way of leaving it out)", () => {
    expect(run({ limit: 99, options: null })).toEqual({ decision: 'modify', arguments: { limit: 99, options: { deep: true } }, changes: { paths: ['arguments.options'] } });
  });

  it('allows the call unchanged when the caller gave every argument', () => {
    expect(run({ limit: 1, options: {} })).toEqual({ decision: 'allow' });
  });

  it('leaves the caller’s arguments object alone and keeps a `__proto__` argument an own property', () => {
    const args = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const verdict = run(args);
    expect(args).not.toHaveProperty('limit');
    if (verdict.decision !== 'modify') throw new Error('expected modify');
    expect(Object.hasOwn(verdict.arguments!, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
