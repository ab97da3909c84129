import type { Page } from '../../../shared/page.js';
import type { DefinitionFinding } from '../domain/definition-scan/index.js';
import { diffDefinitions, type DefinitionDiff } from '../domain/pinning/definition-diff.js';
import type { DefinitionReviewProps, ReviewState } from '../domain/pinning/definition-review.js';

/** A review as the API shows it: the definition held, the last approved one, and what changed between them. */
export interface ReviewView {
  id: string;
  state: ReviewState;
  toolId: string;
  qualifiedName: string;
  toolName: string;
  source: { id: string; name: string };
  definitionHash: string;
  definition: Record<string, unknown>;
  previousHash: string | null;
  previousDefinition: Record<string, unknown> | null;
  changes: string[];
  /** Field by field against previousDefinition; null for a new tool. */
  diff: DefinitionDiff | null;
  findings: DefinitionFinding[];
  createdAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
  comment: string | null;
}

export interface ReviewFilter {
  state?: ReviewState;
  /** A source id or name. */
  source?: string;
}

export interface ReviewKey {
  at: string;
  id: string;
}

/** Read side of the reviews. */
export abstract class ReviewViews {
  /** Newest first, after `after`. */
  abstract list(filter: ReviewFilter, after: ReviewKey | undefined, limit: number): Promise<DefinitionReviewProps[]>;
  abstract get(id: string): Promise<DefinitionReviewProps | undefined>;
}

export type ReviewPage = Page<ReviewView>;

export function toReviewView(review: Readonly<DefinitionReviewProps>): ReviewView {
  return {
    id: review.id,
    state: review.state,
    toolId: review.toolId,
    qualifiedName: review.qualifiedName,
    toolName: review.toolName,
    source: { id: review.sourceId, name: review.sourceName },
    definitionHash: review.definitionHash,
    definition: review.definition,
    previousHash: review.previousHash,
    previousDefinition: review.previousDefinition,
    changes: review.changes,
    diff: review.previousDefinition ? diffDefinitions(review.previousDefinition, review.definition) : null,
    findings: review.findings,
    createdAt: review.createdAt.toISOString(),
    decidedAt: review.decidedAt?.toISOString() ?? null,
    decidedBy: review.decidedBy,
    comment: review.comment,
  };
}
