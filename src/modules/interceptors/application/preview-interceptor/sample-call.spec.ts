import fc from 'fast-check';
import { ProblemList } from '../../../../shared/domain-error.js';
import { checkSampleCall } from './sample-call.js';

const check = (value: unknown, phase: 'pre' | 'post' | undefined = 'post') => {
  const problems = new ProblemList();
  const call = checkSampleCall(value, phase, problems);
  return { call, problems: problems.all };
};

describe('checkSampleCall', () => {
  it('reads a post sample: the tool, its arguments, the group and the result as the upstream answered it', () => {
    const { call, problems } = check({ tool: 'crm__get_contact', arguments: { id: 'c-1' }, group: 'support', result: { content: [{ type: 'text', text: 'hé' }], structuredContent: { id: 'c-1' }, isError: true } });
    expect(problems).toEqual([]);
    expect(call).toEqual({
      tool: 'crm__get_contact',
      group: 'support',
      arguments: { id: 'c-1' },
      result: { content: [{ type: 'text', text: 'hé' }], structuredContent: { id: 'c-1' }, truncated: false, originalBytes: 42 },
      isError: true,
    });
    expect(check({ tool: 'a__b', group: null }, 'pre')).toEqual({ call: { tool: 'a__b', group: null, arguments: {} }, problems: [] });
  });

  it('takes any JSON without throwing: a call whose every part has its shape, or problems all under call', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.record(
            {
              tool: fc.oneof(fc.constantFrom('a__b', 'crm__get_contact', '', 'a b'), fc.jsonValue()),
              arguments: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
              group: fc.oneof(fc.constantFrom('support', 'Bad', null), fc.jsonValue()),
              result: fc.oneof(fc.record({ content: fc.array(fc.oneof(fc.record({ type: fc.string() }), fc.jsonValue())), structuredContent: fc.jsonValue(), isError: fc.jsonValue() }, { requiredKeys: [] }), fc.jsonValue()),
              __proto__: fc.jsonValue(),
            },
            { requiredKeys: [] },
          ),
        ),
        fc.constantFrom('pre', 'post', undefined),
        (value, phase) => {
          const { call, problems } = check(value, phase as 'pre' | 'post' | undefined);
          if (call === undefined) {
            expect(problems.length).toBeGreaterThan(0);
            for (const problem of problems) expect(problem.path).toMatch(/^call(\.|\[|$)/);
            return;
          }
          expect(problems).toEqual([]);
          expect(call.tool).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
          expect(typeof call.arguments === 'object' && call.arguments !== null && !Array.isArray(call.arguments)).toBe(true);
          if (phase === 'post') expect(Array.isArray(call.result?.content)).toBe(true);
          for (const block of call.result?.content ?? []) expect(typeof (block as { type: unknown }).type).toBe('string');
        },
      ),
      { numRuns: 2000 },
    );
  });
});
