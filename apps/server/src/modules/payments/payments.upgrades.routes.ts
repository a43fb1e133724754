import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CHECKOUT_PATH_PROVIDER, ROUTE_RATE_LIMITS, upgradeBodySchema, upgradeCreatedSchema, upgradeQuoteSchema } from '@app/domain';
import { currentUser } from '../../plugins/auth';
import { keyedRateLimit, routeRateLimit } from '../../plugins/rate-limit';
import { bearer, errorResponses, idParams } from '../../lib/route-schemas';
import type { PaymentsService } from './payments.service';
import type { Upgrades } from './payments.upgrades';

/** A few numbers and at most eight short names: the raw body is bounded before it is parsed (ADR 0067). */
const BODY_LIMIT = 4 * 1024;
/** An upgrade id is random (24 URL-safe characters here), like an order's uid. */
const upgradeIdSchema = z.string().min(16).max(64);
const hashDeviceSchema = z.string().min(1).max(256);
/** The checkout paths' provider names (SPEC §7: paycore is "paycoreio"), and PayPal, which has no SDK path for an upgrade. */
const UPGRADE_CHECKOUT_PROVIDER = { ...CHECKOUT_PATH_PROVIDER, paypal: 'paypal' } as const;

/**
 * CONTRACT "After payment", scope change (ADR 0086): the preview, the upgrade to pay, and its checkout,
 * which starts an attempt through the same adapters (and sandbox) as an order's.
 */
export const upgradeRoutes: FastifyPluginAsyncZod<{ upgrades: Upgrades; payments: PaymentsService }> = async (
  app,
  { upgrades, payments },
) => {
  app.put(
    '/api/en/orders/:id/upgrade/calcs',
    {
      preHandler: [app.requireCustomer, routeRateLimit(app, 'upgrade-quote', ROUTE_RATE_LIMITS.upgradeQuote)],
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['orders'],
        summary: 'Prices an upgrade of a paid order (more pages, extras, a shorter deadline): the difference to pay; nothing is stored',
        security: bearer,
        params: idParams,
        body: upgradeBodySchema,
        response: { 200: upgradeQuoteSchema, ...errorResponses(401, 404, 409, 413, 422, 429) },
      },
    },
    async (request) => upgrades.preview({ customerId: currentUser(request).userId, orderId: request.params.id, body: request.body }),
  );

  app.post(
    '/api/en/orders/:id/upgrade',
    {
      preHandler: [app.requireCustomer, routeRateLimit(app, 'upgrade-create', ROUTE_RATE_LIMITS.upgradeCreate)],
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['orders'],
        summary:
          'Makes the upgrade to pay (the same body as the preview): its id for /checkout/{provider}/upgrade/{upgradeId}; the same upgrade again answers the open one',
        security: bearer,
        params: idParams,
        body: upgradeBodySchema,
        response: { 200: upgradeCreatedSchema, ...errorResponses(401, 404, 409, 413, 422, 429) },
      },
    },
    async (request) => upgrades.create({ customerId: currentUser(request).userId, orderId: request.params.id, body: request.body }),
  );

  app.get(
    '/checkout/:system/upgrade/:upgradeId',
    {
      // ADR 0073: each start stores an attempt and calls the provider; no account, so per upgrade.
      preHandler: keyedRateLimit(
        app,
        'checkout-upgrade',
        (request) => (request.params as { upgradeId: string }).upgradeId,
        ROUTE_RATE_LIMITS.checkoutStart,
      ),
      schema: {
        tags: ['payments'],
        summary: "Starts a payment attempt for an open upgrade's difference and redirects (302) to the provider",
        params: z.object({
          system: z.enum(Object.keys(UPGRADE_CHECKOUT_PROVIDER) as [keyof typeof UPGRADE_CHECKOUT_PROVIDER]),
          upgradeId: upgradeIdSchema,
        }),
        querystring: z.object({ hashDevice: hashDeviceSchema }),
        response: { ...errorResponses(404, 422, 429) },
      },
    },
    async (request, reply) => {
      const location = await payments.startUpgradeCheckout({
        provider: UPGRADE_CHECKOUT_PROVIDER[request.params.system],
        upgradeId: request.params.upgradeId,
        hashDevice: request.query.hashDevice,
      });
      return reply.redirect(location, 302);
    },
  );
};
