import { disambiguatedName, qualifiedNameFor } from './qualified-name.js';
import { SourceTool } from './source-tool.js';
import { ToolDefinition } from './tool-definition.js';

export interface InventoryChanges {
  added: number;
  changed: number;
  deprecated: number;
  restored: number;
  unchanged: number;
}

export interface ReconcileResult {
  changes: InventoryChanges;
  /** Every tool new or modified beyond its last sighting, to be saved whole. */
  dirty: SourceTool[];
  /** Tools listed again exactly as stored: only their lastSeenAt moved. */
  seen: SourceTool[];
  /** The definition hashes of the tools now active. */
  activeHashes: string[];
  /** Whether a tool known before is listed at another place now (agents of a source see the upstream's order). */
  reordered: boolean;
  /** Tools whose definition is new to Toolplane (added) or moved since the last sighting (its hash changed): what pinning admits or holds. */
  added: SourceTool[];
  redefined: SourceTool[];
}

/**
 * The qualified names reconcileInventory may give the tools of `discovered` it does not know yet:
 * the only names it needs to know whether other sources hold.
 */
export function namesNewToolsMayTake(sourceName: string, known: readonly SourceTool[], discovered: readonly ToolDefinition[]): string[] {
  const knownNames = new Set(known.map((tool) => tool.name));
  return discovered.filter((d) => !knownNames.has(d.name)).flatMap((d) => [qualifiedNameFor(sourceName, d.name), disambiguatedName(sourceName, d.name)]);
}

/**
 * Reconciles a source's known tools with what its upstream lists now:
 * new names are added, known ones compared by definition hash, missing ones deprecated.
 * `takenNames` holds qualified names used by other sources' live tools.
 */
export function reconcileInventory(
  sourceId: string,
  sourceName: string,
  known: SourceTool[],
  discovered: ToolDefinition[],
  takenNames: ReadonlySet<string>,
  newId: () => string,
  now: Date,
): ReconcileResult {
  const changes: InventoryChanges = { added: 0, changed: 0, deprecated: 0, restored: 0, unchanged: 0 };
  const byName = new Map(known.map((tool) => [tool.name, tool]));
  const used = new Set([...takenNames, ...known.map((t) => t.snapshot().qualifiedName)]);
  const dirty: SourceTool[] = [];
  const seenAgain: SourceTool[] = [];
  const seen = new Set<string>();
  const activeHashes: string[] = [];
  const added: SourceTool[] = [];
  const redefined: SourceTool[] = [];
  let reordered = false;

  for (const definition of discovered) {
    if (seen.has(definition.name)) continue; // an upstream listing a name twice: the first wins
    // Its place among the tools listed so far (a name listed twice takes none the second time).
    const position = seen.size;
    seen.add(definition.name);
    const existing = byName.get(definition.name);
    if (existing) {
      const before = existing.snapshot();
      const outcome = existing.observe(definition, now, position);
      changes[outcome] += 1;
      if (existing.definitionHash !== before.definitionHash) redefined.push(existing);
      const moved = before.listPosition !== position;
      if (moved && before.status === 'active') reordered = true;
      // Unchanged, in the same key order and at the same place: nothing but lastSeenAt to write.
      if (outcome === 'unchanged' && existing.snapshot().declaredHash === before.declaredHash && !moved) seenAgain.push(existing);
      else dirty.push(existing);
      activeHashes.push(existing.definitionHash);
      continue;
    }
    let qualified = qualifiedNameFor(sourceName, definition.name);
    if (used.has(qualified)) qualified = disambiguatedName(sourceName, definition.name);
    used.add(qualified);
    const tool = SourceTool.discover(newId(), sourceId, qualified, definition, now, position);
    changes.added += 1;
    dirty.push(tool);
    added.push(tool);
    activeHashes.push(tool.definitionHash);
  }

  for (const tool of known) {
    if (!seen.has(tool.name) && tool.deprecate(now)) {
      changes.deprecated += 1;
      dirty.push(tool);
    }
  }
  return { changes, dirty, seen: seenAgain, activeHashes, reordered, added, redefined };
}
