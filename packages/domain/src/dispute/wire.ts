import { z } from 'zod';
import { orderFileSchema } from '../files/wire';
import { rawTextMax } from '../text/index';
import {
  CANCEL_MESSAGE,
  CANCEL_REASON_MAX_LENGTH,
  DISPUTE_MESSAGE,
  DISPUTE_OUTCOME_VALUES,
  DISPUTE_RESOLUTION_MESSAGE_MAX_LENGTH,
} from './rules/index';

// ADR 0087: the bodies and answers of CONTRACT "After payment" cancel and disputes. Raw caps (ADR 0067:
// 4 × the rule) refuse an oversized body before any work; the rules' lengths are checked after stripping.

/** `GET /api/en/orders/{id}/cancellation` → `{ allowed, refund, reason? }` and what the order page shows besides. */
export const cancellationQuoteSchema = z.object({
  allowed: z.boolean(),
  /** USD, 2 decimals: what a cancel would give back now */
  refund: z.number(),
  reason: z.string().optional(),
  stage: z.enum(['unpaid', 'before_work', 'in_progress', 'delivered', 'closed']),
  /** what POST …/cancellation does now */
  action: z.enum(['cancel', 'dispute', 'none']),
  /** where the money goes ("PayPal", "Sandbox card"), null when nothing comes back */
  destination: z.string().nullable(),
  /** the policy's share for an order in progress (0–100) */
  inProgressRefundPercent: z.number().int(),
});
export type CancellationQuote = z.infer<typeof cancellationQuoteSchema>;

/** `POST /api/en/orders/{id}/cancellation { reason }` */
export const cancelBodySchema = z.object({
  reason: z.string().max(rawTextMax(CANCEL_REASON_MAX_LENGTH), CANCEL_MESSAGE.reasonTooLong).default(''),
});
export type CancelBody = z.infer<typeof cancelBodySchema>;

export const disputeResolutionSchema = z.object({
  outcome: z.enum(DISPUTE_OUTCOME_VALUES),
  message: z.string(),
  /** USD refunded by this outcome, null when none */
  amount: z.number().nullable(),
  deadline: z.string().nullable(),
  resolvedAt: z.string(),
});

/** A dispute as the customer reads it: `{ id, status, answerBy }` and the rest. */
export const disputeSchema = z.object({
  id: z.number().int(),
  orderId: z.number().int(),
  status: z.enum(['open', 'resolved']),
  reason: z.string(),
  description: z.string(),
  answerBy: z.string(),
  createdAt: z.string(),
  /** USD a cancel request asks for (the policy's share), null for another reason */
  requestedRefund: z.number().nullable(),
  files: z.array(orderFileSchema),
  resolution: disputeResolutionSchema.nullable(),
});
export type Dispute = z.infer<typeof disputeSchema>;
export const disputeListSchema = z.object({ disputes: z.array(disputeSchema) });
export type DisputeList = z.infer<typeof disputeListSchema>;

/** `POST …/cancellation`: canceled (with the refund) or, once work started, the dispute it opened. */
export const cancelResultSchema = z.object({
  canceled: z.boolean(),
  /** USD given back now */
  refund: z.number(),
  dispute: disputeSchema.nullable(),
});
export type CancelResult = z.infer<typeof cancelResultSchema>;

/** Support's view: the dispute and the order's money. */
export const staffDisputeSchema = disputeSchema.extend({
  title: z.string(),
  orderStatus: z.number().int(),
  idWriter: z.number().int().nullable(),
  deadline: z.string(),
  /** USD paid and still refundable on the order */
  paid: z.number(),
  refundable: z.number(),
});
export type StaffDispute = z.infer<typeof staffDisputeSchema>;
export const staffDisputeListSchema = z.object({ disputes: z.array(staffDisputeSchema), total: z.number().int() });
export type StaffDisputeList = z.infer<typeof staffDisputeListSchema>;
export const staffDisputeQuerySchema = z.object({
  status: z.enum(['open', 'resolved']).default('open'),
  orderId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type StaffDisputeQuery = z.infer<typeof staffDisputeQuerySchema>;

/** `PUT /api/staff/disputes/{id} { outcome, message, amount?, deadline?, idWriter? }` */
export const disputeResolutionBodySchema = z.object({
  outcome: z.enum(DISPUTE_OUTCOME_VALUES),
  message: z.string().max(rawTextMax(DISPUTE_RESOLUTION_MESSAGE_MAX_LENGTH), DISPUTE_MESSAGE.messageTooLong),
  amount: z.number().optional(),
  deadline: z.string().max(40).optional(),
  idWriter: z.number().int().positive().max(2_147_483_647).optional(),
});
export type DisputeResolutionBody = z.infer<typeof disputeResolutionBodySchema>;
