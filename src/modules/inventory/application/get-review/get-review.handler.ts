import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isUuid } from '../../../../shared/uuid.js';
import { ReviewViews, toReviewView, type ReviewView } from '../review-views.js';
import { reviewNotFound } from '../tool-errors.js';
import { GetReviewQuery } from './get-review.query.js';

@QueryHandler(GetReviewQuery)
export class GetReviewHandler implements IQueryHandler<GetReviewQuery, ReviewView> {
  constructor(@Inject(ReviewViews) private readonly views: ReviewViews) {}

  async execute({ id }: GetReviewQuery): Promise<ReviewView> {
    const review = isUuid(id) ? await this.views.get(id) : undefined;
    if (!review) throw reviewNotFound(id);
    return toReviewView(review);
  }
}
