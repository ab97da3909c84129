import { Inject, Injectable } from '@nestjs/common';
import { heavySteps } from '../../../../shared/heavy-steps.js';
import { Clock, IdGenerator } from '../../../../shared/unit-of-work.js';
import { DefinitionScanner, type DefinitionFinding, type ScannedTool } from '../../domain/definition-scan/index.js';
import { InventoryChanges, namesNewToolsMayTake, reconcileInventory } from '../../domain/inventory-diff.js';
import { DefinitionReviewRepository } from '../../domain/pinning/definition-review.repository.js';
import { pinDefinitions } from '../../domain/pinning/pin-definitions.js';
import { DEFAULT_PINNING, type PinningMode } from '../../domain/pinning/pinning.js';
import { SourceToolRepository } from '../../domain/source-tool.repository.js';
import type { SourceTool } from '../../domain/source-tool.js';
import { inventoryHash, ToolDefinition } from '../../domain/tool-definition.js';

/** How long the definition scan runs before it lets the event loop turn. */
const SCAN_SLICE_MS = 5;

export interface InventorySyncResult {
  changes: InventoryChanges;
  inventoryHash: string;
  /** A tool known before is listed at another place now, which changes no count but what a source's agents list. */
  reordered: boolean;
  /** Definitions held for a reviewer by this listing. */
  held: number;
}

/** A tool as the definition scan reads it. */
export function scannedTool(sourceName: string, tool: SourceTool): ScannedTool {
  const t = tool.snapshot();
  return {
    sourceName,
    name: t.name,
    ...(t.title !== undefined ? { title: t.title } : {}),
    ...(t.description !== undefined ? { description: t.description } : {}),
    inputSchema: t.inputSchema,
    ...(t.outputSchema !== undefined ? { outputSchema: t.outputSchema } : {}),
    ...(t.annotations !== undefined ? { annotations: t.annotations } : {}),
  };
}

/**
 * The inventory side of RefreshInventory: reconciles a source's tools with a fresh listing, scans
 * every new or changed definition and admits or holds it as the source's pinning says.
 * Runs inside the caller's transaction, so the tools, their reviews and the source's state land together.
 */
@Injectable()
export class InventorySync {
  constructor(
    @Inject(SourceToolRepository) private readonly tools: SourceToolRepository,
    @Inject(DefinitionReviewRepository) private readonly reviews: DefinitionReviewRepository,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(IdGenerator) private readonly ids: IdGenerator,
  ) {}

  async apply(sourceId: string, sourceName: string, discovered: ToolDefinition[], pinning: PinningMode = DEFAULT_PINNING): Promise<InventorySyncResult> {
    const known = await this.tools.forSource(sourceId);
    // Only the names new tools could take are looked up among the other sources' tools.
    const taken = await this.tools.takenNames(sourceId, namesNewToolsMayTake(sourceName, known, discovered));
    const now = this.clock.now();
    const result = reconcileInventory(sourceId, sourceName, known, discovered, taken, () => this.ids.next(), now);
    let held = 0;
    if (result.added.length + result.redefined.length > 0) {
      const findings = await this.scan(sourceId, sourceName, [...result.added, ...result.redefined]);
      const pinned = pinDefinitions({
        sourceName,
        mode: pinning,
        added: result.added,
        redefined: result.redefined,
        known,
        scan: (tool) => findings.get(tool) ?? [],
        newId: () => this.ids.next(),
        now,
      });
      const superseded = await this.reviews.pendingFor(pinned.settled.map((tool) => tool.snapshot().id));
      for (const review of superseded) review.supersede(now);
      await this.tools.saveAll(result.dirty);
      await this.reviews.saveAll([...superseded, ...pinned.opened]);
      held = pinned.opened.length;
    } else {
      await this.tools.saveAll(result.dirty);
    }
    await this.tools.markSeen(result.seen, now);
    return { changes: result.changes, inventoryHash: inventoryHash(result.activeHashes), reordered: result.reordered, held };
  }

  /**
   * What the definition scan finds in each of `tools`, against every other source's tools (read only
   * when something is new). A listing of many new tools, or of large ones, is scanned in slices of a
   * few milliseconds (a text of a definition at a time), each in a turn of the event loop of its own,
   * so that a large refresh does not hold the loop.
   */
  private async scan(sourceId: string, sourceName: string, tools: readonly SourceTool[]): Promise<Map<SourceTool, DefinitionFinding[]>> {
    const scanner = new DefinitionScanner(await this.tools.scanPeers(sourceId));
    const findings = new Map<SourceTool, DefinitionFinding[]>();
    const slices = heavySteps.slices(SCAN_SLICE_MS);
    for (const tool of tools) {
      const steps = scanner.scanSteps(scannedTool(sourceName, tool));
      for (let step = steps.next(); ; step = steps.next()) {
        if (step.done) {
          findings.set(tool, step.value);
          break;
        }
        await slices.next();
      }
    }
    return findings;
  }

  /** Preview for a dry run: the qualified names the tools would get, nothing written. */
  preview(sourceName: string, discovered: ToolDefinition[]): { name: string; qualifiedName: string }[] {
    const result = reconcileInventory('preview', sourceName, [], discovered, new Set(), () => 'preview', this.clock.now());
    return result.dirty.map((t) => ({ name: t.name, qualifiedName: t.snapshot().qualifiedName }));
  }

  /**
   * Preview of pinning for a dry run: what the definition scan finds in each tool of a first
   * listing (against the tools of every other source), and whether `pinning` would hold it.
   */
  async previewPinning(sourceName: string, discovered: ToolDefinition[], pinning: PinningMode = DEFAULT_PINNING): Promise<Map<string, { findings: DefinitionFinding[]; held: boolean }>> {
    const result = reconcileInventory('preview', sourceName, [], discovered, new Set(), () => 'preview', this.clock.now());
    // No source has this id: the scan compares the listing with every live source's tools.
    const findings = await this.scan('00000000-0000-0000-0000-000000000000', sourceName, result.added);
    const pinned = pinDefinitions({ sourceName, mode: pinning, added: result.added, redefined: [], known: [], scan: (tool) => findings.get(tool) ?? [], newId: () => 'preview', now: this.clock.now() });
    const held = new Set(pinned.opened.map((review) => review.snapshot().toolName));
    return new Map(result.added.map((tool) => [tool.name, { findings: tool.snapshot().findings, held: held.has(tool.name) }]));
  }

  async retire(sourceId: string): Promise<number> {
    return this.tools.retireAll(sourceId, this.clock.now());
  }
}
