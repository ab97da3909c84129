import { anInterceptedCall, anInterceptor } from '../../testing/engine-fixtures.js';
import { LockEngine } from './lock-engine.js';

describe('LockEngine', () => {
  const engine = new LockEngine();
  const lock = anInterceptor('lock', { arguments: { repo: 'acme/site', options: { dryRun: true, depth: 2 } } }, 'pin-repo');
  const run = (args: Record<string, unknown>) => engine.run(lock, 'pre', anInterceptedCall({ arguments: args }));

  it('sets the locked values on a call that leaves them out (or sends null)', () => {
    expect(run({ query: 'x', repo: null })).toEqual({
      decision: 'modify',
      arguments: { query: 'x', repo: 'acme/site', options: { dryRun: true, depth: 2 } },
      changes: { paths: ['arguments.repo', 'arguments.options'] },
    });
  });

  it('allows a call that gives the locked values themselves (deep equality, key order aside)', () => {
    expect(run({ repo: 'acme/site', options: { depth: 2, dryRun: true } })).toEqual({ decision: 'allow' });
  });

  it('refuses a call that gives another value with ARGUMENT_LOCKED, naming the interceptor and every argument', () => {
    const verdict = run({ repo: 'evil/site', options: { dryRun: false, depth: 2 } });
    expect(verdict).toEqual({
      decision: 'deny',
      code: 'ARGUMENT_LOCKED',
      message: expect.stringContaining('"pin-repo"'),
      details: [
        { path: 'arguments.repo', message: 'is locked to another value' },
        { path: 'arguments.options', message: 'is locked to another value' },
      ],
    });
    // The locked values are not told.
    expect(JSON.stringify(verdict)).not.toContain('acme/site');
  });

  it('tells a number from its text', () => {
    const numeric = anInterceptor('lock', { arguments: { depth: 2 } });
    expect(engine.run(numeric, 'pre', anInterceptedCall({ arguments: { depth: '2' } })).decision).toBe('deny');
    expect(engine.run(numeric, 'pre', anInterceptedCall({ arguments: { depth: 2 } })).decision).toBe('allow');
  });
});
