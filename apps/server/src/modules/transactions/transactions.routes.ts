import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RECEIPT_YEARS, receiptYearsSchema, ROUTE_RATE_LIMITS, transactionListSchema, TRANSACTIONS_PAGE_SIZE } from '@app/domain';
import { currentUser } from '../../plugins/auth';
import { routeRateLimit } from '../../plugins/rate-limit';
import type { TransactionsService } from './transactions.service';
import { bearer, builtAnswerSerializer, errorResponses, idParams } from '../../lib/route-schemas';
import { downloadQuerySchema } from '../files';

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
      // ADR 0081: the service builds each transaction in transactionSchema's shape and order; the page is written as built.
      serializerCompiler: builtAnswerSerializer,
    },
    async (request) => service.list({ customerId: currentUser(request).userId, page: request.query.page, limit: request.query.limit }),
  );

  app.get(
    '/api/en/customers/transactions/:id/receipt',
    {
      // ADR 0073, 0085: each download draws a PDF.
      preHandler: [app.requireCustomer, routeRateLimit(app, 'receipt-download', ROUTE_RATE_LIMITS.receiptDownload)],
      schema: {
        tags: ['transactions'],
        summary: "The numbered receipt (a payment) or credit note (a refund) of one of the customer's transactions, as a PDF attachment",
        security: bearer,
        params: idParams,
        querystring: downloadQuerySchema,
        // No response schema: the body is the PDF, or (`link=1`, ADR 0080) the download link `{ url }`.
        produces: ['application/pdf'],
      },
    },
    async (request, reply) => {
      const customerId = currentUser(request).userId;
      // ADR 0080: the page asks for a link with its token, the browser's download manager fetches it with the ticket.
      if (request.query.link === '1') {
        await service.assertDocument({ customerId, transactionId: request.params.id });
        return reply.header('cache-control', 'no-store').send({ url: app.downloadLink(request) });
      }
      const { fileName, pdf } = await service.documentPdf({ customerId, transactionId: request.params.id });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  app.get(
    '/api/en/customers/receipts/years',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['transactions'],
        summary: 'The years the customer has receipts or credit notes in, newest first',
        security: bearer,
        response: { 200: receiptYearsSchema, ...errorResponses(401) },
      },
    },
    async (request) => service.years({ customerId: currentUser(request).userId }),
  );

  app.get(
    '/api/en/customers/receipts.zip',
    {
      // ADR 0073, 0085: every document of the year drawn and zipped.
      preHandler: [app.requireCustomer, routeRateLimit(app, 'receipts-archive', ROUTE_RATE_LIMITS.receiptsArchive)],
      schema: {
        tags: ['transactions'],
        summary: 'Every receipt and credit note of one year (UTC) as one ZIP of PDFs, streamed',
        security: bearer,
        querystring: downloadQuerySchema.extend({ year: z.coerce.number().int().min(RECEIPT_YEARS.min).max(RECEIPT_YEARS.max) }),
        // No response schema: the body is the ZIP, streamed as it is written, or (`link=1`) the download link.
        produces: ['application/zip'],
      },
    },
    async (request, reply) => {
      const { userId } = currentUser(request);
      // ADR 0080: the ticket is made for the path; the year rides along in the link's query.
      if (request.query.link === '1') {
        await service.assertYear({ customerId: userId, year: request.query.year });
        return reply.header('cache-control', 'no-store').send({ url: `${app.downloadLink(request)}&year=${request.query.year}` });
      }
      const { fileName, stream } = await service.yearArchive({ customerId: userId, year: request.query.year });
      stream.on('error', (error) => request.log.error({ err: error, userId }, 'receipt archive ended early'));
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(stream);
    },
  );
};
