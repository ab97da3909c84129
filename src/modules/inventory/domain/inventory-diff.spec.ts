import { namesNewToolsMayTake, reconcileInventory } from './inventory-diff.js';
import { SourceTool } from './source-tool.js';
import type { ToolDefinition } from './tool-definition.js';

const t0 = new Date('2026-01-01T00:00:00Z');
const t1 = new Date('2026-01-02T00:00:00Z');
let counter = 0;
const newId = () => `id-${++counter}`;
const tool = (name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({
  name,
  description: `${name} does things`,
  inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
  ...extra,
});

function firstRun(defs: ToolDefinition[]): SourceTool[] {
  return reconcileInventory('s1', 'src', [], defs, new Set(), newId, t0).dirty;
}

describe('reconcileInventory', () => {
  it('adds every tool of a first listing', () => {
    const result = reconcileInventory('s1', 'src', [], [tool('a'), tool('b')], new Set(), newId, t0);
    expect(result.changes).toEqual({ added: 2, changed: 0, deprecated: 0, restored: 0, unchanged: 0 });
    expect(result.dirty.map((t) => t.snapshot().qualifiedName)).toEqual(['src__a', 'src__b']);
  });

  it.each([
    ['description', { description: 'new words' }],
    ['input schema', { inputSchema: { type: 'object', properties: { a: { type: 'number' } } } }],
    ['output schema', { outputSchema: { type: 'object' } }],
    ['annotations', { annotations: { readOnlyHint: true } }],
    ['title', { title: 'A' }],
  ])('sees a change of the %s', (_what, change) => {
    const known = firstRun([tool('a'), tool('b')]);
    const result = reconcileInventory('s1', 'src', known, [tool('a', change), tool('b')], new Set(), newId, t1);
    expect(result.changes).toEqual({ added: 0, changed: 1, deprecated: 0, restored: 0, unchanged: 1 });
  });

  it('ignores key order inside schemas', () => {
    const known = firstRun([tool('a', { inputSchema: { type: 'object', properties: { x: { type: 'string' } } } })]);
    const reordered = tool('a', { inputSchema: { properties: { x: { type: 'string' } }, type: 'object' } });
    expect(reconcileInventory('s1', 'src', known, [reordered], new Set(), newId, t1).changes.unchanged).toBe(1);
  });

  it('writes whole only what changed; a tool listed again as stored only moves its lastSeenAt', () => {
    const known = firstRun([tool('a'), tool('b'), tool('c', { inputSchema: { type: 'object', properties: { x: { type: 'string' } } } })]);
    const listing = [tool('a'), tool('b', { description: 'new words' }), tool('c', { inputSchema: { properties: { x: { type: 'string' } }, type: 'object' } }), tool('d')];
    const result = reconcileInventory('s1', 'src', known, listing, new Set(), newId, t1);
    expect(result.seen.map((t) => t.name)).toEqual(['a']);
    expect(result.seen[0]!.snapshot().lastSeenAt).toEqual(t1);
    // c differs only in key order: unchanged, but stored again as now listed.
    expect(result.dirty.map((t) => t.name).sort()).toEqual(['b', 'c', 'd']);
    expect(result.changes).toEqual({ added: 1, changed: 1, deprecated: 0, restored: 0, unchanged: 2 });
  });

  it("keeps each tool's place in the listing, a new order being no change but written and told", () => {
    const known = firstRun([tool('z'), tool('a'), tool('m')]);
    expect(known.map((t) => [t.name, t.snapshot().listPosition])).toEqual([['z', 0], ['a', 1], ['m', 2]]);
    const same = reconcileInventory('s1', 'src', known, [tool('z'), tool('a'), tool('m')], new Set(), newId, t1);
    expect([same.reordered, same.dirty, same.seen.length]).toEqual([false, [], 3]);

    const moved = reconcileInventory('s1', 'src', known, [tool('m'), tool('z'), tool('a')], new Set(), newId, t1);
    expect(moved.changes).toEqual({ added: 0, changed: 0, deprecated: 0, restored: 0, unchanged: 3 });
    expect(moved.reordered).toBe(true);
    expect(moved.dirty.map((t) => [t.name, t.snapshot().listPosition])).toEqual([['m', 0], ['z', 1], ['a', 2]]);

    // A name listed twice takes its first place only.
    const added = reconcileInventory('s1', 'src', known, [tool('m'), tool('m'), tool('n'), tool('z'), tool('a')], new Set(), newId, t1);
    expect(added.dirty.map((t) => [t.name, t.snapshot().listPosition])).toEqual([['n', 1], ['z', 2], ['a', 3]]);
    expect(added.seen.map((t) => t.name)).toEqual(['m']);
  });

  it('writes a restored tool whole', () => {
    const known = firstRun([tool('a')]);
    reconcileInventory('s1', 'src', known, [], new Set(), newId, t1);
    const again = reconcileInventory('s1', 'src', known, [tool('a')], new Set(), newId, t1);
    expect(again.seen).toEqual([]);
    expect(again.dirty.map((t) => t.status)).toEqual(['active']);
  });

  it('deprecates tools gone upstream and restores them when they return', () => {
    const known = firstRun([tool('a'), tool('b')]);
    const gone = reconcileInventory('s1', 'src', known, [tool('a')], new Set(), newId, t1);
    expect(gone.changes).toEqual({ added: 0, changed: 0, deprecated: 1, restored: 0, unchanged: 1 });
    expect(known.find((t) => t.name === 'b')!.status).toBe('deprecated');

    const again = reconcileInventory('s1', 'src', known, [tool('a'), tool('b')], new Set(), newId, t1);
    expect(again.changes).toEqual({ added: 0, changed: 0, deprecated: 0, restored: 1, unchanged: 1 });
    expect(known.find((t) => t.name === 'b')!.status).toBe('active');
  });

  it('does not deprecate twice', () => {
    const known = firstRun([tool('a'), tool('b')]);
    reconcileInventory('s1', 'src', known, [tool('a')], new Set(), newId, t1);
    expect(reconcileInventory('s1', 'src', known, [tool('a')], new Set(), newId, t1).changes.deprecated).toBe(0);
  });

  it('avoids a qualified name another source already holds', () => {
    const result = reconcileInventory('s1', 'src', [], [tool('a')], new Set(['src__a']), newId, t0);
    const name = result.dirty[0]!.snapshot().qualifiedName;
    expect(name).not.toBe('src__a');
    expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it('names, for the lookup among other sources, only what new tools may be called', () => {
    const known = firstRun([tool('a')]);
    const names = namesNewToolsMayTake('src', known, [tool('a'), tool('b')]);
    expect(names).toHaveLength(2);
    expect(names[0]).toBe('src__b');
    // Whichever of the two a new tool gets, it was among those looked up.
    const taken = new Set([names[0]!]);
    const result = reconcileInventory('s1', 'src', known, [tool('a'), tool('b')], taken, newId, t1);
    expect(names).toContain(result.dirty.find((t) => t.name === 'b')!.snapshot().qualifiedName);
  });

  it('keeps the first of duplicate names in one listing', () => {
    const result = reconcileInventory('s1', 'src', [], [tool('a'), tool('a', { description: 'dup' })], new Set(), newId, t0);
    expect(result.changes.added).toBe(1);
    expect(result.dirty[0]!.snapshot().description).toBe('a does things');
  });
});
