import { z } from 'zod';

/** CONTRACT "Paths": GET /api/en/orders/count, the customer's non-hidden orders by status id. */
export const orderCountSchema = z.object({
  total: z.number().int(),
  byStatus: z.record(z.string(), z.number().int()),
});
export type OrderCount = z.infer<typeof orderCountSchema>;
