import { anInterceptor } from '../../../interceptors/testing/builders.js';
import { configurationFixture } from '../../testing/configuration-fixture.js';
import type { DeclaredInterceptor } from './interceptor-planner.js';

const declared = (spec: Record<string, unknown>): DeclaredInterceptor => ({ spec, shapeProblems: [] });
const NO_ETC_RULES = [{ argument: 'path', pathUnder: '/etc', message: 'No.' }];

function setup() {
  const f = configurationFixture({
    interceptors: [
      anInterceptor('no-etc', { scope: { tools: ['fs__*'] }, settings: { rules: NO_ETC_RULES } }),
      anInterceptor('trim', { kind: 'cap', phase: 'post', description: 'Small', settings: { maxBytes: 1000, maxBlocks: 5 } }),
    ],
    secrets: { HOOK_KEY: 'k' },
  });
  return { ...f, plan: (list: DeclaredInterceptor[] | undefined, prune = false) => f.interceptorPlanner.plan(list, prune) };
}

describe('InterceptorPlanner', () => {
  it('leaves interceptors alone when the file has no interceptors:, even with prune', async () => {
    expect(await setup().plan(undefined, true)).toEqual({ changes: [], steps: [], problems: [] });
  });

  it('creates a new interceptor, leaves one declared as stored, and updates only the fields that differ, a setting left out removed', async () => {
    const result = await setup().plan([
      declared({ name: 'no-etc', kind: 'deny', scope: { tools: ['fs__*'] }, rules: NO_ETC_RULES, timeoutMs: 1000 }),
      // description left out: back to ''; maxBlocks left out: removed.
      declared({ name: 'trim', kind: 'cap', maxBytes: 2000 }),
      declared({ name: 'hook', kind: 'webhook', phase: 'pre', url: 'https://hook.example.com', signingSecret: 'HOOK_KEY' }),
    ]);
    expect(result.problems).toEqual([]);
    expect(result.changes).toEqual([
      { kind: 'interceptor', name: 'no-etc', action: 'unchanged', fields: [] },
      { kind: 'interceptor', name: 'trim', action: 'update', fields: ['description', 'maxBytes', 'maxBlocks'] },
      { kind: 'interceptor', name: 'hook', action: 'create', fields: [] },
    ]);
    expect(result.steps).toEqual([
      { action: 'update', name: 'trim', spec: { description: '', maxBytes: 2000, maxBlocks: null } },
      { action: 'create', spec: { name: 'hook', kind: 'webhook', phase: 'pre', url: 'https://hook.example.com', signingSecret: 'HOOK_KEY' } },
    ]);
  });

  it('names the settings of both kinds when the kind changes', async () => {
    const result = await setup().plan([declared({ name: 'trim', kind: 'redact', detect: ['email'], description: 'Small' })]);
    expect(result.changes).toEqual([{ kind: 'interceptor', name: 'trim', action: 'update', fields: ['kind', 'detect', 'maxBytes', 'maxBlocks'] }]);
    expect(result.steps).toEqual([{ action: 'update', name: 'trim', spec: { kind: 'redact', detect: ['email'], maxBytes: null, maxBlocks: null } }]);
  });

  it('removes with prune the interceptors the file leaves out', async () => {
    const result = await setup().plan([declared({ name: 'no-etc', kind: 'deny', scope: { tools: ['fs__*'] }, rules: NO_ETC_RULES })], true);
    expect(result.changes.map(({ name, action }) => `${action} ${name}`)).toEqual(['unchanged no-etc', 'delete trim']);
    expect(await setup().plan([], true)).toMatchObject({ steps: [{ action: 'delete', name: 'no-etc' }, { action: 'delete', name: 'trim' }] });
  });

  it('lists every problem of every entry under its path, by the interceptors module’s own check, and plans nothing for them', async () => {
    const result = await setup().plan([
      declared({ name: 'Bad Name', kind: 'deny', colour: 'red', rules: [{ message: 'x' }] }),
      { spec: {}, shapeProblems: [{ path: 'body', message: 'must be a mapping' }] },
      declared({ name: 'hook', kind: 'webhook', phase: 'pre', url: 'https://hook.example.com', signingSecret: 'MISSING' }),
      declared({ name: 'trim', kind: 'cap' }),
    ]);
    expect(result.problems.map((p) => p.path)).toEqual(['interceptors[0].colour', 'interceptors[0].name', 'interceptors[1]', 'interceptors[2].signingSecret', 'interceptors[3]']);
    expect(result.steps).toEqual([]);
  });
});
