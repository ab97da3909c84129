import { Query } from '@nestjs/cqrs';
import type { ReviewFilter, ReviewPage } from '../review-views.js';

export class ListReviewsQuery extends Query<ReviewPage> {
  constructor(
    readonly filter: ReviewFilter,
    readonly cursor: string | undefined,
    readonly limit: number,
  ) {
    super();
  }
}
