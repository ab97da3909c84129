import { Command } from '@nestjs/cqrs';
import type { ReviewView } from '../review-views.js';

/** ApproveReview / RejectReview. */
export class DecideReviewCommand extends Command<ReviewView> {
  constructor(
    readonly reviewId: string,
    readonly decision: 'approve' | 'reject',
    readonly comment: string | null,
    readonly actor: string,
  ) {
    super();
  }
}
