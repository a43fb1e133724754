import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { transactionListSchema, TRANSACTIONS_PAGE_SIZE } from '@app/domain';
import { currentUser } from '../../plugins/auth';
import type { TransactionsService } from './transactions.service';
import { bearer, errorResponses } from '../../lib/route-schemas';

export const transactionsRoutes: FastifyPluginAsyncZod<{ service: TransactionsService }> = async (app, { service }) => {
  app.get(
    '/api/en/customers/transactions',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['transactions'],
        summary: "The customer's payments and refunds, newest first (SPEC §9: 16 a page)",
        security: bearer,
        querystring: z.object({
          page: z.coerce.number().int().min(1).max(100_000).default(1),
          limit: z.coerce.number().int().min(1).max(100).default(TRANSACTIONS_PAGE_SIZE),
        }),
        response: { 200: transactionListSchema, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => service.list({ customerId: currentUser(request).userId, page: request.query.page, limit: request.query.limit }),
  );
};
