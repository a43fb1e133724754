// The zod-free rules of a payment attempt (ADR 0020): forward-only states, exactly-once settlement.

/**
 * A payment attempt's states (ADR 0024): created → pending → paid | declined; paid → refunded.
 * ADR 0034: an edit of the order cancels its open attempts (created, pending → canceled); money
 * that arrives and may not settle the order (a canceled or declined attempt, another amount, a changed
 * price) parks the attempt (→ parked) for support; parked money may be refunded.
 */
export const PAYMENT_STATE = {
  created: 'created',
  pending: 'pending',
  paid: 'paid',
  declined: 'declined',
  refunded: 'refunded',
  canceled: 'canceled',
  parked: 'parked',
} as const;
export type PaymentState = (typeof PAYMENT_STATE)[keyof typeof PAYMENT_STATE];
export const PAYMENT_STATES: readonly PaymentState[] = Object.values(PAYMENT_STATE);

/** What a verified provider event says about an attempt. */
export type PaymentEventStatus = 'pending' | 'paid' | 'declined' | 'refunded';

const FORWARD: Record<PaymentState, readonly PaymentState[]> = {
  created: ['pending', 'paid', 'declined', 'canceled', 'parked'],
  pending: ['paid', 'declined', 'canceled', 'parked'],
  paid: ['refunded'],
  declined: ['parked'],
  refunded: [],
  canceled: ['parked'],
  parked: ['refunded'],
};

/** Whether an attempt may move from one state to another (forward only). */
export const canMovePayment = (from: PaymentState, to: PaymentState): boolean => FORWARD[from].includes(to);

/**
 * ADR 0024: the state an event moves an attempt to, or null when it changes nothing
 * (a duplicate, an event arriving after a later one, or a move backwards).
 */
export const nextPaymentState = (current: PaymentState, event: PaymentEventStatus): PaymentState | null =>
  FORWARD[current].includes(event) ? event : null;

/** CONTRACT "Errors and access": money is USD. */
export const PAYMENT_CURRENCY = 'USD';

/** A pending attempt older than this is asked about at its provider when the return page checks it. */
export const PAYMENT_STATUS_QUERY_AFTER_MS = 5_000;

/** What the return page is told (GET /api/en/orders/{id}/payment). */
export type PaymentReturnStatus = 'none' | 'pending' | 'paid' | 'declined';

/**
 * The order's payment status from its attempts, newest first: any paid (or later refunded) attempt
 * makes it paid; otherwise the newest attempt decides; no attempt at all is 'none'. ADR 0034: attempts an
 * edit canceled are left out, and a parked attempt did not pay the order (it reads as declined; the
 * status view says separately that money is waiting for support).
 */
export const paymentReturnStatus = (attemptsNewestFirst: readonly PaymentState[]): PaymentReturnStatus => {
  if (attemptsNewestFirst.some((s) => s === 'paid' || s === 'refunded')) return 'paid';
  const newest = attemptsNewestFirst.find((s) => s !== 'canceled');
  if (newest === undefined) return 'none';
  return newest === 'declined' || newest === 'parked' ? 'declined' : 'pending';
};

/** SPEC §7: the checkout paths name paycore "paycoreio". */
export const CHECKOUT_PATH_PROVIDER = { paymentwall: 'paymentwall', paycoreio: 'paycore', fondy: 'fondy' } as const;
