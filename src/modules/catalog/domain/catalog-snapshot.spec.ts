import { catalogTool as view, sourcesOf, sourceSettings } from '../../../../test/helpers/catalog-tools.js';
import { DEFAULT_FILTER } from './catalog.js';
import { CatalogSnapshot } from './catalog-snapshot.js';
import { parseSearch } from './tool-search.js';

const snapshotOf = (tools: ReturnType<typeof view>[], extraSources: ReturnType<typeof sourceSettings>[] = []) => new CatalogSnapshot(tools, [...sourcesOf(tools), ...extraSources]);

describe('CatalogSnapshot', () => {
  it('offers only what a caller may use, under qualified or original names', () => {
    const snapshot = snapshotOf(
      [
        view('b__zeta'),
        view('b__alpha', { title: 'Alpha', outputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }),
        view('b__off', { enabled: false }),
        view('b__gone', { status: 'deprecated' }),
        view('ro__reads', { annotations: { readOnlyHint: true } }, { readOnly: true }),
        view('ro__writes', {}, { readOnly: true }),
        view('dis__x', {}, { enabled: false }),
      ],
      [sourceSettings('empty')],
    );
    expect(snapshot.qualifiedTools().map((t) => t.name)).toEqual(['b__alpha', 'b__zeta', 'ro__reads']);
    expect(snapshot.qualifiedTools()[0]).toEqual({ name: 'b__alpha', title: 'Alpha', inputSchema: { type: 'object' }, outputSchema: { type: 'object' }, annotations: { readOnlyHint: true } });
    expect(snapshot.sourceTools('b').map((t) => t.name)).toEqual(['alpha', 'zeta']);
    expect(snapshot.sources.get('b')!.byName.get('off')!.qualifiedName).toBe('b__off');
    // byName holds the active tools only; a deprecated one is still routed (and refused by ExecuteTool).
    expect(snapshot.sources.get('b')!.byName.has('gone')).toBe(false);
    expect(snapshot.sources.has('empty')).toBe(true);
    expect(snapshot.sourceTools('dis')).toEqual([]);
  });

  it('routes every live tool, usable or not, with its source settings; an unknown name to nothing', () => {
    const snapshot = snapshotOf([view('b__off', { enabled: false }), view('b__gone', { status: 'deprecated' }), view('dis__x', {}, { enabled: false }), view('ro__writes', {}, { readOnly: true })]);
    for (const name of ['b__off', 'b__gone', 'dis__x', 'ro__writes']) expect(snapshot.route(name)?.tool.qualifiedName).toBe(name);
    expect(snapshot.route('dis__x')!.source).toMatchObject({ id: 'dis', enabled: false, timeoutMs: 60_000, maxConcurrency: 16, rateLimitPerMinute: null, circuitBreaker: { failureThreshold: 5, resetTimeoutMs: 30_000 } });
    expect(snapshot.route('nothing__here')).toBeUndefined();
    expect(snapshot.usable).toEqual([]);
  });

  it('leaves out a tool read without its source (removed between the two reads)', () => {
    const snapshot = new CatalogSnapshot([view('a__x'), view('b__y')], [sourceSettings('a')]);
    expect(snapshot.tools.map((t) => t.qualifiedName)).toEqual(['a__x']);
    expect(snapshot.route('b__y')).toBeUndefined();
  });

  it('tells whether a scope lets its principal use a source, over every active tool of it', () => {
    const snapshot = snapshotOf([view('ev__echo'), view('ev__off', { enabled: false }), view('mem__read')], [sourceSettings('empty-id', { name: 'empty' })]);
    expect(snapshot.sourceFor('nothing', { sources: ['*'] })).toBeUndefined();
    expect(snapshot.sourceFor('ev')!.decision.allowed).toBe(true);
    expect(snapshot.sourceFor('ev', { sources: ['mem'] })!.decision).toEqual({ allowed: false, rule: 'allowedSources: "ev" matches none of ["mem"]' });
    // A disabled tool still makes its source one the principal may use: enabling is not access.
    expect(snapshot.sourceFor('ev', { tools: ['ev__off'] })!.decision).toEqual({ allowed: true, rule: 'allowedTools: "ev__off" matches "ev__off"' });
    expect(snapshot.sourceFor('ev', { tools: ['mem__*'] })!.decision.allowed).toBe(false);
    // Asked again on the same reading: the same answer.
    expect(snapshot.sourceFor('ev', { tools: ['mem__*'] })!.decision.allowed).toBe(false);
    expect(snapshot.sourceFor('empty', { sources: ['empty'] })).toMatchObject({ source: { id: 'empty-id', name: 'empty' }, decision: { allowed: true } });
  });

  it("lists a source's tools in the upstream's order, those without a place last, and tells a new order", () => {
    const tools = [view('s__c', { listPosition: 0 }), view('s__a', { listPosition: 2 }), view('s__b', { listPosition: 1 }), view('s__old', { listPosition: null }), view('s__older', { listPosition: null })];
    const snapshot = snapshotOf(tools);
    expect(snapshot.sourceTools('s').map((t) => t.name)).toEqual(['c', 'b', 'a', 'old', 'older']);
    expect(snapshot.sourceTools('s', { tools: ['s__a', 's__c'] }).map((t) => t.name)).toEqual(['c', 'a']);
    expect(snapshot.qualifiedTools().map((t) => t.name)).toEqual(['s__a', 's__b', 's__c', 's__old', 's__older']);
    const reordered = snapshotOf([view('s__c', { listPosition: 1 }), view('s__a', { listPosition: 2 }), view('s__b', { listPosition: 0 }), tools[3]!, tools[4]!]);
    expect(reordered.fingerprint).not.toBe(snapshot.fingerprint);
  });

  it('lists and searches what a filter admits, in name order from a cursor, and versions each listing by its content', () => {
    const tools = [view('a__one'), view('a__two', { enabled: false }), view('b__three', { annotations: { readOnlyHint: true } }, { readOnly: true }), view('b__four', {}, { readOnly: true })];
    const snapshot = snapshotOf(tools);
    const names = (list: readonly { qualifiedName: string }[]) => list.map((t) => t.qualifiedName);
    expect(names(snapshot.list(DEFAULT_FILTER, undefined, 10))).toEqual(['a__one', 'b__three']);
    expect(names(snapshot.list(DEFAULT_FILTER, 'a__one', 10))).toEqual(['b__three']);
    expect(names(snapshot.list({ ...DEFAULT_FILTER, enabled: 'all', includeDisabledSources: true }, undefined, 3))).toEqual(['a__one', 'a__two', 'b__four']);
    expect(names(snapshot.list({ ...DEFAULT_FILTER, enabled: false }, undefined, 10))).toEqual(['a__two']);
    expect(names(snapshot.list({ ...DEFAULT_FILTER, source: 'b', includeDisabledSources: true }, undefined, 10))).toEqual(['b__four', 'b__three']);
    expect(names(snapshot.search(parseSearch('three four')!, DEFAULT_FILTER).map((hit) => hit.tool))).toEqual(['b__three']);

    const version = snapshot.version(DEFAULT_FILTER, 'agent');
    expect(version).toMatch(/^2\./);
    // Another reading of the same content: the same version; a change of a tool listed: another.
    expect(snapshotOf(tools.map((t) => ({ ...t }))).version(DEFAULT_FILTER, 'agent')).toBe(version);
    expect(snapshotOf([{ ...tools[0]!, declaredHash: 'moved' }, ...tools.slice(1)]).version(DEFAULT_FILTER, 'agent')).not.toBe(version);
    // A change of a tool the listing leaves out does not touch it.
    expect(snapshotOf([...tools.slice(0, 3), { ...tools[3]!, declaredHash: 'moved' }]).version(DEFAULT_FILTER, 'agent')).toBe(version);
    expect(snapshot.version(DEFAULT_FILTER, 'admin')).not.toBe(version);
    // A tool held by pinning leaves the agent's view, and moves the admin view's version when decided.
    const held = snapshotOf([{ ...tools[0]!, reviewState: 'pending_review' }, ...tools.slice(1)]);
    expect(names(held.list(DEFAULT_FILTER, undefined, 10))).toEqual(['b__three']);
    const everything = { ...DEFAULT_FILTER, enabled: 'all' as const, status: 'all' as const, includeDisabledSources: true };
    const rejected = snapshotOf([{ ...tools[0]!, reviewState: 'rejected' }, ...tools.slice(1)]);
    expect(rejected.version(everything, 'admin')).not.toBe(held.version(everything, 'admin'));
  });
});
