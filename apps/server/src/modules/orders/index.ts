import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../context';
import { createOrdersRepo } from './orders.repo';
import { ordersRoutes } from './orders.routes';
import { createOrdersService, type OrdersServiceDeps } from './orders.service';

export { ORDER_CARD_COLUMNS, selectStatusHistory, type StatusHistoryRow } from './orders.repo';
export { readOrderForDocument } from './orders.documents';
/** ADR 0089: the brief staff read. */
export { readOrderBrief } from './orders.brief';
export { toDate, type OrderCardRow } from './orders.rows';
/** ADR 0081: the card's rules staff's queue row shares with the customer's list item. */
export { cardReviewBy, orderStatusRef } from './orders.wire';
/** The account deletion's erase step and the personal-data report's section (ADR 0052, 0077). */
export { eraseCustomerOrders, ordersReport } from './orders.personal-data.repo';
/** Writes other modules make to an order (status, pending, amount due, writer), in the caller's transaction (ADR 0054). */
export { createOrderWritesRepo as orderWrites, type LockedOrder, type MoveResult } from './orders.writes.repo';

/** The collaborators the orders service is given: the app's one instance of each (services.ts). */
export type OrdersModuleDeps = Omit<OrdersServiceDeps, 'repo' | 'clock'>;

/** The customer's orders: count, list, hide, create, edit, read, look up by uid, preferred writers (requirements §7, ADR 0012, 0021). */
export const ordersModule: FastifyPluginAsyncZod<ModuleOptions & { deps: OrdersModuleDeps }> = async (app, { ctx, deps }) => {
  const service = createOrdersService({ repo: createOrdersRepo(ctx.db), clock: ctx.clock, ...deps });
  await app.register(ordersRoutes, { service, ordersPerHour: ctx.config.quotas.ordersPerHour });
};
