import fc from 'fast-check';
import { decideSource, decideTool, likePattern, matches } from './tool-scope.js';

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

  it('lets a principal bound to groups use tools only through them, narrowed by its other lists', () => {
    const tool = { qualifiedName: 'github__create_issue', sourceName: 'github' };
    const support = { groups: ['support', 'triage-*'] };
    expect(decideTool(support, tool)).toEqual({ allowed: false, rule: 'allowedGroups: only through the groups ["support","triage-*"], not outside a group' });
    expect(decideTool(support, { ...tool, group: 'support' })).toEqual({ allowed: true, rule: 'allowedGroups: group "support" matches "support"' });
    expect(decideTool(support, { ...tool, group: 'triage-eu' })).toEqual({ allowed: true, rule: 'allowedGroups: group "triage-eu" matches "triage-*"' });
    expect(decideTool(support, { ...tool, group: 'billing' })).toEqual({ allowed: false, rule: 'allowedGroups: group "billing" matches none of ["support","triage-*"]' });
    expect(decideTool({ ...support, sources: ['jira'] }, { ...tool, group: 'support' })).toEqual({ allowed: false, rule: 'allowedSources: "github" matches none of ["jira"]' });
    expect(decideTool({ ...support, tools: ['github__*'] }, { ...tool, group: 'support' })).toEqual({ allowed: true, rule: 'allowedTools: "github__create_issue" matches "github__*"' });
    // A group does not widen what an unbound principal may do, nor does it narrow it.
    expect(decideTool({ sources: ['github'] }, { ...tool, group: 'anything' })).toEqual({ allowed: true, rule: 'allowedSources: "github" matches "github"' });
    expect(decideTool(undefined, { ...tool, group: 'anything' }).allowed).toBe(true);
    // A source's own endpoint is outside every group.
    expect(decideSource(support, { name: 'github', toolNames: ['github__create_issue'] })).toEqual({ allowed: false, rule: 'allowedGroups: only through the groups ["support","triage-*"], not outside a group' });
  });

  it('lets a source be used when one of its tools may be, by the same rules', () => {
    const github = { name: 'github', toolNames: ['github__create_issue', 'github__get_issue'] };
    expect(decideSource(undefined, github)).toEqual({ allowed: true, rule: 'role: no tool restriction' });
    expect(decideSource({ sources: ['git*'] }, github)).toEqual({ allowed: true, rule: 'allowedSources: "github" matches "git*"' });
    expect(decideSource({ sources: ['jira'] }, github)).toEqual({ allowed: false, rule: 'allowedSources: "github" matches none of ["jira"]' });
    expect(decideSource({ tools: ['github__get_*'] }, github)).toEqual({ allowed: true, rule: 'allowedTools: "github__get_issue" matches "github__get_*"' });
    expect(decideSource({ tools: ['jira__*'] }, github)).toEqual({ allowed: false, rule: 'allowedTools: no tool of "github" matches any of ["jira__*"]' });
    expect(decideSource({ sources: ['jira'], tools: ['*'] }, github).allowed).toBe(false);
    expect(decideSource({ sources: ['github'], tools: ['*__get_*'] }, github).allowed).toBe(true);
    // A source of only prompts and resources: named by allowedSources, or out of reach of allowedTools.
    expect(decideSource({ sources: ['docs'] }, { name: 'docs', toolNames: [] }).allowed).toBe(true);
    expect(decideSource({ tools: ['docs__*'] }, { name: 'docs', toolNames: [] }).allowed).toBe(false);
  });

  it('agrees with decideTool: a source may be used exactly when one of its tools may', () => {
    const name = fc.constantFrom('a', 'b', 'ab');
    const scope = fc.record({ sources: fc.option(fc.array(fc.constantFrom('a', 'b', '*', 'a*'), { maxLength: 2 }), { nil: undefined }), tools: fc.option(fc.array(fc.constantFrom('a__x', 'b__*', '*__y', '*'), { maxLength: 2 }), { nil: undefined }) });
    const tools = fc.uniqueArray(fc.constantFrom('x', 'y', 'z'), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(scope, name, tools, (s, source, names) => {
        const toolNames = names.map((tool) => `${source}__${tool}`);
        const anyTool = toolNames.some((qualifiedName) => decideTool(s, { qualifiedName, sourceName: source }).allowed);
        return decideSource(s, { name: source, toolNames }).allowed === anyTool;
      }),
      { numRuns: 2000 },
    );
  });

  it('turns patterns into LIKE patterns in which only `*` is a wildcard', () => {
    expect(likePattern('git*_x%\\')).toBe('git%\\_x\\%\\\\');
  });
});
