import { z } from 'zod';
import { orderDetailSchema } from '../order/detail';
import { STAFF_VIEWS } from './rules/index';

/** ADR 0089: the back office's wire shapes (rules: ./rules). */

/**
 * `GET /api/staff/views` (ADR 0089): each view's count. `null` when the view is not counted on this
 * server (disputes, until the after-payment dispute flow provides its count).
 */
export const staffViewCountsSchema = z.object({
  views: z.array(z.object({ view: z.enum(STAFF_VIEWS), count: z.number().int().nullable() })),
});
export type StaffViewCounts = z.infer<typeof staffViewCountsSchema>;

/** ADR 0089: what a writer or support sees of the customer (a writer: the first name only). */
export const staffCustomerSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
});
export type StaffCustomer = z.infer<typeof staffCustomerSchema>;

/**
 * ADR 0089: the brief, every field of SPEC §3 the customer filled, as the customer's order page names
 * them (the order detail's own shapes).
 */
export const staffBriefSchema = orderDetailSchema
  .pick({
    siteCategory: true,
    description: true,
    credentials: true,
    pages: true,
    sources: true,
    urgency: true,
    paragraphSpacing: true,
    subject: true,
    assignment: true,
    resumeService: true,
    paperFormat: true,
    academicLevel: true,
    resumeLevel: true,
    thesisLevel: true,
    features: true,
    preferredWritersList: true,
    preferredWriterAnother: true,
  })
  .extend({
    /** The customer's deadline (ISO 8601). */
    deadline: z.string(),
  });
export type StaffBrief = z.infer<typeof staffBriefSchema>;

/** ADR 0089: the writer's side of the money and the clock. */
export const staffWriterTermsSchema = z.object({
  /** USD the writer is paid (the fee rule), null when the order has no price. */
  pay: z.number(),
  /** The writer's deadline (ISO 8601), before the customer's. */
  deadline: z.string(),
});
export type StaffWriterTerms = z.infer<typeof staffWriterTermsSchema>;

/** `GET /api/staff/writers` (CONTRACT "Staff side"). */
export const staffWriterSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  /** Orders assigned and in work (paid, in progress, on hold). */
  activeOrders: z.number().int(),
  /** How many orders in work the writer takes at once. */
  capacity: z.number().int(),
  /** The writer takes new orders. */
  available: z.boolean(),
  /** The average review of the writer's orders, 0–5 in halves; null without a review. */
  rating: z.number().nullable(),
  /** Share (0–1) of the delivered orders whose first delivery came by the customer's deadline; null before the first. */
  onTimeRate: z.number().nullable(),
});
export type StaffWriter = z.infer<typeof staffWriterSchema>;
export const staffWriterListSchema = z.object({ writers: z.array(staffWriterSchema) });
export type StaffWriterList = z.infer<typeof staffWriterListSchema>;

/** ADR 0089: the customer's other orders, newest first (support). */
export const staffCustomerOrderSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  status: z.number().int(),
  dateCreated: z.string(),
});
export type StaffCustomerOrder = z.infer<typeof staffCustomerOrderSchema>;

/** `POST /api/staff/payments/unapplied/{paymentId}/apply` and `…/refund` (ADR 0089). */
export const unappliedRefundBodySchema = z
  .object({
    reason: z
      .string()
      .max(500, 'At most 500 characters')
      .transform((s) => s.trim())
      .refine((s) => s.length > 0, 'Enter the reason'),
  })
  .strict();
