import { z } from 'zod';
import { extensionRequestSchema, orderDeliverySchema, orderEventSchema } from '../delivery/wire';
import { orderFileSchema } from '../files/wire';
import { priceResponseSchema } from '../order-form/wire';

/**
 * SPEC §3 "Order" as `GET /api/en/orders/{id}` answers it (ADR 0012; the dashboard reuses it).
 * Catalogue references are `{ id, name }`; extras keep the form's 1 (off) / 2 (on) (CONTRACT);
 * money is USD with 2 decimals; dates are ISO 8601 UTC.
 */
const named = z.object({ id: z.number().int(), name: z.string() });
const onOff = z.union([z.literal(1), z.literal(2)]);

/** Who made a change of the order's status, as the history shows it (ADR 0071). */
export const statusHistoryBySchema = z.enum(['customer', 'writer', 'support', 'system']);
export type StatusHistoryBy = z.infer<typeof statusHistoryBySchema>;

export const orderDetailSchema = z.object({
  id: z.number().int(),
  uid: z.string(),
  title: z.string(),
  siteCategory: z.number().int(),
  workType: named,
  /** the status id (SPEC §4) */
  status: z.number().int(),
  orderStatus: named,
  finalPrice: z.number(),
  /** SPEC §3 "Price" as stored when the order was created or last edited */
  price: priceResponseSchema,
  /** the code used and the amount it took off; null without a code */
  discount: z.object({ code: z.string(), amount: z.number() }).nullable(),
  deadline: z.string(),
  dateCreated: z.string(),
  /** SPEC §3 "hidden flag (YES/no)", spelled as SPEC spells it */
  hidden: z.enum(['YES', 'no']),
  /** null until the revisions issue lands; then the active revision */
  activeRevision: z.object({ id: z.number().int() }).nullable(),
  pending: z.boolean(),
  /** the latest file the writer delivered, null before delivery */
  fileForDownload: orderFileSchema.nullable(),
  /** null until the customer leaves a review (reviews issue) */
  feedback: z.object({ rating: z.number(), comment: z.string() }).nullable(),
  features: z.object({
    premiumWriter: onOff,
    extraQualityCheck: onOff,
    onePageSummary: onOff,
    originalityReport: onOff,
  }),
  preferredWritersList: z.array(z.number().int()),
  preferredWriterAnother: z.boolean(),
  idWriter: z.number().int().nullable(),
  description: z.string(),
  credentials: z.string(),
  pages: z.number().int(),
  sources: z.number().int(),
  /** hours */
  urgency: z.number().int(),
  /** 1 single, 2 double */
  paragraphSpacing: onOff,
  subject: named.nullable(),
  /** the paper type */
  assignment: named.nullable(),
  resumeService: named.nullable(),
  paperFormat: named.nullable(),
  /** CONTRACT: the category's level field is set, the other two are null */
  academicLevel: named.nullable(),
  resumeLevel: named.nullable(),
  thesisLevel: named.nullable(),
  /**
   * CONTRACT: one entry per change, oldest first, with who made it (ADR 0071: the role, never a staff
   * account) and, for 7, 8 and 9, the reason.
   */
  statusHistory: z.array(
    z.object({ status: z.number().int(), date: z.string(), by: statusHistoryBySchema.optional(), reason: z.string().optional() }),
  ),
  /** CONTRACT "After payment" (ADR 0084): the latest delivery, null before the first one. */
  delivery: orderDeliverySchema.nullable(),
  /** CONTRACT "After payment": the open proposal of a new deadline, null when none waits for an answer. */
  extensionRequest: extensionRequestSchema.nullable(),
  /** ADR 0084: deliveries, answers and deadline proposals, oldest first (status changes are in statusHistory). */
  events: z.array(orderEventSchema),
  /** ADR 0034: what a forced edit of a paid order left to pay, USD (only when above zero). */
  amountDue: z.number().positive().optional(),
  /** ADR 0034: money arrived for this order that did not settle it and waits for support (only when true). */
  unappliedPayment: z.literal(true).optional(),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

/** `POST`/`PUT …/orders` answer (SPEC §7). */
export const orderRefSchema = z.object({ id: z.number().int(), uid: z.string() });
export type OrderRef = z.infer<typeof orderRefSchema>;
/** `GET /api/en/orders/uid/{uid}` answer (CONTRACT "Paths"). */
export const orderIdSchema = z.object({ id: z.number().int() });

/** SPEC §3 "Preferred writer"; CONTRACT `GET /api/en/customers/customer/preferred_writers`. */
export const preferredWriterSchema = z.object({ idWriter: z.number().int(), isPremium: z.boolean() });
export const preferredWriterListSchema = z.array(preferredWriterSchema);
export type PreferredWriter = z.infer<typeof preferredWriterSchema>;
