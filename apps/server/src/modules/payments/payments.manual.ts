import { randomBytes } from 'node:crypto';
import {
  AUDIT_ACTION,
  DomainError,
  ERROR_CODE,
  formatUsd,
  MANUAL_PAYMENT_PROVIDER,
  orderCharge,
  PAYMENT_CURRENCY,
  STAFF_MESSAGE,
} from '@app/domain';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import type { Actor } from '../../lib/actor';
import { createPaymentsRepo } from './payments.repo';
import { createSettleRepo } from './payments.settle.repo';
import { settlePaid } from './payments.settle';
import { notFound } from '../../lib/errors';
import { orderAuditState, recordAudit } from '../audit';

/**
 * ADR 0071: a payment support records by hand (a bank transfer), with its reference. It is an attempt of
 * provider `manual` for exactly what the order asks now, settled at once through the same path as a
 * provider's paid event (ADR 0034): one payment transaction, the order's move by money (1 → 2, or 10 → 2
 * for a forced edit's difference) through the transition table, the loyalty points earned (ADR 0050).
 */
export const createManualPayments = ({ db, clock, log }: { db: Db; clock: Clock; log: Logger }) => ({
  async recordManualPayment({
    orderId,
    reference,
    amountCents,
    actor,
  }: {
    orderId: number;
    reference: string;
    /** When sent, it must equal what the order asks now. */
    amountCents: number | undefined;
    actor: Actor;
  }): Promise<{ paymentId: string }> {
    return db.transaction(async (tx) => {
      const now = clock.now();
      const order = await createSettleRepo(tx).lockOrder(orderId);
      if (!order) throw notFound();
      const before = await orderAuditState(tx, orderId);
      const charge = orderCharge(order);
      if (!charge) throw new DomainError(ERROR_CODE.conflict, STAFF_MESSAGE.nothingToPay);
      if (amountCents !== undefined && amountCents !== charge.amountCents) {
        const message = `${STAFF_MESSAGE.amountMismatch} (${formatUsd(charge.amountCents)})`;
        throw new DomainError(ERROR_CODE.validation, message, { amount: [message] });
      }
      const payment = await createPaymentsRepo(tx).insertManualAttempt({
        id: randomBytes(18).toString('base64url'),
        orderId,
        customerId: order.customerId,
        charge,
        currency: PAYMENT_CURRENCY,
        reference,
        recordedBy: actor.userId,
        now,
      });
      if (!payment) throw new DomainError(ERROR_CODE.conflict, STAFF_MESSAGE.referenceUsed);
      const settled = await settlePaid(tx, {
        provider: MANUAL_PAYMENT_PROVIDER,
        payment,
        event: {
          eventId: `manual:${payment.id}`,
          paymentId: payment.id,
          status: 'paid',
          amountCents: charge.amountCents,
          currency: PAYMENT_CURRENCY,
        },
        now,
        log,
        actor,
      });
      // The order is locked and the attempt asks exactly its charge: settling cannot park it.
      if (!settled.changed) throw new Error(`the manual payment of order ${orderId} did not settle`);
      // ADR 0090: the audit entry in the payment's transaction.
      await recordAudit(tx, {
        actor,
        action: AUDIT_ACTION.orderPayment,
        orderId,
        before,
        after: {
          ...(await orderAuditState(tx, orderId)),
          payment: { amount: charge.amountCents / 100, reference, provider: MANUAL_PAYMENT_PROVIDER },
        },
        at: now,
      });
      log.info({ orderId, paymentId: payment.id, amountCents: charge.amountCents, staffId: actor.userId }, 'manual payment recorded');
      return { paymentId: payment.id };
    });
  },
});
export type ManualPayments = ReturnType<typeof createManualPayments>;
