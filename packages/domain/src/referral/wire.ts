import { z } from 'zod';
import { generatedDiscountSchema } from '../loyalty/index';
import { isReferralFilterId } from './rules/index';

/** `GET /api/en/customers/referral` (CONTRACT "Paths") */
export const referralInfoSchema = z.object({ url: z.string(), readyReferrals: z.number().int() });
export type ReferralInfo = z.infer<typeof referralInfoSchema>;

export const referralListQuerySchema = z.object({
  idStatus: z.coerce.number().int().refine(isReferralFilterId, 'Unknown referral status').default(0),
});

export const referralItemSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  email: z.string(),
  dateCreated: z.string(),
  status: z.object({ id: z.number().int(), name: z.string() }),
  discount: generatedDiscountSchema.nullable(),
});
export type ReferralItem = z.infer<typeof referralItemSchema>;
/** `GET /api/en/customers/referrals/referral_customers?idStatus` */
export const referralListSchema = z.object({ referrals: z.array(referralItemSchema), total: z.number().int() });
export type ReferralList = z.infer<typeof referralListSchema>;

/** `GET`/`POST /api/en/customers/referrals/{id}/discount` */
export const referralDiscountSchema = z.object({ discount: generatedDiscountSchema });
export type ReferralDiscount = z.infer<typeof referralDiscountSchema>;
