import { extensionRequestSchema, orderDeliverySchema, orderEventSchema } from '../delivery/wire';
import { z } from 'zod';
import { orderFileSchema } from '../files/wire';
import { orderListItemSchema } from '../order-list/index';
import { statusHistoryBySchema } from '../order/detail';
import { isReasonRequired, ORDER_STATUS_NAME, STATUS_REASON_MAX_LENGTH, type OrderStatusId } from '../order/rules/index';
import { stripHtml } from '../text/index';
import { staffBriefSchema, staffCustomerOrderSchema } from './backoffice';
import { STAFF_QUEUE_SORTS, STAFF_VIEWS } from './rules/index';

/** SPEC §4 status ids (the transition table, ADR 0071, says which moves are allowed). */
const statusId = z.coerce
  .number()
  .int()
  .refine((s) => Object.hasOwn(ORDER_STATUS_NAME, s), 'Unknown order status');

/** The longest "due within" window staff's queue takes, in hours (30 days). */
const STAFF_DUE_WITHIN_MAX_HOURS = 720;
/** The shortest search text that is not an order id (a trigram index needs three characters, ADR 0081). */
export const STAFF_SEARCH_MIN_LENGTH = 3;

/**
 * `GET /api/staff/orders?status&page&limit` (CONTRACT "Staff side") and the console's views (ADR 0081):
 * `unassigned=1` the orders without a writer (with `status=2`: paid and waiting for one); `dueWithin=N`
 * the orders in work (paid, in progress, on hold) due in the next N hours, soonest first; `q` a search
 * over the title, the order id and the customer's email (case-insensitive, anywhere in the text).
 */
export const staffOrderQuerySchema = z.object({
  status: statusId.optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  unassigned: z.enum(['0', '1']).optional(),
  dueWithin: z.coerce.number().int().min(1).max(STAFF_DUE_WITHIN_MAX_HOURS).optional(),
  /** ADR 0089: one of support's views (a writer: `revisionsDue`, `overdue`, `dueSoon` of their orders). */
  view: z.enum(STAFF_VIEWS).optional(),
  /** ADR 0089: newest first (default) or soonest deadline first. */
  sort: z.enum(STAFF_QUEUE_SORTS).optional(),
  q: z
    .string()
    .max(250)
    .transform((v) => v.trim())
    .refine((v) => v === '' || /^#?\d+$/.test(v) || v.length >= STAFF_SEARCH_MIN_LENGTH, {
      message: `Type at least ${STAFF_SEARCH_MIN_LENGTH} characters, or an order number`,
    })
    .optional(),
});
export type StaffOrderQuery = z.infer<typeof staffOrderQuerySchema>;

/** A queue row: the dashboard's card plus who owns and who writes the order. */
export const staffOrderSchema = orderListItemSchema
  .omit({ unread: true, hidden: true, reviewed: true, activeRevision: true, completedAt: true })
  .extend({
    idCustomer: z.number().int(),
    idWriter: z.number().int().nullable(),
    /** ADR 0089: the customer's price for support; null for a writer, who sees `pay` instead. */
    finalPrice: z.number().nullable(),
    /** ADR 0089: the customer's name (a writer: the first name only) and email (support only, else null). */
    customerName: z.string(),
    customerEmail: z.string().nullable(),
    /** ADR 0089: the assigned writer's name. */
    writerName: z.string().nullable(),
    /** ADR 0089: the writer's pay (USD, the fee rule) and deadline (before the customer's). */
    pay: z.number(),
    writerDeadline: z.string(),
    /** ADR 0089: a revision of the order is open (requested, in progress, disputed or verifying). */
    openRevision: z.boolean(),
  });
export type StaffOrder = z.infer<typeof staffOrderSchema>;
export const staffOrderListSchema = z.object({
  orders: z.array(staffOrderSchema),
  total: z.number().int(),
  /** ADR 0099: a search's total is at least `total` (it stopped counting there); the page still holds its rows. */
  totalCapped: z.boolean(),
});
export type StaffOrderList = z.infer<typeof staffOrderListSchema>;

/** Staff's view of one history entry: who (account and role) and why. */
export const staffStatusHistoryEntrySchema = z.object({
  status: z.number().int(),
  date: z.string(),
  by: statusHistoryBySchema,
  actorId: z.number().int().nullable(),
  reason: z.string().nullable(),
});

/**
 * ADR 0059, 0071: one order as the order view shows it: the queue row, plus what the transition table
 * reads (a delivery, the amount a forced edit left to pay) and the status history with who and why.
 */
export const staffOrderViewSchema = staffOrderSchema.extend({
  /** A delivery was submitted (ADR 0084): support may complete the order. */
  delivered: z.boolean(),
  /** USD a forced edit (10) left to pay; 0 when none. */
  amountDue: z.number(),
  /** What a recorded payment must be now (USD): the price of an unpaid order, the difference of a modified one; null when nothing is due. */
  chargeDue: z.number().nullable(),
  statusHistory: z.array(staffStatusHistoryEntrySchema),
  /** ADR 0084: the latest delivery, the open proposal of a new deadline, the timeline. */
  delivery: orderDeliverySchema.nullable(),
  extensionRequest: extensionRequestSchema.nullable(),
  events: z.array(orderEventSchema),
  /** ADR 0084: a proposal the customer did not answer in time (support's alert until dismissed). */
  extensionAlert: extensionRequestSchema.nullable(),
  /** ADR 0089: the whole brief, every field of SPEC §3 the customer filled. */
  brief: staffBriefSchema,
  /** ADR 0089: the customer's other orders, newest first (support; empty for a writer). */
  otherOrders: z.array(staffCustomerOrderSchema),
});
export type StaffOrderView = z.infer<typeof staffOrderViewSchema>;

/** ADR 0071: `GET /api/staff/orders/{id}/files`: every file of the order, the customer's and the writer's. */
export const staffOrderFileSchema = orderFileSchema.extend({ source: z.enum(['customer', 'writer']) });
export type StaffOrderFile = z.infer<typeof staffOrderFileSchema>;
export const staffOrderFileListSchema = z.object({ files: z.array(staffOrderFileSchema) });
export type StaffOrderFileList = z.infer<typeof staffOrderFileListSchema>;

/** SPEC §5-style refusal of a missing reason (CONTRACT "Staff side": 7, 8 and 9 carry a reason). */
export const reasonRequiredMessage = (status: OrderStatusId): string =>
  `A reason is required to move an order to ${ORDER_STATUS_NAME[status]}`;

/** The raw text is bounded first (before any other work), then stripped of tags and trimmed. */
const reasonText = z
  .string()
  .max(STATUS_REASON_MAX_LENGTH, `At most ${STATUS_REASON_MAX_LENGTH} characters`)
  .transform((s) => stripHtml(s).trim());

/** `PUT /api/staff/orders/{id}/status { status, reason? }`: cancel (8), refund (7) and hold (9) need a reason. */
export const staffStatusBodySchema = z.object({ status: statusId, reason: reasonText.optional() }).superRefine((body, ctx) => {
  if (isReasonRequired(body.status) && !body.reason) {
    ctx.addIssue({ code: 'custom', path: ['reason'], message: reasonRequiredMessage(body.status as OrderStatusId) });
  }
});
export type StaffStatusBody = z.infer<typeof staffStatusBodySchema>;

export const MANUAL_PAYMENT_REFERENCE_MAX_LENGTH = 100;
/**
 * ADR 0071: `POST /api/staff/orders/{id}/payments { reference, amount? }`, a payment support records by
 * hand (a bank transfer) with its reference. `amount` (USD), when sent, must equal what the order asks now.
 */
export const manualPaymentBodySchema = z
  .object({
    reference: z
      .string()
      .max(MANUAL_PAYMENT_REFERENCE_MAX_LENGTH, `At most ${MANUAL_PAYMENT_REFERENCE_MAX_LENGTH} characters`)
      .transform((s) => stripHtml(s).trim())
      .refine((s) => s.length > 0, 'Enter the payment reference'),
    amount: z
      .number()
      .positive()
      .max(1_000_000)
      .refine((a) => Math.abs(a * 100 - Math.round(a * 100)) < 1e-6, 'At most 2 decimals')
      .optional(),
  })
  .strict();
export type ManualPaymentBody = z.infer<typeof manualPaymentBodySchema>;
export const staffWriterBodySchema = z.object({ idWriter: z.coerce.number().int().min(1).max(2_147_483_647) });

/** Refusals of the staff API. */
export const STAFF_MESSAGE = {
  notAWriter: 'This account is not a writer',
  supportOnly: 'Only support may do this',
  /** ADR 0071: a recorded payment's amount differs from what the order asks now. */
  amountMismatch: "The amount must equal the order's price",
  /** ADR 0071: the order asks for no payment (paid already, canceled, …). */
  nothingToPay: 'This order has nothing to pay',
  /** ADR 0071: a second payment recorded with a reference already used. */
  referenceUsed: 'This payment reference is already recorded',
  /** ADR 0072: a refund of an order with no recorded money left to give back. */
  nothingToRefund: 'This order has no recorded payment left to refund',
} as const;
