/** What decides whether a tool may be used: the tool's state and its source's. */
export interface UsabilityFacts {
  qualifiedName: string;
  status: 'active' | 'deprecated';
  enabled: boolean;
  /** Why Toolplane cannot check the tool's arguments (an oversized or broken schema), or null. */
  unusableReason: string | null;
  /** Whether its current definition is approved, or held for (or by) a reviewer. */
  reviewState: 'approved' | 'pending_review' | 'rejected';
  annotations?: { readOnlyHint?: unknown } | null;
  source: { name: string; enabled: boolean; readOnly: boolean };
}

export type UnusableCode = 'TOOL_DEPRECATED' | 'TOOL_PENDING_REVIEW' | 'TOOL_REJECTED' | 'SOURCE_DISABLED' | 'TOOL_DISABLED' | 'TOOL_UNUSABLE' | 'READ_ONLY_SOURCE';

/** Why a tool cannot be used, with the stable code a refused call carries. */
export interface Unusable {
  code: UnusableCode;
  message: string;
}

/**
 * The one rule of what an agent may use: an active tool whose current definition is approved
 * (pinning), enabled, of an enabled source, whose arguments Toolplane can check, and — on a
 * read-only source — annotated `readOnlyHint: true`.
 * The catalog lists only such tools and ExecuteTool refuses the others with the first reason that
 * applies, in this order. Its SQL twin (the catalog's listing) is held equal to it by a property test.
 */
export function whyUnusable(tool: UsabilityFacts): Unusable | undefined {
  if (tool.status !== 'active') return { code: 'TOOL_DEPRECATED', message: `${tool.qualifiedName} is no longer offered by its source.` };
  if (tool.reviewState === 'pending_review') return { code: 'TOOL_PENDING_REVIEW', message: `${tool.qualifiedName} has a new or changed definition waiting for review.` };
  if (tool.reviewState === 'rejected') return { code: 'TOOL_REJECTED', message: `${tool.qualifiedName}'s current definition was rejected by a reviewer.` };
  if (!tool.source.enabled) return { code: 'SOURCE_DISABLED', message: `Source "${tool.source.name}" is disabled.` };
  if (!tool.enabled) return { code: 'TOOL_DISABLED', message: `${tool.qualifiedName} is disabled.` };
  if (tool.unusableReason !== null) return { code: 'TOOL_UNUSABLE', message: `${tool.qualifiedName} cannot be called: ${tool.unusableReason}.` };
  if (tool.source.readOnly && tool.annotations?.readOnlyHint !== true) {
    return { code: 'READ_ONLY_SOURCE', message: `Source "${tool.source.name}" is read-only and ${tool.qualifiedName} is not annotated readOnlyHint.` };
  }
  return undefined;
}

export function isUsable(tool: UsabilityFacts): boolean {
  return whyUnusable(tool) === undefined;
}
