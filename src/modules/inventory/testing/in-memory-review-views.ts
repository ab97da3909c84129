import { isUuid } from '../../../shared/uuid.js';
import { ReviewViews, type ReviewFilter, type ReviewKey } from '../application/review-views.js';
import type { DefinitionReviewProps } from '../domain/pinning/definition-review.js';
import type { InMemoryDefinitionReviewRepository } from './in-memory-definition-review-repository.js';

/** The reviews of an in-memory repository, read as TypeormReviewViews reads its table: newest first, (createdAt, id) descending. */
export class InMemoryReviewViews extends ReviewViews {
  constructor(private readonly reviews: InMemoryDefinitionReviewRepository) {
    super();
  }

  async list(filter: ReviewFilter, after: ReviewKey | undefined, limit: number): Promise<DefinitionReviewProps[]> {
    const key = (row: DefinitionReviewProps) => [row.createdAt.toISOString(), row.id] as const;
    const before = (row: DefinitionReviewProps) => {
      if (!after) return true;
      const [at, id] = key(row);
      return at < after.at || (at === after.at && id < after.id);
    };
    return this.reviews
      .all()
      .filter((row) => !filter.state || row.state === filter.state)
      .filter((row) => !filter.source || (isUuid(filter.source) ? row.sourceId === filter.source : row.sourceName === filter.source))
      .filter(before)
      .sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0))
      .slice(0, limit)
      .map((row) => structuredClone(row));
  }

  async get(id: string): Promise<DefinitionReviewProps | undefined> {
    const row = this.reviews.all().find((review) => review.id === id);
    return row ? structuredClone(row) : undefined;
  }
}
