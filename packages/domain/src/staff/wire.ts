import { z } from 'zod';
import { orderListItemSchema } from '../order-list/index';
import { ORDER_STATUS_NAME } from '../order/rules/index';

/** SPEC §4 status ids: support may set any of them (CONTRACT "Staff side"). */
const statusId = z.coerce
  .number()
  .int()
  .refine((s) => Object.hasOwn(ORDER_STATUS_NAME, s), 'Unknown order status');

/** `GET /api/staff/orders?status&page&limit` (CONTRACT "Staff side"). */
export const staffOrderQuerySchema = z.object({
  status: statusId.optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type StaffOrderQuery = z.infer<typeof staffOrderQuerySchema>;

/** A queue row: the dashboard's card plus who owns and who writes the order. */
export const staffOrderSchema = orderListItemSchema.omit({ unread: true, hidden: true }).extend({
  idCustomer: z.number().int(),
  idWriter: z.number().int().nullable(),
});
export type StaffOrder = z.infer<typeof staffOrderSchema>;
export const staffOrderListSchema = z.object({ orders: z.array(staffOrderSchema), total: z.number().int() });
export type StaffOrderList = z.infer<typeof staffOrderListSchema>;

export const staffStatusBodySchema = z.object({ status: statusId });
export const staffWriterBodySchema = z.object({ idWriter: z.coerce.number().int().min(1).max(2_147_483_647) });

/** Refusals of the staff API. */
export const STAFF_MESSAGE = {
  notAWriter: 'This account is not a writer',
  supportOnly: 'Only support may do this',
} as const;
