import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CHECKOUT_PATH_PROVIDER, PAYMENT_SYSTEMS, paymentStatusSchema, ROUTE_RATE_LIMITS, type PaymentSystem } from '@app/domain';
import { currentUser } from '../../plugins/auth';
import { keyedRateLimit, routeRateLimit } from '../../plugins/rate-limit';
import { useStyleNonce } from '../../plugins/security';
import { renderSandboxPage } from './payments.sandbox-page';
import type { PaymentsService } from './payments.service';
import type { CallbackRequest } from './providers/types';
import { bearer, errorResponses, idParams } from '../../lib/route-schemas';

const providerSchema = z.enum(PAYMENT_SYSTEMS);
const paymentIdSchema = z.string().min(16).max(64);
/** CONTRACT "Orders and catalogues": a uid is random, at least 16 URL-safe characters. */
const uidSchema = z.string().min(16).max(64);
const hashDeviceSchema = z.string().min(1).max(256);
const CALLBACK_BODY_MAX_BYTES = 256 * 1024;

const flatHeaders = (headers: Record<string, string | string[] | undefined>): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(',') : v]));

/** The order a checkout starts for: the uid of the checkout path, or of PayPal's SDK redirect query. */
const uidOf = (request: FastifyRequest): string =>
  (request.params as { uid?: string }).uid ?? (request.query as { uid?: string }).uid ?? '';

export const paymentsRoutes: FastifyPluginAsyncZod<{ service: PaymentsService }> = async (app, { service }) => {
  // ADR 0073: each start stores an attempt and calls the provider; no account, so per order (its uid, in
  // the path or the query). One counter for both ways in (the checkout path and PayPal's SDK redirect).
  const checkoutLimit = keyedRateLimit(app, 'checkout-start', uidOf, ROUTE_RATE_LIMITS.checkoutStart);
  // SPEC §7 payment redirects: full-page navigations (no bearer); the uid names the order.
  app.get(
    '/checkout/:system/order/:uid',
    {
      preHandler: checkoutLimit,
      schema: {
        tags: ['payments'],
        summary: 'Starts a payment attempt for an unpaid order and redirects (302) to the provider',
        params: z.object({ system: z.enum(Object.keys(CHECKOUT_PATH_PROVIDER) as [keyof typeof CHECKOUT_PATH_PROVIDER]), uid: uidSchema }),
        querystring: z.object({ hashDevice: hashDeviceSchema }),
        response: { ...errorResponses(404, 422, 429) },
      },
    },
    async (request, reply) => {
      const location = await service.startCheckout({
        provider: CHECKOUT_PATH_PROVIDER[request.params.system],
        uid: request.params.uid,
        hashDevice: request.query.hashDevice,
      });
      return reply.redirect(location, 302);
    },
  );

  app.get(
    '/pp/sdk/redirect',
    {
      preHandler: checkoutLimit,
      schema: {
        tags: ['payments'],
        summary: 'Starts a PayPal payment attempt for an unpaid order and redirects (302) to PayPal',
        querystring: z.object({ uid: uidSchema, hashDevice: hashDeviceSchema }),
        response: { ...errorResponses(404, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.redirect(
        await service.startCheckout({ provider: 'paypal', uid: request.query.uid, hashDevice: request.query.hashDevice }),
        302,
      ),
  );

  app.get(
    '/pp/sdk/return',
    {
      // ADR 0073: a capture call to PayPal each time; per payment attempt.
      preHandler: keyedRateLimit(
        app,
        'payment-return',
        (request) => (request.query as { payment: string }).payment,
        ROUTE_RATE_LIMITS.paymentReturn,
      ),
      schema: {
        tags: ['payments'],
        summary: "PayPal's return_url: captures the approved order, then the order page",
        querystring: z.object({ payment: paymentIdSchema, token: z.string().max(64).optional(), PayerID: z.string().max(64).optional() }),
        response: { ...errorResponses(404, 422, 429) },
      },
    },
    async (request, reply) => reply.redirect(await service.paypalReturn({ paymentId: request.query.payment }), 303),
  );

  // Providers that post the buyer back (Fondy's response_url) land here, then on the order page.
  app.route({
    method: ['GET', 'POST'],
    url: '/payments/:paymentId/return',
    schema: {
      tags: ['payments'],
      summary: 'Sends a buyer the provider returned on to the order page (?payment=success|fail)',
      params: z.object({ paymentId: paymentIdSchema }),
      response: { ...errorResponses(404, 422) },
    },
    handler: async (request, reply) => reply.redirect(await service.returnLocation({ paymentId: request.params.paymentId }), 303),
  });

  // CONTRACT "Payments": the callback. Its own scope reads every body as the raw text the providers sign.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: CALLBACK_BODY_MAX_BYTES }, (_request, body, done) => done(null, body));
    scope.withTypeProvider<ZodTypeProvider>().route({
      // Paymentwall's pingbacks come by GET unless the project says POST.
      method: ['GET', 'POST'],
      url: '/api/payments/:provider/callback',
      schema: {
        tags: ['payments'],
        summary: "A provider's callback: verified (403 when the signature is wrong), applied exactly once",
        params: z.object({ provider: providerSchema }),
        querystring: z.record(z.string(), z.string()),
      },
      handler: async (request, reply) => {
        const callback: CallbackRequest = {
          method: request.method,
          headers: flatHeaders(request.headers),
          query: request.query,
          rawBody: typeof request.body === 'string' ? request.body : '',
        };
        const answer = await service.handleCallback({ provider: request.params.provider, request: callback });
        return reply.type(answer.contentType).send(answer.body);
      },
    });
  });

  app.get(
    '/api/en/orders/:id/payment',
    {
      // ADR 0073: may ask the provider's status API each time.
      preHandler: [app.requireCustomer, routeRateLimit(app, 'payment-status', ROUTE_RATE_LIMITS.paymentStatus)],
      schema: {
        tags: ['payments'],
        summary: "The order's payment status for the return page (the return URL only triggers this check)",
        security: bearer,
        params: idParams,
        response: { 200: paymentStatusSchema, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.paymentStatus({ customerId: currentUser(request).userId, orderId: request.params.id }),
  );

  // CONTRACT "Payments": the sandbox page of a provider without credentials.
  const sandboxParams = z.object({ provider: providerSchema, paymentId: paymentIdSchema });
  app.get(
    '/sandbox/:provider/:paymentId',
    { schema: { tags: ['payments'], summary: 'Sandbox payment page (Pay, Decline)', params: sandboxParams } },
    async (request, reply) => {
      const { payment, order } = await service.sandboxView(request.params);
      const nonce = useStyleNonce(reply);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(renderSandboxPage({ provider: request.params.provider, payment, order, styleNonce: nonce }));
    },
  );

  app.post(
    '/sandbox/:provider/:paymentId/:choice',
    {
      schema: {
        tags: ['payments'],
        summary: 'Sandbox: sends the callback the provider would send, signed as it signs, then the order page',
        params: sandboxParams.extend({ choice: z.enum(['pay', 'decline']) }),
        response: { ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const provider: PaymentSystem = request.params.provider;
      const outcome = request.params.choice === 'pay' ? 'paid' : 'declined';
      const { callback, returnTo } = await service.sandboxCallback({ provider, paymentId: request.params.paymentId, outcome });
      // Through the same callback route a provider uses: the signature is checked there like any other.
      const res = await app.inject({
        method: callback.method,
        url: `/api/payments/${provider}/callback${callback.search}`,
        headers: callback.headers,
        ...(callback.method === 'POST' ? { payload: callback.body } : {}),
      });
      if (res.statusCode >= 300) request.log.warn({ provider, status: res.statusCode }, 'sandbox callback was refused');
      const ok = outcome === 'paid' && res.statusCode < 300;
      return reply.redirect(returnTo(ok), 303);
    },
  );
};
