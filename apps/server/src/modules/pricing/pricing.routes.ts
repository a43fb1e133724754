import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { priceCalcBodySchema, priceResponseSchema } from '@app/domain';
import type { PricingService } from './pricing.service';
import { errorResponses } from '../../lib/route-schemas';

/** CONTRACT "Errors and access": the price calculation needs no token. */
export const pricingRoutes: FastifyPluginAsyncZod<{ service: PricingService }> = async (app, { service }) => {
  app.put(
    '/api/en/sites/categories/:category/orders/calcs',
    {
      schema: {
        tags: ['pricing'],
        summary: 'The price of a set of options (SPEC §3 "Price"), amounts in USD with 2 decimals',
        params: z.object({ category: z.string().max(12) }),
        body: priceCalcBodySchema,
        response: { 200: priceResponseSchema, ...errorResponses(404, 422) },
      },
    },
    // Not async: the service already answers a promise, a second one would only add a tick.
    (request) => service.calculate({ category: request.params.category, body: request.body }),
  );
};
