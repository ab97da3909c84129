import fc from 'fast-check';
import { catalogTool } from '../../../../test/helpers/catalog-tools.js';
import type { CatalogTool } from '../../inventory/domain/tool-definition.js';
import { qualifiedNameFor } from '../../inventory/domain/qualified-name.js';
import { HINT_NAMES, type GroupSelector, type GroupSpec } from './group.js';
import { isSelected } from './group-selection.js';
import { isServableName, servedTools } from './served-tools.js';

/** docs/groups.md's rule, written again independently: `*` as a regular expression, hints by their MCP defaults. */
function documentedRule(group: Pick<GroupSpec, 'select' | 'include' | 'exclude'>, tool: CatalogTool): boolean {
  const glob = (pattern: string) => new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('.*')}$`);
  const defaults: Record<string, boolean> = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
  const hint = (name: string) => (typeof tool.annotations?.[name] === 'boolean' ? (tool.annotations[name] as boolean) : defaults[name]);
  const matches = (selector: GroupSelector) =>
    (selector.sources !== undefined || selector.tools !== undefined || selector.annotations !== undefined) &&
    (selector.sources === undefined || selector.sources.some((pattern) => glob(pattern).test(tool.source.name))) &&
    (selector.tools === undefined || selector.tools.some((pattern) => glob(pattern).test(tool.qualifiedName))) &&
    Object.entries(selector.annotations ?? {}).every(([name, wanted]) => hint(name) === wanted);
  if (group.exclude.includes(tool.qualifiedName)) return false;
  return group.include.includes(tool.qualifiedName) || group.select.some(matches);
}

const SOURCES = ['a', 'ab', 'b-c'];
const TOOLS = ['x', 'get_x', 'get-y', 'a__b', 'y.z'];
const hintValue = fc.oneof(fc.boolean(), fc.constant(undefined), fc.constant('yes'));
const toolArb = fc
  .record({
    source: fc.constantFrom(...SOURCES),
    name: fc.constantFrom(...TOOLS),
    hints: fc.record(Object.fromEntries(HINT_NAMES.map((hint) => [hint, hintValue]))),
    seen: fc.integer({ min: 0, max: 5 }),
  })
  .map(({ source, name, hints, seen }) => {
    const annotations = Object.fromEntries(Object.entries(hints).filter(([, value]) => value !== undefined));
    return catalogTool(qualifiedNameFor(source, name), { name, annotations, firstSeenAt: `2026-01-0${seen + 1}T00:00:00.000Z` });
  });
const tools = fc.uniqueArray(toolArb, { selector: (tool) => tool.qualifiedName, maxLength: 12 });
const pattern = fc.stringMatching(/^[ab_*xgety.-]{1,6}$/);
const names = fc.uniqueArray(fc.oneof(fc.constantFrom(...SOURCES.flatMap((s) => TOOLS.map((t) => qualifiedNameFor(s, t)))), fc.constant('zz__nothing')), { maxLength: 4 });
const selector: fc.Arbitrary<GroupSelector> = fc
  .record({ sources: fc.array(pattern, { minLength: 1, maxLength: 3 }), tools: fc.array(pattern, { minLength: 1, maxLength: 3 }), annotations: fc.record(Object.fromEntries(HINT_NAMES.map((hint) => [hint, fc.boolean()])), { requiredKeys: [] }) }, { requiredKeys: [] })
  .filter((s) => Object.keys(s).length > 0);
const group = fc.record({ select: fc.array(selector, { maxLength: 3 }), include: names, exclude: names, overrides: fc.constant({}) });

describe('the selection rule (property)', () => {
  it('puts a tool in a group iff the documented rule says so: (⋃ selectors ∪ include) − exclude', () => {
    fc.assert(
      fc.property(group, tools, (g, ts) => {
        const served = new Set(servedTools(g, ts).map((tool) => tool.qualifiedName));
        for (const tool of ts) {
          const expected = documentedRule(g, tool);
          expect(isSelected(g, tool)).toBe(expected);
          expect(served.has(tool.qualifiedName)).toBe(expected);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('serves each tool under one name, unique in the group, valid for every LLM API', () => {
    fc.assert(
      fc.property(group, tools, (g, ts) => {
        const served = servedTools(g, ts).map((tool) => tool.servedName);
        expect(new Set(served).size).toBe(served.length);
        for (const name of served) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      }),
      { numRuns: 300 },
    );
  });

  it('serves only the usable tools it selects, and names them as if all it selects were served', () => {
    fc.assert(
      fc.property(group, tools, fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), (g, ts, flags) => {
        const usable = new Set(ts.filter((_, i) => flags[i]));
        const all = new Map(servedTools(g, ts).map((tool) => [tool.qualifiedName, tool.servedName]));
        const served = servedTools(g, ts, (tool) => usable.has(tool));
        expect(served.map((tool) => tool.qualifiedName)).toEqual(ts.filter((tool) => usable.has(tool) && documentedRule(g, tool)).map((tool) => tool.qualifiedName));
        for (const tool of served) expect(tool.servedName).toBe(all.get(tool.qualifiedName));
      }),
      { numRuns: 300 },
    );
  });

  it('never renames a tool it serves when a tool discovered later joins', () => {
    fc.assert(
      fc.property(group, tools, toolArb, (g, ts, joining) => {
        fc.pre(!ts.some((tool) => tool.qualifiedName === joining.qualifiedName));
        const later = { ...joining, firstSeenAt: '2026-02-01T00:00:00.000Z' };
        const before = new Map(servedTools(g, ts).map((tool) => [tool.qualifiedName, tool.servedName]));
        const after = new Map(servedTools(g, [...ts, later]).map((tool) => [tool.qualifiedName, tool.servedName]));
        for (const [qualifiedName, name] of before) expect(after.get(qualifiedName)).toBe(name);
      }),
      { numRuns: 300 },
    );
  });
});

describe('servedTools', () => {
  const everything = [catalogTool('ev__echo', { firstSeenAt: '2026-01-02T00:00:00.000Z' }), catalogTool('ev__get-sum'), catalogTool('mirror__echo', { firstSeenAt: '2026-01-03T00:00:00.000Z' })];
  const spec = (extra: Partial<GroupSpec> = {}) => ({ select: [], include: ['ev__echo', 'ev__get-sum', 'mirror__echo'], exclude: [], overrides: {}, ...extra });

  it('serves the upstream name, and the qualified name to the tool discovered later whose name is taken', () => {
    expect(servedTools(spec(), everything).map((tool) => [tool.qualifiedName, tool.servedName])).toEqual([
      ['ev__echo', 'echo'],
      ['ev__get-sum', 'get-sum'],
      ['mirror__echo', 'mirror__echo'],
    ]);
  });

  it("lets an override's name win over an upstream name, the other tool taking its qualified name", () => {
    const served = servedTools(spec({ overrides: { 'mirror__echo': { name: 'echo' } } }), everything);
    expect(served.map((tool) => tool.servedName)).toEqual(['ev__echo', 'get-sum', 'echo']);
  });

  it('serves a name holding `__` or not valid for LLM APIs under the qualified name', () => {
    const odd = [catalogTool('ev__a__b', { name: 'a__b' }), catalogTool('ev__x_3f2a1b', { name: 'x y' })];
    expect(servedTools({ ...spec(), include: ['ev__a__b', 'ev__x_3f2a1b'] }, odd).map((tool) => tool.servedName)).toEqual(['ev__a__b', 'ev__x_3f2a1b']);
    expect([isServableName('say'), isServableName('a__b'), isServableName('x y'), isServableName('')]).toEqual([true, false, false, false]);
  });

  it('takes locked arguments out of the schema and shows defaults, keeping the rest of the definition', () => {
    const echo = catalogTool('ev__echo', {
      inputSchema: { type: 'object', properties: { message: { type: 'string' }, times: { type: 'integer' }, tone: { type: 'string' } }, required: ['message', 'times'] },
      annotations: { readOnlyHint: true },
    });
    const [served] = servedTools(
      { select: [], include: ['ev__echo'], exclude: [], overrides: { ev__echo: { name: 'say', title: 'Say', description: 'Says it', annotations: { openWorldHint: false }, locked: { message: 'hi' }, defaults: { times: 2 } } } },
      [echo],
    );
    const schema = { type: 'object', properties: { times: { type: 'integer', default: 2 }, tone: { type: 'string' } }, required: [] };
    expect(served).toMatchObject({ servedName: 'say', title: 'Say', description: 'Says it', inputSchema: schema, locked: { message: 'hi' }, defaults: { times: 2 }, annotations: { readOnlyHint: true, openWorldHint: false } });
    expect(served!.definition).toEqual({ name: 'say', title: 'Say', description: 'Says it', inputSchema: schema, annotations: { readOnlyHint: true, openWorldHint: false } });
    // The catalog's own tool is untouched.
    expect(echo.inputSchema).toMatchObject({ required: ['message', 'times'] });
  });
});
