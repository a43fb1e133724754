import {
  DomainError,
  ERROR_CODE,
  fullRefundParts,
  isFullyRefunded,
  MOVE_BY,
  ORDER_STATUS,
  refundableCents,
  refundOverLimitMessage,
  STAFF_MESSAGE,
  assertOrderMove,
  type MoneyProvider,
} from '@app/domain';
import type { Logger } from '../../lib/logger';
import type { Queryable } from '../../db/client';
import { takeBackPointsForRefund } from '../loyalty';
import type { Actor } from '../../lib/actor';
import { orderWrites } from '../orders';
import { readOrderMoney, recordRefund, type NewRefund } from '../transactions';
import { createPaymentsRepo, type PaymentRow } from './payments.repo';
import { createRefundsRepo } from './payments.refunds.repo';
import type { PaymentEvent } from './providers/types';
import { notFound } from '../../lib/errors';
import { notify } from '../notifications';

/** What a refund gives back (ADR 0072). */
export type RefundRequest =
  /** A provider's verified refund or chargeback of one paid attempt (its amount, at most what is left). */
  | { kind: 'provider'; payment: PaymentRow; amountCents: number }
  /**
   * Everything still paid: support's refund (`moveTo` 7, the order is refunded) or a paid order's cancel
   * (`moveTo` null: the caller moves it to 8 in the same transaction).
   */
  | { kind: 'full'; moveTo: typeof ORDER_STATUS.refunded | null }
  /** A refund claim support refunded at the provider (ADR 0035): its amount, a partial refund. */
  | { kind: 'claim'; claimId: number; provider: MoneyProvider; amountCents: number; currency: string }
  /**
   * ADR 0087: an amount support decided (a dispute's partial refund), at most what is left (409 naming the
   * limit otherwise), given back on the latest payment's provider; `key` makes it once (`dispute:<id>`).
   */
  | { kind: 'amount'; key: string; amountCents: number }
  /**
   * ADR 0089: parked money (an unapplied payment) support gives back: it was never the order's, so the
   * order's refundable money, its points and its status stay as they are; one refund row, once per payment.
   */
  | { kind: 'unapplied'; paymentId: string; provider: MoneyProvider; amountCents: number; currency: string; sandbox: boolean };

export interface RefundOutcome {
  /** The refund rows written now (none when this refund was already recorded). */
  transactionIds: number[];
  refundedCents: number;
  pointsTakenBack: number;
  voidedCode: string | null;
  /** The order moved to refunded (7). */
  orderRefunded: boolean;
}

const NOTHING: RefundOutcome = { transactionIds: [], refundedCents: 0, pointsTakenBack: 0, voidedCode: null, orderRefunded: false };

/**
 * ADR 0072, the one refund use case. Every refund path calls it, inside its own transaction: a provider's
 * refund or chargeback event, support's refund (status 7), a paid order's cancel (status 8), a refund claim
 * marked refunded. Under the order's row lock it writes the refund transaction(s) once (the refund key:
 * one per paid attempt, one per claim), takes back the loyalty points the order earned in proportion to
 * the money refunded (voiding an unused code bought with them rather than letting the balance go below 0),
 * and moves the order to refunded (7) through the transition table once all its money is given back.
 */
export const refundOrder = async (
  tx: Queryable,
  {
    orderId,
    request,
    actor,
    reason,
    now,
    log,
  }: { orderId: number; request: RefundRequest; actor: Actor | null; reason: string; now: Date; log: Logger },
): Promise<RefundOutcome> => {
  const writes = orderWrites(tx);
  const order = await writes.lockForMove(orderId);
  if (!order) throw notFound();
  // Support's refund is a move of the table: refused (409, naming the moves allowed) before any money moves.
  if (request.kind === 'full' && request.moveTo !== null) assertOrderMove(order.statusId, request.moveTo, MOVE_BY.refund, order.facts);

  if (request.kind === 'unapplied') {
    const id = await recordRefund(tx, {
      orderId,
      paymentId: request.paymentId,
      provider: request.provider,
      amountCents: request.amountCents,
      currency: request.currency,
      sandbox: request.sandbox,
      now,
      key: `unapplied:${request.paymentId}`,
    });
    return id === null ? NOTHING : { ...NOTHING, transactionIds: [id], refundedCents: request.amountCents };
  }

  const money = await readOrderMoney(tx, orderId);
  const left = refundableCents(money);
  const refunds: NewRefund[] = [];
  if (request.kind === 'provider') {
    const { payment } = request;
    const amountCents = Math.min(request.amountCents, left);
    if (amountCents > 0)
      refunds.push({
        orderId,
        paymentId: payment.id,
        provider: payment.provider,
        amountCents,
        currency: payment.currency,
        sandbox: payment.sandbox,
        now,
      });
  } else if (request.kind === 'full') {
    for (const part of fullRefundParts(money.payments, left)) {
      const paid = money.payments.find((p) => p.paymentId === part.paymentId);
      if (!paid) continue;
      refunds.push({
        orderId,
        paymentId: part.paymentId,
        provider: paid.provider,
        amountCents: part.amountCents,
        currency: paid.currency,
        sandbox: paid.sandbox,
        now,
        // What is left of a payment refunded in part: once per order (after a full refund the order is final).
        ...(part.remainder ? { key: `remainder:order:${orderId}` } : {}),
      });
    }
    if (refunds.length === 0 && request.moveTo !== null) throw new DomainError(ERROR_CODE.conflict, STAFF_MESSAGE.nothingToRefund);
  } else if (request.kind === 'amount') {
    const paid = money.payments.at(-1);
    if (!paid || left === 0) throw new DomainError(ERROR_CODE.conflict, STAFF_MESSAGE.nothingToRefund);
    if (request.amountCents > left)
      throw new DomainError(ERROR_CODE.validation, refundOverLimitMessage(left), { amount: [refundOverLimitMessage(left)] });
    refunds.push({
      orderId,
      paymentId: null,
      provider: paid.provider,
      amountCents: request.amountCents,
      currency: paid.currency,
      sandbox: paid.sandbox,
      now,
      key: request.key,
    });
  } else {
    if (request.amountCents > left) throw new DomainError(ERROR_CODE.conflict, STAFF_MESSAGE.nothingToRefund);
    refunds.push({
      orderId,
      paymentId: null,
      provider: request.provider,
      amountCents: request.amountCents,
      currency: request.currency,
      now,
      key: `claim:${request.claimId}`,
    });
  }

  const transactionIds: number[] = [];
  let written = 0;
  for (const refund of refunds) {
    const id = await recordRefund(tx, refund);
    if (id === null) continue;
    transactionIds.push(id);
    written += refund.amountCents;
  }
  const [first] = transactionIds;
  if (first === undefined) return NOTHING;

  // ADR 0088: the customer is told of the money given back (its credit note with the mail).
  await notify(tx, {
    userId: order.customerId,
    type: 'refund_issued',
    orderId,
    facts: { amountCents: written, transactionId: first },
    now,
  });
  const refundedCents = money.refundedCents + written;
  const points = await takeBackPointsForRefund(tx, { orderId, refundTransactionId: first, paidCents: money.paidCents, refundedCents, now });
  let orderRefunded = false;
  if (isFullyRefunded({ paidCents: money.paidCents, refundedCents }) && !(request.kind === 'full' && request.moveTo === null)) {
    const moved = await writes.move({ orderId, to: ORDER_STATUS.refunded, by: MOVE_BY.refund, actor, reason, now }, order);
    orderRefunded = moved.moved;
    if (!moved.moved)
      log.info({ orderId, from: moved.from }, 'a full refund left the order status as it was (the table refuses 7 from it)');
  }
  return { transactionIds, refundedCents: written, pointsTakenBack: points.takenBack, voidedCode: points.voidedCode, orderRefunded };
};

/**
 * ADR 0035, 0036 (refunds and late events): a provider's verified refund or chargeback event, in the
 * transaction that stored the event (so once per provider event), goes through the one refund use case.
 */
export const applyProviderRefund = async (
  tx: Queryable,
  { provider, payment, event, now, log }: { provider: MoneyProvider; payment: PaymentRow; event: PaymentEvent; now: Date; log: Logger },
): Promise<void> => {
  const outcome = await refundOrder(tx, {
    orderId: payment.orderId,
    request: { kind: 'provider', payment, amountCents: event.amountCents ?? payment.amountCents },
    actor: null,
    reason: `Refund or chargeback reported by ${provider}`,
    now,
    log,
  });
  if (outcome.transactionIds.length === 0)
    log.info({ provider, paymentId: payment.id, eventId: event.eventId }, 'provider refund of an attempt already refunded');
};

/**
 * ADR 0035 (late events): a refund or chargeback the provider sent before the payment's own paid event
 * (webhooks arrive in any order) was stored but could not apply. Once the attempt is paid, in the same
 * transaction, that refund applies: the attempt ends refunded, the order at 7, one refund row.
 */
export const applyRefundReceivedEarlier = async (
  tx: Queryable,
  { provider, payment, now, log }: { provider: MoneyProvider; payment: PaymentRow; now: Date; log: Logger },
): Promise<void> => {
  const eventId = await createRefundsRepo(tx).takeEarlierRefundEvent(payment.id);
  if (eventId === null) return;
  if (!(await createPaymentsRepo(tx).moveState({ id: payment.id, from: 'paid', to: 'refunded', now }))) return;
  log.warn({ provider, paymentId: payment.id, eventId }, 'a refund that arrived before the payment now applies');
  await applyProviderRefund(tx, {
    provider,
    payment,
    event: { eventId, paymentId: payment.id, status: 'refunded', amountCents: null, currency: null },
    now,
    log,
  });
};
