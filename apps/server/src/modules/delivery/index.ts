import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { createPeriodicJob } from '../../lib/periodic-job';
import type { OrderEventType } from '@app/domain';
import type { Queryable } from '../../db/client';
import type { ReviewsService } from '../reviews';
import { createDeliveryRepo } from './delivery.repo';
import { deliveryDevRoutes, deliveryRoutes } from './delivery.routes';
import { createAfterPayment, type AfterPayment, type WriterChatSend } from './delivery.service';
/** ADR 0087: the timeline entry and support's deadline move other modules' use cases run in their transaction. */
export { extendDeadlineBySupport, recordTimelineEvent } from './delivery.service';

export type { AfterPayment };
/**
 * ADR 0086: another module's event on the order's timeline (an upgrade paid and applied), in the caller's
 * transaction; the delivery module owns `order_events` (ADR 0077).
 */
export const recordOrderEvent = (
  q: Queryable,
  e: { orderId: number; type: OrderEventType; deadline?: Date | null; note?: string | null; now: Date },
): Promise<void> => createDeliveryRepo(q).insertEvent({ ...e, actorId: null, actorRole: null });
/** The account deletion's erase step (ADR 0052, 0077). */
export { eraseCustomerTimelineNotes } from './delivery.personal-data.repo';

/**
 * ADR 0084: delivery and acceptance, the review clock, deadlines that move only with consent. Built once
 * by the composition root (the orders and staff modules read its views); `writerChat` is the chat
 * module's one send path.
 */
export const createAfterPaymentService = (
  ctx: Pick<AppContext, 'db' | 'clock' | 'log' | 'origin' | 'config' | 'mailer'>,
  { reviews, writerChat }: { reviews: Pick<ReviewsService, 'add'>; writerChat: WriterChatSend },
): AfterPayment =>
  createAfterPayment({
    db: ctx.db,
    clock: ctx.clock,
    log: ctx.log,
    origin: ctx.origin,
    mailTransport: ctx.mailer.kind,
    reviewDays: ctx.config.afterPayment.reviewDays,
    reviews,
    writerChat,
  });

/**
 * The routes, and the job from ready to close: every AFTER_PAYMENT_JOB_INTERVAL_SECONDS on every instance;
 * its state is in the database (a restart resumes it) and each item is locked with SKIP LOCKED, so one
 * instance handles it. `devRoutes` (not in production): the journeys' way to run it at a later time.
 */
export const deliveryModule: FastifyPluginAsyncZod<{
  service: AfterPayment;
  ctx: Pick<AppContext, 'config' | 'log'>;
  devAllow?: (request: FastifyRequest) => boolean;
}> = async (app, { service, ctx, devAllow }) => {
  await app.register(deliveryRoutes, { service });
  if (devAllow && ctx.config.env !== 'production') await app.register(deliveryDevRoutes, { service, allow: devAllow });
  const job = createPeriodicJob({
    intervalMs: ctx.config.afterPayment.jobIntervalMs,
    run: () => service.runOnce(),
    log: ctx.log,
    failure: 'after-payment job run failed',
  });
  app.addHook('onReady', async () => job.start());
  app.addHook('onClose', async () => job.stop());
};
