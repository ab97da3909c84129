import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { decodeCursor, encodeCursor } from '../../../../shared/http/cursor.js';
import { ReviewViews, toReviewView, type ReviewKey, type ReviewPage } from '../review-views.js';
import { ListReviewsQuery } from './list-reviews.query.js';

@QueryHandler(ListReviewsQuery)
export class ListReviewsHandler implements IQueryHandler<ListReviewsQuery, ReviewPage> {
  constructor(@Inject(ReviewViews) private readonly views: ReviewViews) {}

  async execute({ filter, cursor, limit }: ListReviewsQuery): Promise<ReviewPage> {
    const after = decodeCursor<ReviewKey & Record<string, string>>(cursor, ['at', 'id']);
    const rows = await this.views.list(filter, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map(toReviewView),
      nextCursor: rows.length > limit && last ? encodeCursor({ at: last.createdAt.toISOString(), id: last.id }) : null,
    };
  }
}
