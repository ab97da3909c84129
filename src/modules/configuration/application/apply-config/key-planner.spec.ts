import { aKeyValue, anApiKey } from '../../../access/testing/builders.js';
import { configurationFixture } from '../../testing/configuration-fixture.js';
import type { DeclaredKey } from './key-planner.js';

const NOW = new Date('2026-01-01T12:00:00Z');
const key = (name: string, extra: Partial<DeclaredKey['spec']> = {}, reference?: unknown): DeclaredKey => ({
  spec: { name, role: 'agent', ...extra },
  ...(reference === undefined ? {} : { key: reference }),
  shapeProblems: [],
});

function setup() {
  const f = configurationFixture({
    keys: [anApiKey('ci', { id: 'key-ci' }), anApiKey('twin', { id: 'key-twin-1' }), anApiKey('twin', { id: 'key-twin-2' }), anApiKey('me', { id: 'key-me', role: 'admin' })],
    secrets: { CI_KEY: aKeyValue('ci'), NEW_KEY: aKeyValue('new'), ROTATED: aKeyValue('rotated'), NOT_A_KEY: 'hunter2' },
    env: { ENV_KEY: aKeyValue('from-env') },
  });
  const plan = (declared: DeclaredKey[] | undefined, prune = false) => f.keyPlanner.plan(declared, prune, NOW, 'key-me');
  return { ...f, plan };
}

describe('KeyPlanner', () => {
  it('leaves keys alone when the file has no keys:, even with prune', async () => {
    expect(await setup().plan(undefined, true)).toEqual({ changes: [], steps: [], problems: [] });
  });

  it('creates a key from the value a secret or a variable holds', async () => {
    const f = setup();
    const result = await f.plan([key('new', {}, '${secret:NEW_KEY}'), key('env-made', { role: 'operator' }, '${env:ENV_KEY}')]);
    expect(result.steps).toEqual([
      { action: 'create', spec: { name: 'new', role: 'agent' }, presetKey: aKeyValue('new') },
      { action: 'create', spec: { name: 'env-made', role: 'operator' }, presetKey: aKeyValue('from-env') },
    ]);
    expect(result.problems).toEqual([]);
  });

  it('keeps the key an existing entry has, changing only its settings, and replaces it when the reference holds another', async () => {
    const f = setup();
    const result = await f.plan([key('ci', {}, '${secret:CI_KEY}'), key('me', { role: 'admin', owner: 'ops team' }, '${stored}')]);
    expect(result.changes).toEqual([
      { kind: 'key', name: 'ci', action: 'unchanged', fields: [] },
      { kind: 'key', name: 'me', action: 'update', fields: ['owner'] },
    ]);
    const rotated = await f.plan([key('ci', { role: 'operator' }, '${secret:ROTATED}')]);
    expect(rotated.steps).toEqual([{ action: 'update', id: 'key-ci', spec: { name: 'ci', role: 'operator' }, presetKey: aKeyValue('rotated') }]);
    expect(rotated.changes[0]?.fields).toEqual(['role', 'key']);
  });

  it('lists every problem of the declared keys under their entries, naming references and never values', async () => {
    const f = setup();
    const result = await f.plan([
      key('typed', {}, aKeyValue('typed-in')),
      key('not-a-key', {}, '${secret:NOT_A_KEY}'),
      key('missing', {}, '${secret:NOPE}'),
      key('copy', {}, '${secret:CI_KEY}'),
      key('twin', {}, '${stored}'),
      key('absent'),
      key('', { role: 'wizard' }, '${secret:NEW_KEY}'),
    ]);
    expect(result.problems).toEqual([
      { path: 'keys[0].key', message: 'must be one ${secret:NAME} or ${env:NAME} reference: a key written in the file would be in every copy of it' },
      { path: 'keys[1].key', message: expect.stringMatching(/^\$\{secret:NOT_A_KEY\} does not hold a Toolplane key/) },
      { path: 'keys[2].key', message: 'refers to missing secret "NOPE"' },
      { path: 'keys[3].key', message: expect.stringContaining('holds the key of API key "ci"') },
      { path: 'keys[4].name', message: expect.stringContaining('2 active keys are named "twin"') },
      { path: 'keys[5].key', message: expect.stringContaining('is required to create the key') },
      { path: 'keys[6].name', message: expect.any(String) },
      { path: 'keys[6].role', message: expect.any(String) },
    ]);
    const said = JSON.stringify(result);
    for (const value of ['hunter2', aKeyValue('typed-in'), aKeyValue('ci')]) expect(said).not.toContain(value);
    expect(result.steps).toEqual([]);
  });

  it('revokes with prune the keys the file leaves out, but never the key applying it', async () => {
    const f = setup();
    const pruned = await f.plan([key('me', { role: 'admin' }), key('twin-free', {}, '${secret:NEW_KEY}')], true);
    expect(pruned.steps.filter((step) => step.action === 'delete')).toEqual([
      { action: 'delete', id: 'key-ci' },
      { action: 'delete', id: 'key-twin-1' },
      { action: 'delete', id: 'key-twin-2' },
    ]);
    const self = await f.plan([key('ci', {}, '${stored}')], true);
    expect(self.problems).toEqual([{ path: 'keys', message: expect.stringContaining('prune would revoke "me"') }]);
  });

  it('makes nothing of a key declared as expired by now', async () => {
    const f = setup();
    const result = await f.plan([key('gone', { expiresAt: '2025-12-31T00:00:00Z' })]);
    expect(result).toEqual({ changes: [{ kind: 'key', name: 'gone', action: 'unchanged', fields: [] }], steps: [], problems: [] });
  });
});
