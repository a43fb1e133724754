import type { PaymentSystem } from '@app/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../../db/client';
import { recordRefund } from '../transactions';
import type { PaymentRow } from './payments.repo';
import { createRefundsRepo } from './payments.refunds.repo';
import type { PaymentEvent } from './providers/types';

/**
 * Issue 8 "Refunds and late events": a provider's verified refund or chargeback event, in the transaction
 * that stored the event (so once per provider event). It writes the refund row, one per paid attempt
 * whoever reports it first (support's status change writes under the same key), and moves the order to
 * refunded (7).
 */
export const applyProviderRefund = async (
  tx: Queryable,
  { provider, payment, event, now, log }: { provider: PaymentSystem; payment: PaymentRow; event: PaymentEvent; now: Date; log: FastifyBaseLogger },
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
  if (refundId === null) log.info({ provider, paymentId: payment.id, eventId: event.eventId }, 'provider refund of an attempt already refunded');
  const moved = await createRefundsRepo(tx).markOrderRefunded({ orderId: payment.orderId, paymentId: payment.id, now });
  if (!moved) log.info({ provider, paymentId: payment.id, orderId: payment.orderId }, 'provider refund left the order status as it was');
};
