import { ProblemList } from '../../../shared/domain-error.js';
import { checkGroupSpec, GROUP_LIMITS } from './group-spec.js';

const check = (input: Record<string, unknown>, partial = false) => {
  const problems = new ProblemList();
  const spec = checkGroupSpec(input, problems, partial);
  return { spec, problems: problems.all.map((problem) => `${problem.path}: ${problem.message}`) };
};

describe('checkGroupSpec', () => {
  it('normalizes a good group: absent lists empty, duplicates in include and exclude once', () => {
    expect(check({ name: 'support-bot', include: ['ev__echo', 'ev__echo'], select: [{ sources: ['ev'], annotations: { readOnlyHint: true } }] })).toEqual({
      spec: { name: 'support-bot', description: '', select: [{ sources: ['ev'], annotations: { readOnlyHint: true } }], include: ['ev__echo'], exclude: [], overrides: {} },
      problems: [],
    });
  });

  it("names a group by a source's rule", () => {
    for (const name of ['Support', '-x', '', 'a'.repeat(64), 'a_b', 7]) expect(check({ name }).problems).toEqual([expect.stringMatching(/^name: must be a lowercase slug/)]);
    expect(check({ name: 'a'.repeat(63) }).problems).toEqual([]);
  });

  it('lists every problem, nested ones under their paths', () => {
    const { problems } = check({
      name: 'ok',
      extra: true,
      description: 5,
      select: [{ sources: [] }, { tools: ['bad pattern'], annotations: { readOnlyHint: 1, x: true } }, 'x', {}],
      include: [1],
      exclude: {},
      overrides: { 'not a name': {}, ev__a: { name: 'x', locked: { q: 1, n: null }, defaults: { q: 2 }, foo: 1 }, ev__b: { name: 'x', title: 'a\nb', annotations: 'x' } },
    });
    expect(problems.map((problem) => problem.split(':')[0])).toEqual([
      'extra',
      'description',
      'select[0].sources',
      'select[1].tools[0]',
      'select[1].annotations.readOnlyHint',
      'select[1].annotations.x',
      'select[2]',
      'select[3]',
      'include[0]',
      'exclude',
      'overrides.not a name',
      'overrides.ev__a.foo',
      'overrides.ev__a.locked.n',
      'overrides.ev__a.defaults.q',
      'overrides.ev__b.title',
      'overrides.ev__b.annotations',
      'overrides.ev__b.name',
    ]);
  });

  it('bounds how much a group holds', () => {
    const many = Array.from({ length: GROUP_LIMITS.selectors + 1 }, () => ({ sources: ['a'] }));
    expect(check({ name: 'a', select: many }).problems).toEqual([`select: must hold at most ${GROUP_LIMITS.selectors} selectors`]);
    const big = { ev__a: { locked: { blob: 'x'.repeat(GROUP_LIMITS.argumentBytes) } } };
    expect(check({ name: 'a', overrides: big }).problems).toEqual([expect.stringMatching(/^overrides.ev__a: defaults and locked values must take at most 16384 bytes/)]);
  });

  it('checks only the fields given in a change', () => {
    expect(check({ description: 'x' }, true)).toEqual({ spec: { description: 'x' }, problems: [] });
  });
});
