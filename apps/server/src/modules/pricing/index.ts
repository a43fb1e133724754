import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext, ModuleOptions } from '../../context';
import { createCatalogueReader } from '../catalogue';
import { pricingRoutes } from './pricing.routes';
import { createPriceTables, createPricingService, PRICE_TABLE_CACHE_MS, type PriceTables } from './pricing.service';

export { PRICE_TABLE_CACHE_MS, type PriceTables };

/** Price tables of a category, cached for PRICE_TABLE_CACHE_MS (orders price with the same tables). */
export const createPricing = (ctx: Pick<AppContext, 'db' | 'config' | 'clock'>): PriceTables =>
  createPriceTables({ catalogue: createCatalogueReader(ctx), clock: ctx.clock });

/** SPEC §7 price calculation: the domain's one price function over the database's tables. */
export const pricingModule: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  await app.register(pricingRoutes, { service: createPricingService({ tables: createPricing(ctx) }) });
};
