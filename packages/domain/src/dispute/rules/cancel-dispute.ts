// ADR 0087: cancel with the money shown, and disputes (CONTRACT "After payment"). The zod-free half:
// the cancel policy's quote, the dispute's reasons and outcomes, the messages, the pure checks the server
// and the order page share.
import { formatUsd } from '../../money/cents';
import { ORDER_STATUS } from '../../order/rules/statuses-and-limits';

const HOUR_MS = 3_600_000;

/** The cancel policy in settings (CANCEL_IN_PROGRESS_REFUND_PERCENT): what an order in progress gives back. */
export interface CancelPolicy {
  /** The share of what is left of the payment (0–100) a cancel gives back once a writer works on the order. */
  inProgressRefundPercent: number;
}
export const CANCEL_IN_PROGRESS_REFUND_PERCENT_DEFAULT = 50;
export const DEFAULT_CANCEL_POLICY: CancelPolicy = { inProgressRefundPercent: CANCEL_IN_PROGRESS_REFUND_PERCENT_DEFAULT };

/**
 * Where an order stands for a cancel: `unpaid` cancels free, `before_work` (paid, no writer yet) cancels at
 * once with everything paid back, `in_progress` (a writer works on it) is a request support decides (a
 * dispute asking for the policy's share), `delivered` (the work is delivered or accepted) is a dispute
 * only, `closed` (canceled or refunded) is final.
 */
export type CancelStage = 'unpaid' | 'before_work' | 'in_progress' | 'delivered' | 'closed';

export const CANCEL_MESSAGE = {
  canceled: 'The order is canceled.',
  alreadyCanceled: 'This order is already canceled.',
  alreadyRefunded: 'This order was already refunded.',
  delivered: 'The work on this order was delivered: a cancel is no longer possible. Open a dispute instead.',
  inProgress: 'A writer is already working on this order: your request goes to support as a dispute.',
  reasonTooLong: 'At most 1000 characters',
  requestOpened: 'Your request was sent to support.',
} as const;
export const CANCEL_REASON_MAX_LENGTH = 1000;

export interface CancelFacts {
  statusId: number;
  hasWriter: boolean;
  delivered: boolean;
  /** The order's applied payments and refunds so far, in cents. */
  paidCents: number;
  refundedCents: number;
}

export interface CancelQuote {
  stage: CancelStage;
  /** Whether the customer may ask for a cancel now. */
  allowed: boolean;
  /** What a cancel would give back now, in cents (in progress: what the request asks support for). */
  refundCents: number;
  /** What POST …/cancellation does now: cancel at once, or open a dispute. */
  action: 'cancel' | 'dispute' | 'none';
  /** Why not, or what happens instead (CONTRACT `reason?`). */
  reason?: string;
}

/** The share of `cents` the policy gives back, rounded down to the cent. */
export const policyShareCents = (cents: number, percent: number): number => {
  const p = Math.min(100, Math.max(0, Math.trunc(percent)));
  return Math.floor((Math.max(0, cents) * p) / 100);
};

const S = ORDER_STATUS;
/** Statuses a customer's cancel may start from: no writer on them yet (the transition table's `cancellation` moves). */
const BEFORE_WORK: readonly number[] = [S.unpaid, S.paid, S.hold, S.modified, S.offered];

/** CONTRACT "After payment": what a cancel would return now, under the policy in settings. Pure. */
export const cancelQuote = (f: CancelFacts, policy: CancelPolicy = DEFAULT_CANCEL_POLICY): CancelQuote => {
  const left = Math.max(0, f.paidCents - f.refundedCents);
  if (f.statusId === S.canceled)
    return { stage: 'closed', allowed: false, refundCents: 0, action: 'none', reason: CANCEL_MESSAGE.alreadyCanceled };
  if (f.statusId === S.refunded)
    return { stage: 'closed', allowed: false, refundCents: 0, action: 'none', reason: CANCEL_MESSAGE.alreadyRefunded };
  if (f.statusId === S.completed || (f.delivered && f.statusId === S.inProgress))
    return { stage: 'delivered', allowed: false, refundCents: 0, action: 'dispute', reason: CANCEL_MESSAGE.delivered };
  if (!f.hasWriter && BEFORE_WORK.includes(f.statusId)) {
    if (left === 0) return { stage: 'unpaid', allowed: true, refundCents: 0, action: 'cancel' };
    return { stage: 'before_work', allowed: true, refundCents: left, action: 'cancel' };
  }
  return {
    stage: 'in_progress',
    allowed: true,
    refundCents: policyShareCents(left, policy.inProgressRefundPercent),
    action: 'dispute',
    reason: CANCEL_MESSAGE.inProgress,
  };
};

/** What the order page says a cancel does now, and where the money goes. */
export const cancelQuoteText = (q: CancelQuote, percent: number): string => {
  switch (q.stage) {
    case 'unpaid':
      return 'Nothing was paid yet: you can cancel for free.';
    case 'before_work':
      return `No writer has started yet: a cancel now gives back everything you paid, ${formatUsd(q.refundCents)}.`;
    case 'in_progress':
      return `A writer is working on this order: a cancel now can give back ${percent}% of what you paid (less any refund so far), ${formatUsd(q.refundCents)}. Support reviews the request.`;
    case 'delivered':
      return 'The work was delivered: if something is wrong, open a dispute and support will look into it.';
    case 'closed':
      return q.reason ?? '';
  }
};

/** The dispute's reasons, as the form lists them. */
export const DISPUTE_REASONS = [
  { value: 'cancel_request', label: 'I want to cancel the order' },
  { value: 'late', label: 'The work is late' },
  { value: 'quality', label: 'The quality is not what I expected' },
  { value: 'instructions', label: 'My instructions were not followed' },
  { value: 'originality', label: 'The work is not original' },
  { value: 'communication', label: 'The writer does not answer' },
  { value: 'other', label: 'Something else' },
] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number]['value'];
export const DISPUTE_REASON_VALUES = DISPUTE_REASONS.map((r) => r.value) as [DisputeReason, ...DisputeReason[]];
export const disputeReasonLabel = (value: string): string => DISPUTE_REASONS.find((r) => r.value === value)?.label ?? value;

/** Support's outcomes: one per dispute. */
export const DISPUTE_OUTCOMES = [
  { value: 'extend', label: 'Extend the deadline' },
  { value: 'reassign', label: 'Reassign to another writer' },
  { value: 'partial_refund', label: 'Partial refund' },
  { value: 'full_refund', label: 'Full refund' },
  { value: 'no_action', label: 'No action' },
] as const;
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number]['value'];
export const DISPUTE_OUTCOME_VALUES = DISPUTE_OUTCOMES.map((o) => o.value) as [DisputeOutcome, ...DisputeOutcome[]];
export const disputeOutcomeLabel = (value: string): string => DISPUTE_OUTCOMES.find((o) => o.value === value)?.label ?? value;

export type DisputeStatus = 'open' | 'resolved';

/** The customer's description and support's message (characters after stripping HTML). */
export const DISPUTE_DESCRIPTION_MAX_LENGTH = 5000;
export const DISPUTE_RESOLUTION_MESSAGE_MAX_LENGTH = 2000;
/** Files one dispute may carry. */
export const DISPUTE_MAX_FILES = 5;
/** ADR 0087: support answers a dispute within this many hours (the customer sees the date). */
export const DISPUTE_ANSWER_HOURS = 48;
export const disputeAnswerBy = (openedAt: Date): Date => new Date(openedAt.getTime() + DISPUTE_ANSWER_HOURS * HOUR_MS);

export const DISPUTE_MESSAGE = {
  reasonInvalid: 'Choose a reason from the list.',
  descriptionRequired: 'Describe what went wrong.',
  descriptionTooLong: `At most ${DISPUTE_DESCRIPTION_MAX_LENGTH} characters`,
  tooManyFiles: `At most ${DISPUTE_MAX_FILES} files`,
  filesAfterFields: 'Send the reason and the description before the files.',
  notPaid: 'Only a paid order can be disputed.',
  closed: 'This order is closed: it can no longer be disputed.',
  alreadyOpen: 'A dispute on this order is already open: support will answer it.',
  opened: 'Your dispute was sent to support.',
  alreadyResolved: 'This dispute was already resolved.',
  messageRequired: 'Write the customer a message.',
  messageTooLong: `At most ${DISPUTE_RESOLUTION_MESSAGE_MAX_LENGTH} characters`,
  amountRequired: 'Enter the amount to refund.',
  amountInvalid: 'Enter an amount greater than 0 with at most 2 decimals.',
  deadlineRequired: 'Choose the new deadline.',
  writerRequired: 'Choose the writer.',
  notInWork: 'This order is no longer in work: its deadline and writer cannot change.',
  resolved: 'The dispute is resolved.',
} as const;

/** The refund over what is left: said with the amount, so support sees the limit. */
export const refundOverLimitMessage = (leftCents: number): string =>
  `The refund can be at most ${formatUsd(leftCents)}, what is left of what was paid.`;

/** Statuses whose order may be disputed (paid, in work, delivered or completed). */
export const DISPUTE_STATUSES: readonly number[] = [S.paid, S.inProgress, S.completed, S.hold, S.modified];
/** Statuses in which an outcome may still move the deadline or the writer. */
export const DISPUTE_WORK_STATUSES: readonly number[] = [S.paid, S.inProgress, S.hold];

/** Whether the customer may open a dispute on the order now. */
export const disputeOpenProblem = (f: { statusId: number; paidCents: number }): string | null => {
  if (f.statusId === S.canceled || f.statusId === S.refunded) return DISPUTE_MESSAGE.closed;
  if (!DISPUTE_STATUSES.includes(f.statusId) || f.paidCents <= 0) return DISPUTE_MESSAGE.notPaid;
  return null;
};
