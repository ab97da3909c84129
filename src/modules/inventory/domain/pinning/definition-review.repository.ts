import type { DefinitionReview } from './definition-review.js';

export abstract class DefinitionReviewRepository {
  /** One review, locked for the current transaction when asked. */
  abstract find(id: string, options?: { lock?: boolean }): Promise<DefinitionReview | undefined>;
  /** The pending reviews of these tools. */
  abstract pendingFor(toolIds: readonly string[]): Promise<DefinitionReview[]>;
  abstract saveAll(reviews: readonly DefinitionReview[]): Promise<void>;
}
