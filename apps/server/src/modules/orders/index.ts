import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../context';
import { createCatalogueReader } from '../catalogue';
import { createDiscounts } from '../discounts';
import { createFiles } from '../files';
import { createMoneySupport, orderEditMoney } from '../payments';
import { createPricing } from '../pricing';
import { createReviews } from '../reviews';
import { createRevisions } from '../revisions';
import { createOrdersRepo } from './orders.repo';

export { ORDER_LIST_COLUMNS, toOrderListRow, type OrderListRow } from './orders.repo';
export { toOrderListItem } from './orders.service';
import { ordersRoutes } from './orders.routes';
import { createOrdersService } from './orders.service';

/** The customer's orders: count, list, hide, create, edit, read, look up by uid, preferred writers (issues 3, 5). */
export const ordersModule: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = createOrdersService({
    repo: createOrdersRepo(ctx.db),
    clock: ctx.clock,
    catalogue: createCatalogueReader(ctx),
    priceTables: createPricing(ctx),
    discounts: createDiscounts(ctx),
    files: createFiles(ctx),
    reviews: createReviews(ctx),
    money: orderEditMoney,
    moneyView: createMoneySupport({ db: ctx.db, clock: ctx.clock, log: ctx.log }),
    revisions: createRevisions(ctx),
  });
  await app.register(ordersRoutes, { service, ordersPerHour: ctx.config.quotas.ordersPerHour });
};
