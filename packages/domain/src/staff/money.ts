import { z } from 'zod';
import { PAYMENT_SYSTEMS } from '../settings/index';
import { UNAPPLIED_REASONS, type UnappliedReason } from '../payment/settle';

/** ADR 0035: GET /api/staff/payments/unapplied, money that did not settle its order. */
export const unappliedPaymentSchema = z.object({
  paymentId: z.string(),
  orderId: z.number().int(),
  customerId: z.number().int(),
  customerEmail: z.string(),
  provider: z.enum(PAYMENT_SYSTEMS),
  /** What arrived, with 2 decimals, in `currency`. */
  amount: z.number(),
  currency: z.string(),
  reason: z.enum(UNAPPLIED_REASONS as [UnappliedReason, ...UnappliedReason[]]),
  receivedAt: z.string(),
});
export const unappliedPaymentListSchema = z.object({ payments: z.array(unappliedPaymentSchema) });
export type UnappliedPaymentList = z.infer<typeof unappliedPaymentListSchema>;

/** ADR 0035: GET /api/staff/payments/refund-claims, forced edits that lowered a paid price. */
export const refundClaimSchema = z.object({
  id: z.number().int(),
  orderId: z.number().int(),
  customerId: z.number().int(),
  customerEmail: z.string(),
  amount: z.number(),
  currency: z.string(),
  createdAt: z.string(),
});
export const refundClaimListSchema = z.object({ claims: z.array(refundClaimSchema) });
export type RefundClaimList = z.infer<typeof refundClaimListSchema>;
