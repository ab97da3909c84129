import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { createdKey, decodeCursor, pageOf } from '../../../../shared/http/cursor.js';
import { ReviewViews, toReviewView, type ReviewKey, type ReviewPage } from '../review-views.js';
import { ListReviewsQuery } from './list-reviews.query.js';

@QueryHandler(ListReviewsQuery)
export class ListReviewsHandler implements IQueryHandler<ListReviewsQuery, ReviewPage> {
  constructor(@Inject(ReviewViews) private readonly views: ReviewViews) {}

  async execute({ filter, cursor, limit }: ListReviewsQuery): Promise<ReviewPage> {
    const after = decodeCursor<ReviewKey & Record<string, string>>(cursor, ['at', 'id']);
    return pageOf(await this.views.list(filter, after, limit + 1), limit, toReviewView, createdKey);
  }
}
