// The zod-free half of the discount context (ADR 0020).
import { stripHtml } from '../../text/index';

/**
 * Discount codes (SPEC §4 "Discount", §8 "Discount"; CONTRACT: apply needs no token). A code takes a
 * whole percent and/or a fixed amount off the order; a top-writer code only with the premium writer on.
 */
export const DISCOUNT_MESSAGE = {
  empty: 'Please enter your discount',
  // SPEC gives no text for an unknown code: ADR 0012.
  invalid: 'Invalid discount code',
  topWriterRequired: 'Please enable Top Writer feature to use this discount',
  applied: 'Your discount has been successfully applied',
} as const;

/** ADR 0067: the longest code taken (raw, before stripping): no code is longer; a longer one is refused as invalid before any work. */
export const DISCOUNT_CODE_MAX_LENGTH = 64;

/** SPEC §5: HTML is stripped from the discount code; surrounding spaces are not part of it. */
export const normalizeDiscountCode = (raw: string): string => stripHtml(raw).trim();

export interface StoredDiscount {
  code: string;
  percent: number;
  amountCents: number;
  isTopWriterDiscount: boolean;
}

/** SPEC §8: a top-writer discount needs the premium writer; null when the code may be used. */
export const discountProblem = (discount: Pick<StoredDiscount, 'isTopWriterDiscount'>, premiumWriter: boolean): string | null =>
  discount.isTopWriterDiscount && !premiumWriter ? DISCOUNT_MESSAGE.topWriterRequired : null;
