import { z } from 'zod';
import { centsToAmount } from '../money/index';
import { DISCOUNT_CODE_MAX_LENGTH, DISCOUNT_MESSAGE, type StoredDiscount } from './rules/index';

/** `POST /api/en/orders/discounts/apply`: form field `code` (multipart, urlencoded or JSON). */
export const discountApplyBodySchema = z.object({
  code: z.string().max(DISCOUNT_CODE_MAX_LENGTH, DISCOUNT_MESSAGE.invalid).optional().default(''),
});

/** SPEC §7 apply answer: amount in USD with 2 decimals, percent whole. */
export const discountSchema = z.object({
  code: z.string(),
  amount: z.number(),
  percent: z.number(),
  isTopWriterDiscount: z.boolean(),
});
export type Discount = z.infer<typeof discountSchema>;
/** `GET /api/en/orders/discounts`: the codes that belong to the signed-in customer. */
export const discountListSchema = z.object({ discounts: z.array(discountSchema) });
export type DiscountList = z.infer<typeof discountListSchema>;

export const discountToWire = (d: StoredDiscount): Discount => ({
  code: d.code,
  amount: centsToAmount(d.amountCents),
  percent: d.percent,
  isTopWriterDiscount: d.isTopWriterDiscount,
});
