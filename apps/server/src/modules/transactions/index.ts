import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../context';
import type { Queryable } from '../../db/client';
import { createTransactionsRepo, type NewPaymentTransaction, type NewRefund, type OrderMoneyRecord } from './transactions.repo';
import { transactionsRoutes } from './transactions.routes';
import { createTransactionsService } from './transactions.service';

export type { NewPaymentTransaction, NewRefund, OrderMoneyRecord };
/** The personal-data report's section (ADR 0052, 0077). */
export { transactionsReport } from './transactions.personal-data.repo';

/** SPEC §2 /transactions: the customer's payments and refunds (ADR 0024). */
export const transactionsModule: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  await app.register(transactionsRoutes, { service: createTransactionsService({ repo: createTransactionsRepo(ctx.db) }) });
};

/**
 * Writes the payment row of a paid attempt inside the caller's transaction (the payments module's
 * callback); false when the attempt already has one.
 */
export const recordPaymentTransaction = (q: Queryable, t: NewPaymentTransaction): Promise<boolean> =>
  createTransactionsRepo(q).insertPayment(t);

/** ADR 0072: the order's applied payments and refunds, in the caller's transaction (the refund use case). */
export const readOrderMoney = (q: Queryable, orderId: number): Promise<OrderMoneyRecord> => createTransactionsRepo(q).orderMoney(orderId);

/**
 * Records a refund of an order (only the payments module's refund use case calls it, ADR 0072); the customer is
 * the order's owner. Returns the new row's id, or null when the order does not exist or the payment is
 * already refunded (one refund per paid attempt, ADR 0036).
 */
export const recordRefund = (q: Queryable, r: NewRefund): Promise<number | null> => createTransactionsRepo(q).insertRefund(r);
