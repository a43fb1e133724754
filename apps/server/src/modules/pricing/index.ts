import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from '../../lib/clock';
import type { CatalogueReader } from '../catalogue';
import { pricingRoutes } from './pricing.routes';
import { createPriceTables, createPricingService, PRICE_TABLE_CACHE_MS, type PriceTables } from './pricing.service';

export { PRICE_TABLE_CACHE_MS, type PriceTables };

/**
 * Price tables of a category, cached for PRICE_TABLE_CACHE_MS. Built once by the composition root
 * (services.ts): the calculation route and the orders module price with the same tables and one cache.
 */
export const createPricing = ({ catalogue, clock }: { catalogue: CatalogueReader; clock: Clock }): PriceTables =>
  createPriceTables({ catalogue, clock });

/** SPEC §7 price calculation: the domain's one price function over the database's tables. */
export const pricingModule: FastifyPluginAsyncZod<{ priceTables: PriceTables }> = async (app, { priceTables }) => {
  await app.register(pricingRoutes, { service: createPricingService({ tables: priceTables }) });
};
