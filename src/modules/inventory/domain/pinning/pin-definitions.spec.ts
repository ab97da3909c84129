import type { DefinitionFinding } from '../definition-scan/index.js';
import { reconcileInventory } from '../inventory-diff.js';
import type { SourceTool } from '../source-tool.js';
import type { ToolDefinition } from '../tool-definition.js';
import { pinDefinitions } from './pin-definitions.js';
import type { PinningMode } from './pinning.js';

const t0 = new Date('2026-01-01T00:00:00Z');
const t1 = new Date('2026-01-02T00:00:00Z');
const HIGH: DefinitionFinding = { rule: 'r', severity: 'high', path: 'description', excerpt: 'id_rsa', message: 'reads a key' };
const LOW: DefinitionFinding = { rule: 'r', severity: 'low', path: 'description', excerpt: 'x', message: 'x' };

const def = (name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({ name, description: `${name} v1`, inputSchema: { type: 'object' }, ...extra });

/** Runs one listing through reconcile and pinning, as InventorySync does; findings by tool name. */
function sight(known: SourceTool[], listing: ToolDefinition[], mode: PinningMode, findings: Record<string, DefinitionFinding[]> = {}, now = t1) {
  let n = 0;
  const result = reconcileInventory('s1', 'demo', known, listing, new Set(), () => `id-${now.getTime()}-${n++}`, now);
  const pinned = pinDefinitions({
    sourceName: 'demo',
    mode,
    added: result.added,
    redefined: result.redefined,
    known,
    scan: (tool) => findings[tool.name] ?? [],
    newId: () => `review-${n++}`,
    now,
  });
  const all = [...known, ...result.added];
  return { ...pinned, tool: (name: string) => all.find((t) => t.name === name)!.snapshot(), all };
}

/** A source's tools after a first listing approved under off. */
const approvedTools = (listing: ToolDefinition[]) => sight([], listing, 'off', {}, t0).all;

describe('pinDefinitions', () => {
  it('admits new tools as the mode says: off all, auto unless a finding is high, review none', () => {
    const listing = [def('a'), def('b')];
    const findings = { a: [HIGH], b: [LOW] };
    const off = sight([], listing, 'off', findings);
    expect([off.tool('a').reviewState, off.tool('b').reviewState]).toEqual(['approved', 'approved']);
    expect(off.tool('a').findings).toEqual([HIGH]);
    expect(off.opened).toEqual([]);
    const auto = sight([], listing, 'auto', findings);
    expect([auto.tool('a').reviewState, auto.tool('b').reviewState]).toEqual(['pending_review', 'approved']);
    expect(auto.opened.map((r) => r.snapshot())).toEqual([
      expect.objectContaining({ toolName: 'a', state: 'pending', changes: ['new_tool'], previousDefinition: null, previousHash: null, findings: [HIGH] }),
    ]);
    const review = sight([], listing, 'review');
    expect(review.opened.map((r) => r.snapshot().toolName)).toEqual(['a', 'b']);
    expect(review.tool('a')).toMatchObject({ reviewState: 'pending_review', approvedHash: null, approvedDefinition: null });
  });

  it('holds a changed tool under review with the approved definition kept as previous, and serves nothing of it meanwhile', () => {
    const known = approvedTools([def('a')]);
    const approvedHash = known[0]!.snapshot().approvedHash;
    const changed = sight(known, [def('a', { annotations: { readOnlyHint: false } })], 'review');
    const a = changed.tool('a');
    expect(a).toMatchObject({ reviewState: 'pending_review', approvedHash, approvedDefinition: { name: 'a', description: 'a v1', inputSchema: { type: 'object' } } });
    expect(a.definitionHash).not.toBe(approvedHash);
    expect(changed.opened[0]!.snapshot()).toMatchObject({ previousHash: approvedHash, definitionHash: a.definitionHash, changes: ['annotations_changed'] });
    expect(changed.settled.map((t) => t.name)).toEqual(['a']);
  });

  it('serves a definition that comes back to the approved one at once, with no review', () => {
    const known = approvedTools([def('a')]);
    sight(known, [def('a', { description: 'poisoned' })], 'review');
    expect(known[0]!.reviewState).toBe('pending_review');
    const back = sight(known, [def('a')], 'review');
    expect(back.opened).toEqual([]);
    expect(back.tool('a').reviewState).toBe('approved');
    expect(back.settled.map((t) => t.name)).toEqual(['a']);
  });

  it('keeps a rejected definition held while it is listed unchanged, and opens a new review when it changes again', () => {
    const known = approvedTools([def('a')]);
    sight(known, [def('a', { description: 'poisoned' })], 'auto', { a: [HIGH] });
    known[0]!.hold('rejected', t1);
    const same = sight(known, [def('a', { description: 'poisoned' })], 'auto', { a: [HIGH] });
    expect(same.opened).toEqual([]);
    expect(same.tool('a').reviewState).toBe('rejected');
    const again = sight(known, [def('a', { description: 'poisoned again' })], 'auto', { a: [HIGH] });
    expect(again.tool('a').reviewState).toBe('pending_review');
    expect(again.opened[0]!.snapshot()).toMatchObject({ previousDefinition: expect.objectContaining({ description: 'a v1' }), changes: ['description_changed'] });
  });

  it('names a tool gone from the source and listed under another name with the same definition a rename', () => {
    const known = approvedTools([def('old', { description: 'counts' }), def('b')]);
    const renamed = sight(known, [def('new', { description: 'counts' }), def('b')], 'review');
    expect(renamed.opened.map((r) => r.snapshot())).toEqual([
      expect.objectContaining({ toolName: 'new', changes: ['renamed_from:old'], previousDefinition: expect.objectContaining({ name: 'old' }) }),
    ]);
    const other = sight(approvedTools([def('old', { description: 'counts' })]), [def('new', { description: 'other' })], 'review');
    expect(other.opened[0]!.snapshot().changes).toEqual(['new_tool']);
  });
});
