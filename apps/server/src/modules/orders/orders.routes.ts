import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  orderBodySchema,
  orderCountSchema,
  orderDetailSchema,
  orderIdSchema,
  orderListItemSchema,
  orderListQuerySchema,
  orderListSchema,
  orderRefSchema,
  preferredWriterListSchema,
  ROUTE_RATE_LIMITS,
} from '@app/domain';
import { currentUser } from '../../plugins/auth';
import { accountRateLimit, routeRateLimit } from '../../plugins/rate-limit';
import type { OrdersService } from './orders.service';
import { bearer, builtAnswerSerializer, errorResponses, idParams, pathId } from '../../lib/route-schemas';

const categoryParams = z.object({ category: z.string().max(12) });
/** CONTRACT: `forceEditing` as the wizard has it in its URL (`?forceEditing=1`) or as a body flag. */
const truthy = z.enum(['1', 'true']);
const updateBodySchema = orderBodySchema.extend({ forceEditing: z.boolean().optional() });

export const ordersRoutes: FastifyPluginAsyncZod<{ service: OrdersService; ordersPerHour: number }> = async (
  app,
  { service, ordersPerHour },
) => {
  app.get(
    '/api/en/orders/count',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['orders'],
        summary: "The customer's visible orders, counted by status id",
        security: bearer,
        response: { 200: orderCountSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.count({ customerId: currentUser(request).userId }),
  );

  app.get(
    '/api/en/sites/categories/:category/orders',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['orders'],
        summary: 'The customer\'s orders of every category, newest first, filtered and paged (CONTRACT "Order list query")',
        security: bearer,
        params: categoryParams,
        querystring: orderListQuerySchema,
        response: { 200: orderListSchema, ...errorResponses(401, 404, 422) },
      },
      // ADR 0081: the service builds each card in orderListItemSchema's shape and order; the page is written as built.
      serializerCompiler: builtAnswerSerializer,
    },
    async (request) => service.list({ customerId: currentUser(request).userId, category: request.params.category, query: request.query }),
  );

  for (const [action, hidden] of [
    ['hide', true],
    ['unhide', false],
  ] as const) {
    app.put(
      `/api/en/orders/:id/${action}`,
      {
        preHandler: app.requireCustomer,
        schema: {
          tags: ['orders'],
          summary: hidden ? 'Hides the order from the list (it stays under hidden=1)' : 'Brings a hidden order back to the list',
          security: bearer,
          params: idParams,
          response: { 200: orderListItemSchema, ...errorResponses(401, 404) },
        },
      },
      async (request) => service.setHidden({ customerId: currentUser(request).userId, orderId: request.params.id, hidden }),
    );
  }

  app.post(
    '/api/en/sites/categories/:category/orders',
    {
      // ADR 0039: new orders an hour per customer (ORDER_CREATE_RATE_PER_HOUR); past it 429 with Retry-After.
      preHandler: [app.requireCustomer, accountRateLimit(app, 'order-create', ordersPerHour)],
      schema: {
        tags: ['orders'],
        summary: 'Creates an order (status 1); honours an Idempotency-Key header',
        security: bearer,
        params: categoryParams,
        body: orderBodySchema,
        response: { 200: orderRefSchema, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => {
      const key = request.headers['idempotency-key'];
      return service.create({
        customerId: currentUser(request).userId,
        category: request.params.category,
        body: request.body,
        idempotencyKey: Array.isArray(key) ? key.join(',') : key,
      });
    },
  );

  app.put(
    '/api/en/sites/categories/:category/orders/:id',
    {
      // ADR 0073: an edit prices the order again and moves its money; past the limit 429 with Retry-After.
      preHandler: [app.requireCustomer, routeRateLimit(app, 'order-edit', ROUTE_RATE_LIMITS.orderEdit)],
      schema: {
        tags: ['orders'],
        summary: 'Edits an unpaid order (or a modified one with forceEditing) and prices it again',
        security: bearer,
        params: categoryParams.extend({ id: pathId }),
        querystring: z.object({ forceEditing: z.string().max(8).optional() }),
        body: updateBodySchema,
        response: { 200: orderRefSchema, ...errorResponses(401, 404, 409, 422, 429) },
      },
    },
    async (request) => {
      const { forceEditing, ...body } = request.body;
      return service.update({
        customerId: currentUser(request).userId,
        category: request.params.category,
        orderId: request.params.id,
        body,
        forceEditing: forceEditing === true || truthy.safeParse(request.query.forceEditing).success,
      });
    },
  );

  app.get(
    '/api/en/orders/:id',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['orders'],
        summary: 'One of the customer\'s orders (SPEC §3 "Order")',
        security: bearer,
        params: idParams,
        response: { 200: orderDetailSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.get({ customerId: currentUser(request).userId, orderId: request.params.id }),
  );

  app.get(
    '/api/en/orders/uid/:uid',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['orders'],
        summary: "The id of the customer's order with this uid",
        security: bearer,
        params: z.object({ uid: z.string().max(64) }),
        response: { 200: orderIdSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.idByUid({ customerId: currentUser(request).userId, uid: request.params.uid }),
  );

  app.get(
    '/api/en/customers/customer/preferred_writers',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['orders'],
        summary: "Writers of the customer's paid orders, with their premium flag",
        security: bearer,
        response: { 200: preferredWriterListSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.preferredWriters({ customerId: currentUser(request).userId }),
  );
};
