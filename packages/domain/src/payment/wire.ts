import { z } from 'zod';

/** GET /api/en/orders/{id}/payment: the return page's status check (issue 4). */
export const paymentStatusSchema = z.object({
  status: z.enum(['none', 'pending', 'paid', 'declined']),
  pending: z.boolean(),
  /** Issue 8: money arrived for this order that did not settle it and waits for support (only when true). */
  unapplied: z.literal(true).optional(),
  /** Issue 8: what a forced edit of a paid order left to pay, USD (only when above zero). */
  amountDue: z.number().positive().optional(),
});
export type PaymentStatusView = z.infer<typeof paymentStatusSchema>;
