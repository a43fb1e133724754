import { z } from 'zod';

/** GET /api/en/orders/{id}/payment: the return page's status check (ADR 0024). */
export const paymentStatusSchema = z.object({
  status: z.enum(['none', 'pending', 'paid', 'declined']),
  pending: z.boolean(),
  /** ADR 0034: money arrived for this order that did not settle it and waits for support (only when true). */
  unapplied: z.literal(true).optional(),
  /** ADR 0034: what a forced edit of a paid order left to pay, USD (only when above zero). */
  amountDue: z.number().positive().optional(),
});
export type PaymentStatusView = z.infer<typeof paymentStatusSchema>;
