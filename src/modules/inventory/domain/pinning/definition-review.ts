import { Conflict } from '../../../../shared/domain-error.js';
import type { DefinitionFinding } from '../definition-scan/index.js';
import type { DeclaredDefinition } from './definition-diff.js';
import type { NamedChange } from './named-changes.js';

/** `superseded`: the upstream changed the definition again before anyone decided (a new review took over). */
export type ReviewState = 'pending' | 'approved' | 'rejected' | 'superseded';
export const REVIEW_STATES: readonly ReviewState[] = ['pending', 'approved', 'rejected', 'superseded'];

export interface DefinitionReviewProps {
  id: string;
  toolId: string;
  sourceId: string;
  sourceName: string;
  /** The tool's upstream name and qualified name when the review opened. */
  toolName: string;
  qualifiedName: string;
  /** The definition under review, as declared, and its hash. */
  definitionHash: string;
  definition: DeclaredDefinition;
  /** The last approved definition (of this tool, or of the one it was renamed from); null for a new tool. */
  previousHash: string | null;
  previousDefinition: DeclaredDefinition | null;
  changes: NamedChange[];
  findings: DefinitionFinding[];
  state: ReviewState;
  createdAt: Date;
  decidedAt: Date | null;
  decidedBy: string | null;
  comment: string | null;
}

/** A new or changed definition held for a reviewer: pending until approved, rejected or superseded. */
export class DefinitionReview {
  private constructor(private props: DefinitionReviewProps) {}

  static restore(props: DefinitionReviewProps): DefinitionReview {
    return new DefinitionReview({ ...props });
  }

  static open(props: Omit<DefinitionReviewProps, 'state' | 'decidedAt' | 'decidedBy' | 'comment'>): DefinitionReview {
    return new DefinitionReview({ ...props, state: 'pending', decidedAt: null, decidedBy: null, comment: null });
  }

  get id(): string {
    return this.props.id;
  }
  get state(): ReviewState {
    return this.props.state;
  }

  snapshot(): Readonly<DefinitionReviewProps> {
    return this.props;
  }

  approve(actor: string, comment: string | null, now: Date): void {
    this.decide('approved', actor, comment, now);
  }

  reject(actor: string, comment: string | null, now: Date): void {
    this.decide('rejected', actor, comment, now);
  }

  /** The upstream moved on: a review of its newer definition takes over. */
  supersede(now: Date): void {
    if (this.props.state !== 'pending') return;
    this.props = { ...this.props, state: 'superseded', decidedAt: now, decidedBy: null };
  }

  private decide(state: 'approved' | 'rejected', actor: string, comment: string | null, now: Date): void {
    if (this.props.state !== 'pending') {
      throw new Conflict('REVIEW_ALREADY_DECIDED', `Review ${this.props.id} is ${this.props.state} already; only a pending review can be approved or rejected.`);
    }
    this.props = { ...this.props, state, decidedAt: now, decidedBy: actor, comment };
  }
}
