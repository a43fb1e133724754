import type { PaymentSystem } from '@app/domain';
import type { Logger } from '../../lib/logger';
import type { Queryable } from '../../db/client';
import { reversePointsForOrder } from '../loyalty';
import { recordRefund } from '../transactions';
import { createPaymentsRepo, type PaymentRow } from './payments.repo';
import { createRefundsRepo } from './payments.refunds.repo';
import type { PaymentEvent } from './providers/types';

/**
 * ADR 0035, 0036 (refunds and late events): a provider's verified refund or chargeback event, in the transaction
 * that stored the event (so once per provider event). It writes the refund row, one per paid attempt
 * whoever reports it first (support's status change writes under the same key), and moves the order to
 * refunded (7).
 */
export const applyProviderRefund = async (
  tx: Queryable,
  { provider, payment, event, now, log }: { provider: PaymentSystem; payment: PaymentRow; event: PaymentEvent; now: Date; log: Logger },
): Promise<void> => {
  const refundId = await recordRefund(tx, {
    orderId: payment.orderId,
    paymentId: payment.id,
    provider,
    amountCents: event.amountCents ?? payment.amountCents,
    currency: payment.currency,
    sandbox: payment.sandbox,
    now,
  });
  if (refundId === null)
    log.info({ provider, paymentId: payment.id, eventId: event.eventId }, 'provider refund of an attempt already refunded');
  const moved = await createRefundsRepo(tx).markOrderRefunded({ orderId: payment.orderId, paymentId: payment.id, now });
  if (!moved) log.info({ provider, paymentId: payment.id, orderId: payment.orderId }, 'provider refund left the order status as it was');
  // ADR 0050: the order's loyalty points are taken back, once.
  else await reversePointsForOrder(tx, { orderId: payment.orderId, now });
};

/**
 * ADR 0035 (late events): a refund or chargeback the provider sent before the payment's own paid event
 * (webhooks arrive in any order) was stored but could not apply. Once the attempt is paid, in the same
 * transaction, that refund applies: the attempt ends refunded, the order at 7, one refund row.
 */
export const applyRefundReceivedEarlier = async (
  tx: Queryable,
  { provider, payment, now, log }: { provider: PaymentSystem; payment: PaymentRow; now: Date; log: Logger },
): Promise<void> => {
  const eventId = await createRefundsRepo(tx).takeEarlierRefundEvent(payment.id);
  if (eventId === null) return;
  if (!(await createPaymentsRepo(tx).moveState(payment.id, 'paid', 'refunded', now))) return;
  log.warn({ provider, paymentId: payment.id, eventId }, 'a refund that arrived before the payment now applies');
  await applyProviderRefund(tx, {
    provider,
    payment,
    event: { eventId, paymentId: payment.id, status: 'refunded', amountCents: null, currency: null },
    now,
    log,
  });
};
