import fc from 'fast-check';
import { decideTool, likePattern, matches } from './tool-scope.js';

/** The reference: a regular expression with `*` as `.*`, everything else literal. */
const reference = (pattern: string, value: string) =>
  new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('.*')}$`, 's').test(value);

describe('tool scope', () => {
  it('matches `*` patterns as a regular expression would', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '_', '.', '-'), maxLength: 8 });
    const pattern = fc.string({ unit: fc.constantFrom('a', 'b', '_', '*', '.'), maxLength: 6 });
    fc.assert(fc.property(pattern, text, (p, v) => matches(p, v) === reference(p, v)), { numRuns: 3000 });
  });

  it('narrows by sources, then by tools, and names the rule that decided', () => {
    const tool = { qualifiedName: 'github__create_issue', sourceName: 'github' };
    expect(decideTool(undefined, tool)).toEqual({ allowed: true, rule: 'role: no tool restriction' });
    expect(decideTool({ sources: ['git*'] }, tool)).toEqual({ allowed: true, rule: 'allowedSources: "github" matches "git*"' });
    expect(decideTool({ sources: ['jira'] }, tool).allowed).toBe(false);
    expect(decideTool({ tools: ['github__get_*'] }, tool)).toEqual({ allowed: false, rule: 'allowedTools: "github__create_issue" matches none of ["github__get_*"]' });
    expect(decideTool({ sources: ['github'], tools: ['*__create_*'] }, tool).allowed).toBe(true);
    expect(decideTool({ sources: ['jira'], tools: ['*'] }, tool).allowed).toBe(false);
    expect(decideTool({ sources: [] }, tool).allowed).toBe(false);
  });

  it('turns patterns into LIKE patterns in which only `*` is a wildcard', () => {
    expect(likePattern('git*_x%\\')).toBe('git%\\_x\\%\\\\');
  });
});
