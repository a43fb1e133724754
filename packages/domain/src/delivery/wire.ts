import { z } from 'zod';
import { orderFileSchema } from '../files/wire';
import { REVIEW_COMMENT_MAX_LENGTH, REVIEW_MESSAGE } from '../review/rules/index';
import { rawTextMax } from '../text/index';
import {
  AFTER_PAYMENT_MESSAGE,
  CHANGES_REQUEST_MAX_LENGTH,
  DELIVERY_MESSAGE_MAX_LENGTH,
  EXTENSION_REASON_MAX_LENGTH,
  ORDER_EVENT_TYPES,
} from './rules/index';

// ADR 0084: the bodies and answers of CONTRACT "After payment" (delivery, acceptance, extensions). The raw
// caps (ADR 0067: 4 × the rule) refuse an oversized body before any work; the rules' own lengths are
// checked by the server after stripping HTML, with the same texts.

/** `POST /api/staff/orders/{id}/delivery { message? }` */
export const staffDeliveryBodySchema = z.object({
  message: z.string().max(rawTextMax(DELIVERY_MESSAGE_MAX_LENGTH), AFTER_PAYMENT_MESSAGE.messageTooLong).default(''),
});
export type StaffDeliveryBody = z.infer<typeof staffDeliveryBodySchema>;

/** `POST /api/en/orders/{id}/accept { rating?, comment? }`: a review is stored when a rating is given. */
export const acceptDeliveryBodySchema = z.object({
  rating: z.number().optional(),
  comment: z.string().max(rawTextMax(REVIEW_COMMENT_MAX_LENGTH), REVIEW_MESSAGE.commentTooLong).optional(),
});
export type AcceptDeliveryBody = z.infer<typeof acceptDeliveryBodySchema>;

/** `POST /api/en/orders/{id}/changes-requested { message }` */
export const changesRequestedBodySchema = z.object({
  message: z.string().max(rawTextMax(CHANGES_REQUEST_MAX_LENGTH), AFTER_PAYMENT_MESSAGE.changesTooLong),
});
export type ChangesRequestedBody = z.infer<typeof changesRequestedBodySchema>;

/** `POST /api/staff/orders/{id}/extensions { deadline, reason }` (deadline ISO 8601) */
export const extensionProposalBodySchema = z.object({
  deadline: z.string().max(40),
  reason: z.string().max(rawTextMax(EXTENSION_REASON_MAX_LENGTH), AFTER_PAYMENT_MESSAGE.reasonTooLong),
});
export type ExtensionProposalBody = z.infer<typeof extensionProposalBodySchema>;

/** `PUT /api/en/orders/{id}/extensions/{extensionId} { accept }` */
export const extensionAnswerBodySchema = z.object({ accept: z.boolean() });
export type ExtensionAnswerBody = z.infer<typeof extensionAnswerBodySchema>;

export const deliveryStateSchema = z.enum(['awaiting_review', 'changes_requested', 'accepted', 'auto_completed']);

/** CONTRACT `delivery { deliveredAt, reviewBy, message, files }` and what the order page needs besides. */
export const orderDeliverySchema = z.object({
  id: z.number().int(),
  deliveredAt: z.string(),
  /** null once the clock stopped (changes asked for, accepted) */
  reviewBy: z.string().nullable(),
  message: z.string(),
  files: z.array(orderFileSchema),
  state: deliveryStateSchema,
  /** the customer pushed the clock once already (ADR 0084) */
  reviewExtended: z.boolean(),
  /** how many deliveries the order has had, this one included */
  number: z.number().int(),
});
export type OrderDelivery = z.infer<typeof orderDeliverySchema>;

/** CONTRACT `extensionRequest { id, deadline, reason, answerBy }`: the open proposal, null when none. */
export const extensionRequestSchema = z.object({
  id: z.number().int(),
  deadline: z.string(),
  reason: z.string(),
  answerBy: z.string(),
  /** the deadline the proposal would replace */
  currentDeadline: z.string(),
  proposedBy: z.enum(['writer', 'support']),
});
export type ExtensionRequest = z.infer<typeof extensionRequestSchema>;

/** One entry of the order's timeline besides its status changes (ADR 0084), oldest first. */
export const orderEventSchema = z.object({
  type: z.enum(ORDER_EVENT_TYPES),
  date: z.string(),
  by: z.enum(['customer', 'writer', 'support', 'system']),
  /** the deadline a proposal names, when it is about one */
  deadline: z.string().optional(),
  /** a reason or a message, when there is one */
  note: z.string().optional(),
});
export type OrderEvent = z.infer<typeof orderEventSchema>;

/** What the after-payment calls answer: the order's delivery, open proposal and timeline as they are now. */
export const afterPaymentStateSchema = z.object({
  delivery: orderDeliverySchema.nullable(),
  extensionRequest: extensionRequestSchema.nullable(),
  events: z.array(orderEventSchema),
  status: z.number().int(),
  deadline: z.string(),
});
export type AfterPaymentState = z.infer<typeof afterPaymentStateSchema>;
