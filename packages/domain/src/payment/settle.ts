// The zod-free money rules of ADR 0034: what an order asks to be paid now, whether a paid
// callback may settle it, and what a forced edit of a paid order owes either way. Integer cents only.

import { ORDER_STATUS } from '../order/rules/index';
import type { PaymentState } from './state';

/**
 * An attempt pays the whole price of an unpaid order, the difference a forced edit added, or the
 * difference of an upgrade of a paid order (ADR 0086; its charge is the upgrade's, not the order's).
 */
export const PAYMENT_KIND = { full: 'full', difference: 'difference', upgrade: 'upgrade' } as const;
export type PaymentKind = (typeof PAYMENT_KIND)[keyof typeof PAYMENT_KIND];

/** What the order asks to be paid right now. */
export interface OrderCharge {
  kind: PaymentKind;
  amountCents: number;
}

/**
 * The charge an order stands for: an unpaid order (1) its whole price; a modified order (10) whose
 * forced edit raised the price, the difference still due; anything else nothing (null).
 */
export const orderCharge = (order: { statusId: number; finalPriceCents: number; amountDueCents: number }): OrderCharge | null => {
  if (order.statusId === ORDER_STATUS.unpaid)
    return order.finalPriceCents > 0 ? { kind: PAYMENT_KIND.full, amountCents: order.finalPriceCents } : null;
  if (order.statusId === ORDER_STATUS.modified && order.amountDueCents > 0)
    return { kind: PAYMENT_KIND.difference, amountCents: order.amountDueCents };
  return null;
};

/** Why money that arrived was parked for support instead of settling its order. */
export const UNAPPLIED_REASON = {
  /** The order was edited after the checkout opened: the attempt was canceled. */
  attemptCanceled: 'attempt_canceled',
  /** The provider had declined the attempt, then said it was paid. */
  attemptDeclined: 'attempt_declined',
  /** The provider reports another amount than the attempt asked for. */
  amountMismatch: 'amount_mismatch',
  /** The provider reports another currency than the attempt asked for. */
  currencyMismatch: 'currency_mismatch',
  /** The attempt's amount is no longer what the order asks (its price changed). */
  priceChanged: 'price_changed',
  /** The order asks for nothing (already paid by another attempt, canceled, …). */
  orderNotPayable: 'order_not_payable',
} as const;
export type UnappliedReason = (typeof UNAPPLIED_REASON)[keyof typeof UNAPPLIED_REASON];
export const UNAPPLIED_REASONS: readonly UnappliedReason[] = Object.values(UNAPPLIED_REASON);

export type SettleDecision =
  | { action: 'ignore' }
  | { action: 'apply'; kind: PaymentKind }
  | { action: 'park'; reason: UnappliedReason; amountCents: number; currency: string };

/**
 * ADR 0034: a verified `paid` event settles its order only when the money is exactly what the order asks
 * for now. Money that arrives otherwise is parked (never dropped, never applied). An attempt already
 * settled (paid, parked, refunded) ignores a repeat.
 */
export const settlePaidEvent = ({
  attempt,
  received,
  charge,
}: {
  attempt: { state: PaymentState; kind: PaymentKind; amountCents: number; currency: string };
  received: { amountCents: number | null; currency: string | null };
  charge: OrderCharge | null;
}): SettleDecision => {
  if (attempt.state === 'paid' || attempt.state === 'parked' || attempt.state === 'refunded') return { action: 'ignore' };
  const amountCents = received.amountCents ?? attempt.amountCents;
  const currency = (received.currency ?? attempt.currency).toUpperCase();
  const park = (reason: UnappliedReason): SettleDecision => ({ action: 'park', reason, amountCents, currency });
  if (attempt.state === 'canceled') return park(UNAPPLIED_REASON.attemptCanceled);
  if (attempt.state === 'declined') return park(UNAPPLIED_REASON.attemptDeclined);
  if (currency !== attempt.currency.toUpperCase()) return park(UNAPPLIED_REASON.currencyMismatch);
  if (amountCents !== attempt.amountCents) return park(UNAPPLIED_REASON.amountMismatch);
  if (charge === null) return park(UNAPPLIED_REASON.orderNotPayable);
  if (charge.kind !== attempt.kind || charge.amountCents !== attempt.amountCents) return park(UNAPPLIED_REASON.priceChanged);
  return { action: 'apply', kind: attempt.kind };
};

/** What a paid order owes or is owed after a forced edit. */
export interface ForcedEditBalance {
  /** The difference the customer is asked to pay (the order's amount due). */
  amountDueCents: number;
  /** The difference support is to refund (one open refund claim). */
  refundDueCents: number;
}

/**
 * ADR 0034: a forced edit of a paid order (status 10). What the customer has paid and still holds is the
 * price before the edit, less what was still due, plus what was still to be refunded; the new price is
 * compared with that. Above it: the difference is due. Below it: the difference is to be refunded.
 */
export const forcedEditBalance = ({
  previousPriceCents,
  previousDueCents,
  previousRefundDueCents,
  newPriceCents,
}: {
  previousPriceCents: number;
  previousDueCents: number;
  previousRefundDueCents: number;
  newPriceCents: number;
}): ForcedEditBalance => {
  for (const v of [previousPriceCents, previousDueCents, previousRefundDueCents, newPriceCents]) {
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`cents must be a non-negative integer, got ${v}`);
  }
  const held = previousPriceCents - previousDueCents + previousRefundDueCents;
  const delta = newPriceCents - held;
  return { amountDueCents: Math.max(delta, 0), refundDueCents: Math.max(-delta, 0) };
};

/** What the customer's order page says when money was parked (ADR 0034; SPEC has no text). */
export const UNAPPLIED_PAYMENT_MESSAGE = 'We received a payment that did not match the order price; support will contact you.';
