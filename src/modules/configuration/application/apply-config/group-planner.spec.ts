import { aGroup } from '../../../groups/testing/builders.js';
import { configurationFixture } from '../../testing/configuration-fixture.js';
import type { DeclaredGroup } from './group-planner.js';

const group = (spec: Record<string, unknown>): DeclaredGroup => ({ spec, shapeProblems: [] });

function setup() {
  const f = configurationFixture({
    groups: [
      aGroup('support', { description: 'Support', include: ['ev__echo'], overrides: { ev__echo: { name: 'say', locked: { message: 'hi' } } } }),
      aGroup('readers', { select: [{ annotations: { readOnlyHint: true } }], exclude: ['ev__secret'] }),
    ],
  });
  return { ...f, plan: (declared: DeclaredGroup[] | undefined, prune = false) => f.groupPlanner.plan(declared, prune) };
}

describe('GroupPlanner', () => {
  it('leaves groups alone when the file has no groups:, even with prune', async () => {
    expect(await setup().plan(undefined, true)).toEqual({ changes: [], steps: [], problems: [] });
  });

  it('creates a new group, leaves one declared as stored, and updates only the fields that differ', async () => {
    const f = setup();
    const result = await f.plan([
      group({ name: 'support', description: 'Support', include: ['ev__echo'], overrides: { ev__echo: { locked: { message: 'hi' }, name: 'say' } } }),
      // `exclude` left out: back to its default, no exclusions.
      group({ name: 'readers', description: 'Read-only tools', select: [{ annotations: { readOnlyHint: true } }] }),
      group({ name: 'triage', include: ['jira__get_issue'] }),
    ]);
    expect(result.problems).toEqual([]);
    expect(result.changes).toEqual([
      { kind: 'group', name: 'support', action: 'unchanged', fields: [] },
      { kind: 'group', name: 'readers', action: 'update', fields: ['description', 'exclude'] },
      { kind: 'group', name: 'triage', action: 'create', fields: [] },
    ]);
    expect(result.steps).toEqual([
      { action: 'update', name: 'readers', spec: { description: 'Read-only tools', exclude: [] } },
      { action: 'create', spec: { name: 'triage', include: ['jira__get_issue'] } },
    ]);
  });

  it('removes with prune the groups the file leaves out', async () => {
    const result = await setup().plan([group({ name: 'support', description: 'Support' })], true);
    expect(result.changes.map(({ name, action }) => `${action} ${name}`)).toEqual(['update support', 'delete readers']);
    expect(result.steps.at(-1)).toEqual({ action: 'delete', name: 'readers' });
    expect(await setup().plan([], true)).toMatchObject({ steps: [{ action: 'delete', name: 'readers' }, { action: 'delete', name: 'support' }] });
  });

  it('lists every problem of every entry under its path, by the groups module’s own rule, and plans nothing for them', async () => {
    const result = await setup().plan([
      group({ name: 'Bad Name', colour: 'red' }),
      { spec: {}, shapeProblems: [{ path: 'body', message: 'must be a mapping' }] },
      group({ name: 'ok', include: ['not a qualified name'], select: 'all' }),
    ]);
    expect(result.problems.map((p) => p.path)).toEqual(['groups[0].colour', 'groups[0].name', 'groups[1]', expect.stringMatching(/^groups\[2\]\.select/), expect.stringMatching(/^groups\[2\]\.include/)]);
    expect(result.steps).toEqual([]);
  });
});
