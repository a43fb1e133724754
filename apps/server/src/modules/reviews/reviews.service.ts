import {
  DomainError,
  ERROR_CODE,
  halvesToRating,
  isValidRating,
  ORDER_STATUS,
  ratingToHalves,
  REVIEW_COMMENT_MAX_LENGTH,
  REVIEW_MESSAGE,
  normalizeReviewComment,
  type ReviewBody,
  type ReviewRef,
} from '@app/domain';
import type { Clock } from '../../lib/clock';
import type { ReviewsRepo } from './reviews.repo';
import { notFound } from '../../lib/errors';

export const createReviewsService = ({ repo, clock }: { repo: ReviewsRepo; clock: Clock }) => ({
  /**
   * SPEC §7 `POST …/reviews`, SPEC §3 "Feedback" (ADR 0021): a completed order only (409), one review
   * per order (409), rating 0–5 in half steps and a comment of at most 2000 characters once HTML is
   * stripped (422). Another customer's order is a 404 before anything else is said about it.
   */
  add: async ({ customerId, orderId, body }: { customerId: number; orderId: number; body: ReviewBody }): Promise<ReviewRef> => {
    const state = await repo.orderState({ customerId, orderId });
    if (!state) throw notFound();
    if (state.reviewed) throw new DomainError(ERROR_CODE.conflict, REVIEW_MESSAGE.alreadyReviewed);
    if (state.statusId !== ORDER_STATUS.completed) throw new DomainError(ERROR_CODE.conflict, REVIEW_MESSAGE.notCompleted);
    if (!isValidRating(body.rating)) {
      throw new DomainError(ERROR_CODE.validation, REVIEW_MESSAGE.invalidRating, { rating: [REVIEW_MESSAGE.invalidRating] });
    }
    const comment = normalizeReviewComment(body.comment);
    if (comment.length > REVIEW_COMMENT_MAX_LENGTH) {
      throw new DomainError(ERROR_CODE.validation, REVIEW_MESSAGE.commentTooLong, { comment: [REVIEW_MESSAGE.commentTooLong] });
    }
    const stored = await repo.insert({
      customerId,
      orderId,
      statusId: ORDER_STATUS.completed,
      ratingHalves: ratingToHalves(body.rating),
      comment,
      now: clock.now(),
    });
    // A twin request stored its review first, or the order left status 5 in between.
    if (!stored) {
      const now = await repo.orderState({ customerId, orderId });
      throw new DomainError(ERROR_CODE.conflict, now?.reviewed ? REVIEW_MESSAGE.alreadyReviewed : REVIEW_MESSAGE.notCompleted);
    }
    return stored;
  },

  /** SPEC §3 "feedback{rating, comment}" of one of the customer's orders; null before a review. */
  feedback: async ({
    customerId,
    orderId,
  }: {
    customerId: number;
    orderId: number;
  }): Promise<{ rating: number; comment: string } | null> => {
    const review = await repo.find({ customerId, orderId });
    return review ? { rating: halvesToRating(review.ratingHalves), comment: review.comment } : null;
  },
});
export type ReviewsService = ReturnType<typeof createReviewsService>;
