import { Inject, Injectable } from '@nestjs/common';
import { Clock, IdGenerator } from '../../../../shared/unit-of-work.js';
import { InventoryChanges, namesNewToolsMayTake, reconcileInventory } from '../../domain/inventory-diff.js';
import { SourceToolRepository } from '../../domain/source-tool.repository.js';
import { inventoryHash, ToolDefinition } from '../../domain/tool-definition.js';

/**
 * The inventory side of RefreshInventory: reconciles a source's tools with a fresh listing.
 * Runs inside the caller's transaction, so the tools and the source's state land together.
 */
@Injectable()
export class InventorySync {
  constructor(
    @Inject(SourceToolRepository) private readonly tools: SourceToolRepository,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(IdGenerator) private readonly ids: IdGenerator,
  ) {}

  /** `reordered`: a tool known before is listed at another place now, which changes no count but what a source's agents list. */
  async apply(sourceId: string, sourceName: string, discovered: ToolDefinition[]): Promise<{ changes: InventoryChanges; inventoryHash: string; reordered: boolean }> {
    const known = await this.tools.forSource(sourceId);
    // Only the names new tools could take are looked up among the other sources' tools.
    const taken = await this.tools.takenNames(sourceId, namesNewToolsMayTake(sourceName, known, discovered));
    const now = this.clock.now();
    const result = reconcileInventory(sourceId, sourceName, known, discovered, taken, () => this.ids.next(), now);
    await this.tools.saveAll(result.dirty);
    await this.tools.markSeen(result.seen, now);
    return { changes: result.changes, inventoryHash: inventoryHash(result.activeHashes), reordered: result.reordered };
  }

  /** Preview for a dry run: the qualified names the tools would get, nothing written. */
  preview(sourceName: string, discovered: ToolDefinition[]): { name: string; qualifiedName: string }[] {
    const result = reconcileInventory('preview', sourceName, [], discovered, new Set(), () => 'preview', this.clock.now());
    return result.dirty.map((t) => ({ name: t.name, qualifiedName: t.snapshot().qualifiedName }));
  }

  async retire(sourceId: string): Promise<number> {
    return this.tools.retireAll(sourceId, this.clock.now());
  }
}
