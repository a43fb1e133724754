import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { discountApplyBodySchema, discountListSchema, discountSchema } from '@app/domain';
import { currentUser } from '../../plugins/auth';
import { multipartFields } from '../../plugins/form-body';
import { authRateLimit } from '../../plugins/rate-limit';
import type { DiscountsService } from './discounts.service';
import { bearer, errorResponses } from '../../lib/route-schemas';

export const discountsRoutes: FastifyPluginAsyncZod<{ service: DiscountsService }> = async (app, { service }) => {
  const discountLimit = authRateLimit(app, 'discount-apply');
  app.post(
    '/api/en/orders/discounts/apply',
    {
      // CONTRACT: no token needed, form field `code`, its own rate-limit bucket. A token, when sent, lets
      // the customer apply a code of their own (loyalty, referral); an expired one answers 401 as anywhere.
      onRequest: discountLimit.onRequest,
      preValidation: multipartFields,
      preHandler: [
        discountLimit.preHandler,
        async (request, reply) => {
          if (request.headers.authorization) await app.authenticate(request, reply);
        },
      ],
      schema: {
        tags: ['discounts'],
        summary: 'Checks a discount code (multipart, urlencoded or JSON field `code`)',
        body: discountApplyBodySchema,
        response: { 200: discountSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => service.apply({ code: request.body.code, customerId: request.user?.userId ?? null }),
  );

  app.get(
    '/api/en/orders/discounts',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['discounts'],
        summary: "The signed-in customer's own discount codes",
        security: bearer,
        response: { 200: discountListSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.listOwn({ customerId: currentUser(request).userId }),
  );
};
