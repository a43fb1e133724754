// The zod-free half of the review context, for the web app's eager chunks (ADR 0020).
import { stripHtml } from '../../text/index';

/** SPEC §3 "Feedback": rating 0 to 5 in half steps; SPEC §9 "Rating: 5 stars, half steps". */
export const REVIEW_RATING_MAX = 5;
export const REVIEW_RATING_STEP = 0.5;
/** No limit in SPEC: long enough for a real review, short enough for a card (ADR 0021). */
export const REVIEW_COMMENT_MAX_LENGTH = 2000;

/** SPEC §8 "Review" and the server's refusals (ADR 0021). */
export const REVIEW_MESSAGE = {
  added: 'Your review has been added.',
  alreadyReviewed: 'You have already reviewed this order',
  notCompleted: 'You can review an order once it is completed',
  invalidRating: 'Rating must be from 0 to 5 in half steps',
  commentTooLong: `Comment must be at most ${REVIEW_COMMENT_MAX_LENGTH} characters`,
} as const;

/** True for 0, 0.5, 1, … 5. */
export const isValidRating = (rating: number): boolean =>
  Number.isFinite(rating) && rating >= 0 && rating <= REVIEW_RATING_MAX && Number.isInteger(rating / REVIEW_RATING_STEP);

/** Stored as an integer count of halves (0–10), so no float ever reaches the database. */
export const ratingToHalves = (rating: number): number => Math.round(rating / REVIEW_RATING_STEP);
export const halvesToRating = (halves: number): number => halves * REVIEW_RATING_STEP;

/** CONTRACT "Errors and access": the comment is stored with HTML stripped. */
export const normalizeReviewComment = (raw: string): string => stripHtml(raw).trim();
