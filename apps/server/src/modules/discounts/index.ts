import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { createDiscountsRepo } from './discounts.repo';
import { discountsRoutes } from './discounts.routes';
import { createDiscountsService, type DiscountResolution, type DiscountsService } from './discounts.service';

export type { DiscountResolution, DiscountsService };
/** ADR 0090: public codes as an admin manages them (uses, revenue, limits, optimistic concurrency). */
export { createDiscountAdmin, type DiscountAdmin } from './discounts.admin';
/** Writes other modules make to discount codes, in their transaction; the deletion's erase step (ADR 0052, 0077). */
export { discountCodeWrites, eraseCustomerCodes, type NewCustomerCode } from './discounts.writes.repo';

/** The discount rules other modules use (orders check the code again at creation). */
export const createDiscounts = (ctx: Pick<AppContext, 'db' | 'clock'>): DiscountsService =>
  createDiscountsService({ repo: createDiscountsRepo(ctx.db), clock: ctx.clock });

/** SPEC §4/§8 "Discount": apply a code, list the customer's own codes. */
export const discountsModule: FastifyPluginAsyncZod<{ service: DiscountsService }> = async (app, { service }) => {
  await app.register(discountsRoutes, { service });
};
