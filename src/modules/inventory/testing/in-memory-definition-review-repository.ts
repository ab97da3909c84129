import { DefinitionReview, type DefinitionReviewProps } from '../domain/pinning/definition-review.js';
import { DefinitionReviewRepository } from '../domain/pinning/definition-review.repository.js';

/** Reviews kept as rows: copies go in and come out. */
export class InMemoryDefinitionReviewRepository extends DefinitionReviewRepository {
  private readonly rows = new Map<string, DefinitionReviewProps>();

  /** Every review, in the order they were first saved. */
  all(): Readonly<DefinitionReviewProps>[] {
    return [...this.rows.values()];
  }

  async find(id: string): Promise<DefinitionReview | undefined> {
    const row = this.rows.get(id);
    return row ? DefinitionReview.restore(structuredClone(row)) : undefined;
  }

  async pendingFor(toolIds: readonly string[]): Promise<DefinitionReview[]> {
    const wanted = new Set(toolIds);
    return this.all()
      .filter((row) => row.state === 'pending' && wanted.has(row.toolId))
      .map((row) => DefinitionReview.restore(structuredClone(row)));
  }

  async saveAll(reviews: readonly DefinitionReview[]): Promise<void> {
    for (const review of reviews) this.rows.set(review.id, structuredClone(review.snapshot()));
  }
}
