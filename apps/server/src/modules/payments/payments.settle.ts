import {
  AUDIT_ACTION,
  centsToAmount,
  DomainError,
  ERROR_CODE,
  forcedEditBalance,
  ORDER_STATUS,
  orderCharge,
  PAYMENT_KIND,
  PAYMENT_CURRENCY,
  settlePaidEvent,
  formatUsd,
  STAFF_MESSAGE,
  type OrderCharge,
  type MoneyProvider,
} from '@app/domain';
import type { Logger } from '../../lib/logger';
import type { Db, Queryable } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { earnPointsForPayment } from '../loyalty';
import type { Actor } from '../../lib/actor';
import { applyParkedPayment, recordPaymentTransaction } from '../transactions';
import { createPaymentsRepo, type PaymentRow } from './payments.repo';
import { applyRefundReceivedEarlier, refundOrder } from './payments.refunds';
import { createSettleRepo } from './payments.settle.repo';
import { applyPaidUpgrade, lockedUpgradeCharge } from './payments.upgrades';
import type { PaymentEvent } from './providers/types';
import { notFound } from '../../lib/errors';
import { recordAudit } from '../audit';
import { notify } from '../notifications';

/**
 * ADR 0034: a verified `paid` event, inside the transaction that locked its attempt. The order
 * is locked next and its current charge decides: the exact money settles it; any other money (a canceled
 * or declined attempt, another amount or currency, a changed price, an order already paid) is parked:
 * recorded, not applied, listed for support, logged, and shown on the order.
 */
export const settlePaid = async (
  tx: Queryable,
  {
    provider,
    payment,
    event,
    now,
    log,
    actor = null,
  }: {
    provider: MoneyProvider;
    payment: PaymentRow;
    event: PaymentEvent;
    now: Date;
    log: Logger;
    /** Who settled it: null for a provider's event, the support account for a payment recorded by hand (ADR 0071). */
    actor?: Actor | null;
  },
): Promise<{ changed: boolean }> => {
  const repo = createPaymentsRepo(tx);
  const settle = createSettleRepo(tx);
  const order = await settle.lockOrder(payment.orderId);
  const kind = await settle.attemptKind(payment.id);
  // ADR 0086: an upgrade's attempt is charged what its upgrade asks now (the order itself asks nothing once paid).
  const charge: OrderCharge | null = !order
    ? null
    : kind === PAYMENT_KIND.upgrade
      ? await lockedUpgradeCharge(tx, { payment, now })
      : orderCharge(order);
  const decision = settlePaidEvent({
    attempt: { state: payment.state, kind, amountCents: payment.amountCents, currency: payment.currency },
    received: { amountCents: event.amountCents, currency: event.currency },
    charge,
  });
  const fresh = await repo.insertEvent({
    provider,
    eventId: event.eventId,
    paymentId: payment.id,
    status: 'paid',
    applied: decision.action === 'apply',
    now,
  });
  if (!fresh || decision.action === 'ignore') return { changed: false };

  if (decision.action === 'park') {
    if (!(await repo.moveState({ id: payment.id, from: payment.state, to: 'parked', now }))) return { changed: false };
    await settle.insertUnapplied({
      paymentId: payment.id,
      orderId: payment.orderId,
      customerId: payment.customerId,
      provider,
      eventId: event.eventId,
      amountCents: decision.amountCents,
      currency: decision.currency,
      reason: decision.reason,
      now,
    });
    // The money is in /transactions too, marked as not applied (never lost from view).
    if (decision.amountCents > 0) {
      await recordPaymentTransaction(tx, {
        customerId: payment.customerId,
        orderId: payment.orderId,
        paymentId: payment.id,
        provider,
        amountCents: decision.amountCents,
        currency: decision.currency,
        sandbox: payment.sandbox,
        now,
        status: 'unapplied',
      });
    }
    await settle.refreshPending(payment.orderId, now);
    log.warn(
      {
        provider,
        paymentId: payment.id,
        orderId: payment.orderId,
        reason: decision.reason,
        receivedCents: decision.amountCents,
        currency: decision.currency,
        attemptCents: payment.amountCents,
        orderChargeCents: charge?.amountCents ?? null,
      },
      'payment parked for support: the money does not match what the order asks now',
    );
    return { changed: true };
  }

  if (!(await repo.moveState({ id: payment.id, from: payment.state, to: 'paid', now }))) return { changed: false };
  if (decision.kind === PAYMENT_KIND.upgrade) {
    // ADR 0086: the order takes the upgrade first, so the receipt of this payment shows the order it paid for.
    await applyPaidUpgrade(tx, { payment, now });
    log.info(
      { provider, paymentId: payment.id, orderId: payment.orderId, amountCents: payment.amountCents },
      'order upgrade paid and applied',
    );
  }
  await recordPaymentTransaction(tx, {
    customerId: payment.customerId,
    orderId: payment.orderId,
    paymentId: payment.id,
    provider,
    amountCents: payment.amountCents,
    currency: payment.currency,
    sandbox: payment.sandbox,
    now,
  });
  // The order is locked and its charge was this attempt's: the move cannot miss (an upgrade moves no status).
  const moved =
    decision.kind === PAYMENT_KIND.upgrade
      ? true
      : decision.kind === PAYMENT_KIND.full
        ? await repo.markOrderPaid({ orderId: payment.orderId, now, actor })
        : await settle.markDifferencePaid({ orderId: payment.orderId, amountCents: payment.amountCents, now, actor });
  if (!moved) throw new Error(`order ${payment.orderId} did not move although its charge matched`);
  await settle.refreshPending(payment.orderId, now);
  // ADR 0050: the payment's loyalty points, once per payment, in this transaction.
  await earnPointsForPayment(tx, {
    paymentId: payment.id,
    orderId: payment.orderId,
    customerId: payment.customerId,
    amountCents: payment.amountCents,
    now,
  });
  // ADR 0088: the customer is told, the receipt goes with the mail.
  await notify(tx, {
    userId: payment.customerId,
    type: 'payment_received',
    orderId: payment.orderId,
    facts: { amountCents: payment.amountCents, paymentId: payment.id },
    now,
  });
  // ADR 0036: a provider refund that arrived before this paid event applies now.
  await applyRefundReceivedEarlier(tx, { provider, payment: { ...payment, state: 'paid' }, now, log });
  return { changed: true };
};

/**
 * What the orders module calls inside the transaction of an edit (ADR 0034). Before the update the
 * order's open attempts are locked (a callback locks its attempt, then the order). After it, a forced
 * edit of a paid order (10) gets its difference (due when the price rose, an open refund claim when it
 * fell), and every open attempt that no longer asks exactly what the order asks is canceled: its late
 * callback parks the money instead of paying the order.
 */
export const orderEditMoney = {
  async beforeEdit(tx: Queryable, { orderId }: { orderId: number; now: Date }): Promise<void> {
    await createSettleRepo(tx).lockOpenAttempts(orderId);
  },

  async afterEdit(
    tx: Queryable,
    e: {
      orderId: number;
      customerId: number;
      statusId: number;
      previousPriceCents: number;
      previousDueCents: number;
      newPriceCents: number;
      now: Date;
    },
  ): Promise<void> {
    const settle = createSettleRepo(tx);
    let amountDueCents = 0;
    if (e.statusId === ORDER_STATUS.modified) {
      const balance = forcedEditBalance({
        previousPriceCents: e.previousPriceCents,
        previousDueCents: e.previousDueCents,
        previousRefundDueCents: await settle.openRefundClaimCents(e.orderId),
        newPriceCents: e.newPriceCents,
      });
      amountDueCents = balance.amountDueCents;
      await settle.setAmountDue({ orderId: e.orderId, cents: balance.amountDueCents, now: e.now });
      await settle.setRefundClaim({
        orderId: e.orderId,
        customerId: e.customerId,
        amountCents: balance.refundDueCents,
        currency: PAYMENT_CURRENCY,
        now: e.now,
      });
    }
    await settle.cancelStaleAttempts({
      orderId: e.orderId,
      charge: orderCharge({ statusId: e.statusId, finalPriceCents: e.newPriceCents, amountDueCents }),
      now: e.now,
    });
    await settle.refreshPending(e.orderId, e.now);
  },
};

/** Support's side (ADR 0035): money that did not settle its order, open refund claims, and closing a claim. */
export const createMoneySupport = ({ db, clock, log }: { db: Db; clock: Clock; log: Logger }) => ({
  async unapplied() {
    const rows = await createSettleRepo(db).listUnapplied();
    return {
      payments: rows.map((r) => ({
        paymentId: r.paymentId,
        orderId: r.orderId,
        customerId: r.customerId,
        customerEmail: r.customerEmail,
        provider: r.provider,
        amount: centsToAmount(r.amountCents),
        currency: r.currency,
        reason: r.reason,
        receivedAt: r.receivedAt.toISOString(),
      })),
    };
  },

  /**
   * ADR 0089: support applies parked money to its order, when it is exactly what the order asks now (in
   * USD): the attempt becomes paid, its payment row (recorded as not applied) completed with its receipt,
   * the order paid through the transition table, the points earned; the row leaves the queue. Locks in the
   * callback's order: the attempt, the order, then the parked row. 409 naming what the order asks otherwise.
   */
  async applyUnapplied({ paymentId, actor }: { paymentId: string; actor: Actor }): Promise<{ paymentId: string; orderId: number }> {
    return db.transaction(async (tx) => {
      const repo = createPaymentsRepo(tx);
      const settle = createSettleRepo(tx);
      const seen = await repo.find(paymentId);
      if (!seen) throw notFound();
      const payment = await repo.lock(paymentId, seen.provider);
      const order = payment ? await settle.lockOrder(payment.orderId) : null;
      const parked = await settle.lockUnapplied(paymentId);
      if (!payment || !order || !parked) throw notFound();
      const charge = orderCharge(order);
      if (!charge) throw new DomainError(ERROR_CODE.conflict, STAFF_MESSAGE.nothingToPay);
      if (parked.currency !== PAYMENT_CURRENCY || parked.amountCents !== charge.amountCents) {
        throw new DomainError(
          ERROR_CODE.conflict,
          `The payment (${formatUsd(parked.amountCents)} ${parked.currency}) does not match what the order asks now (${formatUsd(charge.amountCents)}): refund it instead`,
        );
      }
      const now = clock.now();
      if (!(await repo.moveState({ id: payment.id, from: 'parked', to: 'paid', now })))
        throw new DomainError(ERROR_CODE.conflict, 'The payment changed meanwhile');
      await applyParkedPayment(tx, { paymentId, now });
      const moved =
        charge.kind === 'full'
          ? await repo.markOrderPaid({ orderId: order.id, now, actor })
          : await settle.markDifferencePaid({ orderId: order.id, amountCents: charge.amountCents, now, actor });
      if (!moved) throw new DomainError(ERROR_CODE.conflict, STAFF_MESSAGE.nothingToPay);
      await settle.refreshPending(order.id, now);
      await earnPointsForPayment(tx, { paymentId, orderId: order.id, customerId: order.customerId, amountCents: charge.amountCents, now });
      await settle.resolveUnapplied({ paymentId, resolution: 'applied', staffId: actor.userId, now });
      // ADR 0090: the audit entry in the money's transaction.
      await recordAudit(tx, {
        actor,
        action: AUDIT_ACTION.unappliedApply,
        orderId: order.id,
        before: { paymentId, unapplied: true, amount: parked.amountCents / 100 },
        after: { paymentId, unapplied: false, appliedTo: order.id },
        at: now,
      });
      log.info(
        { paymentId, orderId: order.id, amountCents: charge.amountCents, staffId: actor.userId },
        'unapplied payment applied by support',
      );
      return { paymentId, orderId: order.id };
    });
  },

  /**
   * ADR 0089: support gives parked money back, through the one refund use case (ADR 0072, kind
   * `unapplied`): one refund row with its credit note, the attempt refunded, the row leaves the queue.
   */
  async refundUnapplied({
    paymentId,
    actor,
    reason,
  }: {
    paymentId: string;
    actor: Actor;
    reason: string;
  }): Promise<{ paymentId: string; orderId: number; transactionId: number }> {
    return db.transaction(async (tx) => {
      const repo = createPaymentsRepo(tx);
      const settle = createSettleRepo(tx);
      const seen = await repo.find(paymentId);
      if (!seen) throw notFound();
      const payment = await repo.lock(paymentId, seen.provider);
      const order = payment ? await settle.lockOrder(payment.orderId) : null;
      const parked = await settle.lockUnapplied(paymentId);
      if (!payment || !order || !parked) throw notFound();
      const now = clock.now();
      const outcome = await refundOrder(tx, {
        orderId: order.id,
        request: {
          kind: 'unapplied',
          paymentId,
          provider: parked.provider,
          amountCents: parked.amountCents,
          currency: parked.currency,
          sandbox: payment.sandbox,
        },
        actor,
        reason,
        now,
        log,
      });
      const [transactionId] = outcome.transactionIds;
      if (transactionId === undefined) throw new DomainError(ERROR_CODE.conflict, 'This payment is already refunded');
      await repo.moveState({ id: payment.id, from: 'parked', to: 'refunded', now });
      await settle.resolveUnapplied({ paymentId, resolution: 'refunded', staffId: actor.userId, now });
      await recordAudit(tx, {
        actor,
        action: AUDIT_ACTION.unappliedRefund,
        orderId: order.id,
        before: { paymentId, unapplied: true, amount: parked.amountCents / 100 },
        after: { paymentId, refunded: true, transactionId, reason },
        at: now,
      });
      log.info(
        { paymentId, orderId: order.id, amountCents: parked.amountCents, staffId: actor.userId },
        'unapplied payment refunded by support',
      );
      return { paymentId, orderId: order.id, transactionId };
    });
  },

  async refundClaims() {
    const rows = await createSettleRepo(db).listRefundClaims();
    return {
      claims: rows.map((r) => ({
        id: r.id,
        orderId: r.orderId,
        customerId: r.customerId,
        customerEmail: r.customerEmail,
        amount: centsToAmount(r.amountCents),
        currency: r.currency,
        createdAt: r.createdAt.toISOString(),
      })),
    };
  },

  /**
   * Support refunded the claim at the provider: the one refund use case (ADR 0072) writes its refund row
   * and takes back the points in proportion; the claim is closed. The order is locked before the claim,
   * in the order a forced edit takes them.
   */
  async refundClaim({ claimId, actor }: { claimId: number; actor: Actor }): Promise<{ id: number; transactionId: number }> {
    return db.transaction(async (tx) => {
      const settle = createSettleRepo(tx);
      const orderId = await settle.claimOrder(claimId);
      if (orderId === null || !(await settle.lockOrder(orderId))) throw notFound();
      const claim = await settle.lockOpenClaim(claimId);
      if (!claim) throw notFound();
      if (!claim.provider) throw new DomainError(ERROR_CODE.conflict, 'The order has no settled payment to refund');
      const now = clock.now();
      const outcome = await refundOrder(tx, {
        orderId: claim.orderId,
        request: { kind: 'claim', claimId: claim.id, provider: claim.provider, amountCents: claim.amountCents, currency: claim.currency },
        actor,
        reason: `Refund claim #${claim.id}`,
        now,
        log,
      });
      const [transactionId] = outcome.transactionIds;
      if (transactionId === undefined) throw notFound();
      await settle.closeClaim({ claimId: claim.id, transactionId, now });
      // ADR 0090: the audit entry in the refund's transaction.
      await recordAudit(tx, {
        actor,
        action: AUDIT_ACTION.refundClaim,
        orderId: claim.orderId,
        before: { claimId: claim.id, open: true, amount: claim.amountCents / 100 },
        after: { claimId: claim.id, open: false, refunded: claim.amountCents / 100, transactionId },
        at: now,
      });
      log.info({ claimId: claim.id, orderId: claim.orderId, amountCents: claim.amountCents }, 'refund claim refunded');
      return { id: claim.id, transactionId };
    });
  },

  /** The order page's flags: money parked for support, and the difference a forced edit left to pay. */
  async orderMoney({ customerId, orderId }: { customerId: number; orderId: number }) {
    return createSettleRepo(db).orderMoney(customerId, orderId);
  },
});
export type MoneySupport = ReturnType<typeof createMoneySupport>;
