import { highestSeverity, type DefinitionFinding } from '../definition-scan/index.js';
import type { SourceTool } from '../source-tool.js';
import { DefinitionReview } from './definition-review.js';
import { bodyKey, namedChanges } from './named-changes.js';
import { admissionOf, type PinningMode } from './pinning.js';

export interface PinningInput {
  sourceName: string;
  mode: PinningMode;
  /** Tools first seen in this listing, and tools whose definition changed in it (see reconcileInventory). */
  added: readonly SourceTool[];
  redefined: readonly SourceTool[];
  /** Every tool of the source known before, the deprecated ones among them (a new tool with one's definition is a rename). */
  known: readonly SourceTool[];
  /** The findings of the definition scan for one tool. */
  scan: (tool: SourceTool) => DefinitionFinding[];
  newId: () => string;
  now: Date;
}

export interface PinningResult {
  /** Reviews opened for the definitions held. */
  opened: DefinitionReview[];
  /** Tools whose pending review (if any) is over: their definition moved on, or came back to the approved one. */
  settled: SourceTool[];
}

/**
 * Admits or holds every new or changed definition of a listing, as the source's pinning mode says:
 * each is scanned (its findings kept on the tool); a definition equal to the one approved last is
 * served again; otherwise `off` serves it, `auto` serves it unless a finding is high, `review` holds
 * it, and a held one gets a review naming its changes against the last approved definition (a new
 * tool whose definition is that of a tool gone from the source is named a rename of it).
 */
export function pinDefinitions(input: PinningInput): PinningResult {
  const opened: DefinitionReview[] = [];
  const settled: SourceTool[] = [];
  // Only tools gone from the source can have been renamed: their keys are computed only then.
  const goneTools = input.added.length > 0 ? input.known.filter((tool) => tool.status === 'deprecated' && tool.snapshot().approvedDefinition) : [];
  const gone = new Map(goneTools.map((tool) => [bodyKey(tool.snapshot().approvedDefinition!), tool]));
  const isNew = new Set(input.added);
  for (const tool of [...input.added, ...input.redefined]) {
    const findings = input.scan(tool);
    tool.recordFindings(findings);
    settled.push(tool);
    if (tool.definitionHash === tool.approvedHash) {
      tool.approveCurrent(input.now);
      continue;
    }
    const renamedFrom = gone.size > 0 && isNew.has(tool) ? gone.get(bodyKey(tool.declared)) : undefined;
    if (admissionOf(input.mode, highestSeverity(findings)) === 'approved') {
      tool.approveCurrent(input.now);
      continue;
    }
    tool.hold('pending_review', input.now);
    const t = tool.snapshot();
    const previous = renamedFrom ? renamedFrom.snapshot() : t;
    opened.push(
      DefinitionReview.open({
        id: input.newId(),
        toolId: t.id,
        sourceId: t.sourceId,
        sourceName: input.sourceName,
        toolName: t.name,
        qualifiedName: t.qualifiedName,
        definitionHash: t.definitionHash,
        definition: tool.declared,
        previousHash: previous.approvedHash,
        previousDefinition: previous.approvedDefinition,
        changes: namedChanges(previous.approvedDefinition, tool.declared, renamedFrom?.name),
        findings,
        createdAt: input.now,
      }),
    );
  }
  return { opened, settled };
}
