import { z } from 'zod';

export const loyaltyRuleSchema = z.object({ from: z.number().int(), to: z.number().int().nullable(), percent: z.number() });
/** `GET /api/en/orders/discounts/loyalty_discounts/rules` */
export const loyaltyRulesSchema = z.object({ rules: z.array(loyaltyRuleSchema) });

/** A generated single-use code (loyalty or referral), as the customer sees it. */
export const generatedDiscountSchema = z.object({
  code: z.string(),
  source: z.enum(['loyalty', 'referral']),
  percent: z.number(),
  /** the most it takes off one order, USD (maxAmountDiscount) */
  maxAmountDiscount: z.number(),
  state: z.enum(['active', 'used', 'expired', 'voided']),
  dateCreated: z.string(),
  expiresAt: z.string().nullable(),
  usedAt: z.string().nullable(),
  /** the order it was used on */
  idOrder: z.number().int().nullable(),
});
export type GeneratedDiscount = z.infer<typeof generatedDiscountSchema>;

export const ledgerEntrySchema = z.object({
  id: z.number().int(),
  kind: z.enum(['earned', 'reversed', 'redeemed', 'voided']),
  points: z.number().int(),
  idOrder: z.number().int().nullable(),
  code: z.string().nullable(),
  dateCreated: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

/** `GET /api/en/orders/discounts/loyalty_discounts`: the balance (the ledger's sum) and where it stands. */
export const loyaltySummarySchema = z.object({
  points: z.number().int(),
  rules: z.array(loyaltyRuleSchema),
  currentRule: loyaltyRuleSchema,
  nextRule: loyaltyRuleSchema.nullable(),
  pointsToNextRule: z.number().int().nullable(),
  /** what generating now would do (ADR 0050); null when there are not enough points */
  generation: z.object({ percent: z.number(), pointsSpent: z.number().int(), pointsLeft: z.number().int() }).nullable(),
  maxAmountDiscount: z.number(),
  earningRule: z.string(),
  /** the loyalty code not yet used, if any (one at a time) */
  code: generatedDiscountSchema.nullable(),
  /** every code generated from points or referrals, newest first (the discount sub-tab) */
  codes: z.array(generatedDiscountSchema),
  /** the newest ledger entries, newest first */
  ledger: z.array(ledgerEntrySchema),
});
export type LoyaltySummary = z.infer<typeof loyaltySummarySchema>;

/** `GET`/`POST /api/en/orders/discounts/loyalty_discounts/code` */
export const loyaltyCodeSchema = z.object({ discount: generatedDiscountSchema.nullable() });
export type LoyaltyCode = z.infer<typeof loyaltyCodeSchema>;
