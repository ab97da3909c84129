import { Query } from '@nestjs/cqrs';
import type { ReviewView } from '../review-views.js';

export class GetReviewQuery extends Query<ReviewView> {
  constructor(readonly id: string) {
    super();
  }
}
