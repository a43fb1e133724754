// ADR 0084: delivery and acceptance, deadlines that move only with consent (CONTRACT "After payment").
// The zod-free half: constants, messages and the pure checks the server and the order page share.
import { ORDER_STATUS } from '../../order/rules/statuses-and-limits';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** CONTRACT "After payment": `reviewBy` is this many days after the delivery unless REVIEW_DAYS says otherwise. */
export const REVIEW_DAYS_DEFAULT = 3;
/** ADR 0084: the customer may push the review clock once, by this many days. */
export const REVIEW_EXTENSION_DAYS = 3;
/** ADR 0084: a proposed deadline is answered within this many hours, or before the current deadline if that comes first. */
export const EXTENSION_ANSWER_HOURS = 24;
/** ADR 0084: a proposal may move the deadline by at most this many days. */
export const EXTENSION_MAX_DAYS = 30;
/** The writer's delivery note and the customer's request for changes (characters after stripping). */
export const DELIVERY_MESSAGE_MAX_LENGTH = 5000;
export const EXTENSION_REASON_MAX_LENGTH = 1000;
/** The customer's request for changes goes into the writer chat, so it keeps the chat's limit (SPEC §5, 1500). */
export const CHANGES_REQUEST_MAX_LENGTH = 1500;

/** Statuses in which the work is not yet accepted and its deadline may still move. */
export const EXTENSION_STATUSES: readonly number[] = [ORDER_STATUS.paid, ORDER_STATUS.inProgress, ORDER_STATUS.hold];

export const AFTER_PAYMENT_MESSAGE = {
  noNewFiles: 'Upload the files of this delivery first: nothing was delivered since the last delivery.',
  notDeliverable: 'Only an order in progress can be delivered.',
  awaitingReview: 'The last delivery is waiting for the customer’s review.',
  noDelivery: 'There is no delivery to review on this order.',
  alreadyAccepted: 'This delivery was already accepted.',
  notAwaitingReview: 'This delivery is not waiting for your review.',
  changesRequired: 'Tell the writer what to change.',
  messageTooLong: `At most ${DELIVERY_MESSAGE_MAX_LENGTH} characters`,
  changesTooLong: `At most ${CHANGES_REQUEST_MAX_LENGTH} characters`,
  reviewAlreadyExtended: 'The review time was already extended once.',
  reviewExtended: `You have ${REVIEW_EXTENSION_DAYS} more days to review the delivery.`,
  accepted: 'Thank you! The order is complete.',
  changesSent: 'Your request was sent to the writer.',
  extensionNotAllowed: 'The deadline of this order can no longer move.',
  extensionOpen: 'A new deadline was already proposed and waits for the customer’s answer.',
  deadlineNotLater: 'The new deadline must be later than the current one.',
  deadlineTooFar: `The new deadline can be at most ${EXTENSION_MAX_DAYS} days later.`,
  deadlineInvalid: 'Enter a valid date and time.',
  reasonRequired: 'Tell the customer why more time is needed.',
  reasonTooLong: `At most ${EXTENSION_REASON_MAX_LENGTH} characters`,
  extensionAnswered: 'This request was already answered.',
  extensionExpired: 'The time to answer this request has passed: the original deadline stands.',
  extensionAccepted: 'The new deadline is set.',
  extensionDeclined: 'The original deadline stands.',
} as const;

/** When the review clock ends: `days` after the delivery. */
export const reviewByFor = (deliveredAt: Date, days: number = REVIEW_DAYS_DEFAULT): Date => new Date(deliveredAt.getTime() + days * DAY_MS);

/** Whole days left to review, rounded up ("1 day left" until the last moment; 0 once it passed). */
export const reviewDaysLeft = (reviewBy: Date, now: Date): number => Math.max(0, Math.ceil((reviewBy.getTime() - now.getTime()) / DAY_MS));

/** The review clock pushed once (ADR 0084). */
export const extendedReviewBy = (reviewBy: Date): Date => new Date(reviewBy.getTime() + REVIEW_EXTENSION_DAYS * DAY_MS);

/** What a delivery is now, for the order page and the rules below. */
export type DeliveryState = 'awaiting_review' | 'changes_requested' | 'accepted' | 'auto_completed';

export interface DeliveryFacts {
  state: DeliveryState;
  reviewBy: Date | null;
  reviewExtended: boolean;
}

/** Whether the customer may still accept the delivery: once, while it is awaiting review or after asking for changes. */
export const acceptProblem = (delivery: DeliveryFacts | null, statusId: number): string | null => {
  if (!delivery) return AFTER_PAYMENT_MESSAGE.noDelivery;
  if (delivery.state === 'accepted' || delivery.state === 'auto_completed' || statusId === ORDER_STATUS.completed)
    return AFTER_PAYMENT_MESSAGE.alreadyAccepted;
  if (statusId !== ORDER_STATUS.inProgress) return AFTER_PAYMENT_MESSAGE.notAwaitingReview;
  return null;
};

/** Whether the customer may ask for changes now (only while the clock runs). */
export const changesProblem = (delivery: DeliveryFacts | null, statusId: number): string | null => {
  if (!delivery) return AFTER_PAYMENT_MESSAGE.noDelivery;
  if (delivery.state === 'accepted' || delivery.state === 'auto_completed') return AFTER_PAYMENT_MESSAGE.alreadyAccepted;
  if (delivery.state !== 'awaiting_review' || statusId !== ORDER_STATUS.inProgress) return AFTER_PAYMENT_MESSAGE.notAwaitingReview;
  return null;
};

/** Whether the customer may push the review clock now (once, while it runs). */
export const reviewExtensionProblem = (delivery: DeliveryFacts | null, statusId: number, now: Date): string | null => {
  const problem = changesProblem(delivery, statusId);
  if (problem) return problem;
  if (delivery?.reviewExtended) return AFTER_PAYMENT_MESSAGE.reviewAlreadyExtended;
  if (!delivery?.reviewBy || delivery.reviewBy.getTime() <= now.getTime()) return AFTER_PAYMENT_MESSAGE.notAwaitingReview;
  return null;
};

/** Whether the review clock has run out on this delivery (the job completes the order). */
export const reviewClockRanOut = (delivery: DeliveryFacts, now: Date): boolean =>
  delivery.state === 'awaiting_review' && delivery.reviewBy !== null && delivery.reviewBy.getTime() <= now.getTime();

/** Whether staff may submit a delivery: an order in progress whose last delivery is not waiting for review. */
export const deliveryProblem = ({
  statusId,
  latest,
  newFiles,
}: {
  statusId: number;
  latest: DeliveryFacts | null;
  newFiles: number;
}): string | null => {
  if (statusId !== ORDER_STATUS.inProgress) return AFTER_PAYMENT_MESSAGE.notDeliverable;
  if (latest?.state === 'awaiting_review') return AFTER_PAYMENT_MESSAGE.awaitingReview;
  if (newFiles <= 0) return AFTER_PAYMENT_MESSAGE.noNewFiles;
  return null;
};

/**
 * ADR 0084: when a proposal must be answered: EXTENSION_ANSWER_HOURS from now, or the current deadline
 * if that comes first (silence past it is a decline, and the original deadline stands).
 */
export const extensionAnswerBy = (now: Date, currentDeadline: Date): Date =>
  new Date(Math.min(now.getTime() + EXTENSION_ANSWER_HOURS * HOUR_MS, Math.max(currentDeadline.getTime(), now.getTime() + HOUR_MS)));

/** Field problems of a proposed deadline, or null when it may be proposed. */
export const proposedDeadlineProblem = ({ current, proposed }: { current: Date; proposed: Date }): string | null => {
  if (Number.isNaN(proposed.getTime())) return AFTER_PAYMENT_MESSAGE.deadlineInvalid;
  if (proposed.getTime() <= current.getTime()) return AFTER_PAYMENT_MESSAGE.deadlineNotLater;
  if (proposed.getTime() - current.getTime() > EXTENSION_MAX_DAYS * DAY_MS) return AFTER_PAYMENT_MESSAGE.deadlineTooFar;
  return null;
};

/** Whether an extension request may be answered now. */
export const extensionAnswerProblem = ({ state, answerBy, now }: { state: ExtensionState; answerBy: Date; now: Date }): string | null => {
  if (state === 'expired') return AFTER_PAYMENT_MESSAGE.extensionExpired;
  if (state !== 'open') return AFTER_PAYMENT_MESSAGE.extensionAnswered;
  if (now.getTime() > answerBy.getTime()) return AFTER_PAYMENT_MESSAGE.extensionExpired;
  return null;
};

export type ExtensionState = 'open' | 'accepted' | 'declined' | 'expired';

/** "18 more hours", "3 more days", "2 more days and 4 hours": how much later the proposed deadline is. */
export const extensionLengthText = (current: Date, proposed: Date): string => {
  const hours = Math.max(1, Math.round((proposed.getTime() - current.getTime()) / HOUR_MS));
  if (hours < 48) return `${hours} more ${hours === 1 ? 'hour' : 'hours'}`;
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  return rest === 0 ? `${days} more days` : `${days} more days and ${rest} ${rest === 1 ? 'hour' : 'hours'}`;
};

/** What lands on the order's timeline besides status changes (ADR 0084). */
export const ORDER_EVENT_TYPES = [
  'delivered',
  'changes_requested',
  'review_extended',
  'accepted',
  'auto_completed',
  'extension_proposed',
  'extension_accepted',
  'extension_declined',
  'extension_expired',
  // ADR 0087: a cancel, a dispute and support's outcome land on the same timeline.
  'canceled',
  'dispute_opened',
  'dispute_resolved',
  'deadline_extended',
  /** ADR 0086: an upgrade of the order paid and applied */
  'upgraded',
] as const;
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];

export const ORDER_EVENT_LABEL: Record<OrderEventType, string> = {
  delivered: 'Work delivered',
  changes_requested: 'Changes requested',
  review_extended: 'Review time extended',
  accepted: 'Delivery accepted',
  auto_completed: 'Completed when the review time ended',
  extension_proposed: 'New deadline proposed',
  extension_accepted: 'New deadline accepted',
  extension_declined: 'New deadline declined',
  extension_expired: 'New deadline not answered in time: the original deadline stands',
  canceled: 'Order canceled',
  dispute_opened: 'Dispute opened',
  dispute_resolved: 'Dispute resolved',
  deadline_extended: 'Deadline extended by support',
  upgraded: 'Upgrade paid and applied',
};
