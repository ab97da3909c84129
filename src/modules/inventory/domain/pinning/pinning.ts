import type { FindingSeverity } from '../definition-scan/index.js';

/**
 * How a source's new and changed tool definitions are admitted:
 * - `auto` (the default): accepted, unless the definition scan finds a high-severity risk in it;
 * - `review`: every new or changed definition waits for a reviewer;
 * - `off`: every definition is accepted.
 */
export type PinningMode = 'auto' | 'review' | 'off';
export const PINNING_MODES: readonly PinningMode[] = ['auto', 'review', 'off'];
export const DEFAULT_PINNING: PinningMode = 'auto';

/**
 * Where a tool's current definition stands: `approved` (served), `pending_review` (held until a
 * reviewer decides), `rejected` (held until its upstream changes it again). Apart from `status`,
 * which says whether the upstream still lists the tool.
 */
export type ToolReviewState = 'approved' | 'pending_review' | 'rejected';
export const TOOL_REVIEW_STATES: readonly ToolReviewState[] = ['approved', 'pending_review', 'rejected'];

/** Whether a new or changed definition is served at once or waits for a reviewer. */
export function admissionOf(mode: PinningMode, highest: FindingSeverity | undefined): 'approved' | 'pending_review' {
  if (mode === 'off') return 'approved';
  if (mode === 'review') return 'pending_review';
  return highest === 'high' ? 'pending_review' : 'approved';
}
