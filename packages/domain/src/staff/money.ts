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

/**
 * ADR 0058: why the reconciliation job (ADR 0037) handed an open attempt to support.
 * - `no_status_api`: the provider cannot be asked about it;
 * - `provider_error`: the provider's status API kept failing (errors, refusals) until the last check;
 * - `still_open`: the provider kept answering "not paid yet" until the last check.
 */
export const PAYMENT_ATTENTION_REASONS = ['no_status_api', 'provider_error', 'still_open'] as const;
export type PaymentAttentionReason = (typeof PAYMENT_ATTENTION_REASONS)[number];

/** ADR 0058: GET /api/staff/payments/attention, stale attempts flagged for support, oldest first. */
export const paymentAttentionSchema = z.object({
  paymentId: z.string(),
  orderId: z.number().int(),
  customerId: z.number().int(),
  customerEmail: z.string(),
  provider: z.enum(PAYMENT_SYSTEMS),
  /** What the attempt asks, with 2 decimals, in `currency`. */
  amount: z.number(),
  currency: z.string(),
  /** The attempt is still open: `created` (the buyer never came back) or `pending` (the provider said so). */
  state: z.enum(['created', 'pending']),
  reason: z.enum(PAYMENT_ATTENTION_REASONS),
  /** How often the job asked the provider. */
  checks: z.number().int(),
  sandbox: z.boolean(),
  /** When the attempt started (checkout opened). */
  createdAt: z.string(),
  /** When the job flagged it for support. */
  since: z.string(),
});
export type PaymentAttention = z.infer<typeof paymentAttentionSchema>;
export const paymentAttentionListSchema = z.object({ attempts: z.array(paymentAttentionSchema) });
export type PaymentAttentionList = z.infer<typeof paymentAttentionListSchema>;

/**
 * POST /api/staff/payments/attention/{paymentId}/resolved: support looked at the provider's dashboard.
 * - `declined`: no money came; the attempt is declined (the order stops showing a payment in progress).
 *   Money that still arrives later is parked for support (ADR 0034), never lost.
 * - `kept_open`: leave the attempt open (e.g. the provider still processes it); a late callback settles it.
 * Either way the attempt leaves the list.
 */
export const PAYMENT_ATTENTION_OUTCOMES = ['declined', 'kept_open'] as const;
export type PaymentAttentionOutcome = (typeof PAYMENT_ATTENTION_OUTCOMES)[number];
export const paymentAttentionResolveBodySchema = z.object({ outcome: z.enum(PAYMENT_ATTENTION_OUTCOMES) }).strict();
export const paymentAttentionResolvedSchema = z.object({
  paymentId: z.string(),
  outcome: z.enum(PAYMENT_ATTENTION_OUTCOMES),
  /** The attempt's state after the action (`declined`, or the open state it kept, or `paid` when a callback won the race). */
  state: z.string(),
  resolvedAt: z.string(),
});
export type PaymentAttentionResolved = z.infer<typeof paymentAttentionResolvedSchema>;
