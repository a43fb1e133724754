import { z } from 'zod';

/** GET /api/en/orders/{id}/payment: the return page's status check (issue 4). */
export const paymentStatusSchema = z.object({
  status: z.enum(['none', 'pending', 'paid', 'declined']),
  pending: z.boolean(),
});
export type PaymentStatusView = z.infer<typeof paymentStatusSchema>;
