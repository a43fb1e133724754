import { z } from 'zod';
import { rawTextMax } from '../text/index';
import { isValidRating, REVIEW_COMMENT_MAX_LENGTH, REVIEW_MESSAGE } from './rules/index';

/**
 * `POST /api/en/orders/{id}/reviews` (SPEC §7) as sent. The server checks the rating's half steps and
 * the comment's length after HTML is stripped itself, so the refusal carries SPEC-style messages;
 * here the raw cap (ADR 0067: 4 × the rule), checked before any work, with the same text.
 */
export const reviewBodySchema = z.object({
  rating: z.coerce.number(),
  comment: z.string().max(rawTextMax(REVIEW_COMMENT_MAX_LENGTH), REVIEW_MESSAGE.commentTooLong).default(''),
});
/** The feedback form (web): the same rules the server applies. */
export const reviewFormSchema = z.object({
  rating: z.number().refine(isValidRating, REVIEW_MESSAGE.invalidRating),
  comment: z.string().max(REVIEW_COMMENT_MAX_LENGTH, REVIEW_MESSAGE.commentTooLong),
});
export type ReviewBody = z.infer<typeof reviewBodySchema>;

export const reviewRefSchema = z.object({ id: z.number().int() });
export type ReviewRef = z.infer<typeof reviewRefSchema>;
