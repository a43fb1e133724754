import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  customerFileListSchema,
  DomainError,
  ERROR_CODE,
  FILE_MESSAGE,
  FILE_MISSING_MESSAGE,
  ORDER_FILE_MAX_BYTES,
  orderFileListSchema,
  orderFileSchema,
  ROUTE_RATE_LIMITS,
} from '@app/domain';
import { currentUser } from '../../plugins/auth';
import { routeRateLimit } from '../../plugins/rate-limit';
import { attachmentDisposition } from '../../lib/content-disposition';
import type { FilesService, IncomingFile, StoredDownload } from './files.service';
import { bearer, errorResponses, idParams } from '../../lib/route-schemas';

/** Room for the multipart envelope around a file of the maximum size. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** ADR 0073: counts one upload against the uploader's hourly rate (`createUploadRate`); past it 429 with Retry-After. */
export type UploadRate = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * ADR 0080: the query of every download route. `link=1` (with the bearer token) answers `{ url }`, this
 * path with a one-minute `ticket` the browser's download manager fetches; `ticket` is that ticket.
 */
export const downloadQuerySchema = z.object({ link: z.literal('1').optional(), ticket: z.string().max(1024).optional() });

/**
 * A stored file as a download, never rendered by the browser (every download route: order, revision and
 * chat files, staff's, ADR 0071, 0080). `?link=1`: the link (the bytes are not opened); otherwise a 302 to
 * the store's signed URL (S3, 5 minutes at most) or the bytes streamed with their Content-Length (disk).
 */
export const sendDownload = async (request: FastifyRequest, reply: FastifyReply, file: StoredDownload): Promise<FastifyReply> => {
  reply.header('cache-control', 'no-store');
  if ((request.query as { link?: string } | undefined)?.link === '1') return reply.send({ url: request.server.downloadLink(request) });
  const body = await file.open();
  if ('url' in body) return reply.redirect(body.url, 302);
  return reply
    .header('content-type', 'application/octet-stream')
    .header('content-length', file.size)
    .header('content-disposition', attachmentDisposition(file.name))
    .header('x-content-type-options', 'nosniff')
    .send(body.stream);
};

/**
 * The multipart field `file` of an order-file upload, as a stream (never buffered). A declared length
 * already over the limit is refused before a byte is read. Shared with the staff delivery route.
 */
export const incomingOrderFile = async (request: FastifyRequest): Promise<IncomingFile | undefined> => {
  if (Number(request.headers['content-length'] ?? 0) > ORDER_FILE_MAX_BYTES + MULTIPART_OVERHEAD_BYTES) {
    throw new DomainError(ERROR_CODE.tooLarge, FILE_MESSAGE.orderTooLarge);
  }
  if (!request.isMultipart()) throw new DomainError(ERROR_CODE.validation, FILE_MISSING_MESSAGE);
  const part = await request.file({ limits: { fileSize: ORDER_FILE_MAX_BYTES, files: 1 } });
  const file =
    part && part.fieldname === 'file' ? { filename: part.filename, stream: part.file, truncated: () => part.file.truncated } : undefined;
  if (part && !file) part.file.resume();
  return file;
};

export const filesRoutes: FastifyPluginAsyncZod<{ service: FilesService; uploadRate: UploadRate }> = async (
  app,
  { service, uploadRate },
) => {
  app.post(
    '/api/en/orders/:id/customers/files',
    {
      // ADR 0073: the uploads of every path count on one counter per account, before the body is read.
      preHandler: [app.requireCustomer, uploadRate],
      schema: {
        tags: ['files'],
        summary: 'Uploads one order file (multipart field `file`), streamed to storage',
        security: bearer,
        params: idParams,
        consumes: ['multipart/form-data'],
        response: { 200: orderFileSchema, ...errorResponses(401, 404, 413, 422, 429, 507) },
      },
    },
    async (request) => {
      const customerId = currentUser(request).userId;
      await service.assertOwnOrder({ customerId, orderId: request.params.id });
      return service.upload({ customerId, orderId: request.params.id, file: await incomingOrderFile(request) });
    },
  );

  for (const [segment, source] of [
    ['customers', 'customer'],
    ['writers', 'writer'],
  ] as const) {
    app.get(
      `/api/en/orders/:id/${segment}/files`,
      {
        preHandler: app.requireCustomer,
        schema: {
          tags: ['files'],
          summary: source === 'customer' ? 'Files the customer attached to the order' : 'Files the writer delivered',
          security: bearer,
          params: idParams,
          response: { 200: orderFileListSchema, ...errorResponses(401, 404) },
        },
      },
      async (request) => service.listForOrder({ customerId: currentUser(request).userId, orderId: request.params.id, source }),
    );
  }

  app.get(
    '/api/en/orders/customers/files',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['files'],
        summary: 'Every file the customer uploaded, newest first, with its order id',
        security: bearer,
        response: { 200: customerFileListSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.listUploaded({ customerId: currentUser(request).userId }),
  );

  app.get(
    '/api/en/orders/files/:id',
    {
      // ADR 0073: up to 100 MB streamed each time.
      preHandler: [app.requireCustomer, routeRateLimit(app, 'file-download', ROUTE_RATE_LIMITS.fileDownload)],
      schema: {
        tags: ['files'],
        summary: "Downloads a file of one of the customer's orders",
        security: bearer,
        params: idParams,
        querystring: downloadQuerySchema,
        // No response schema: the body is the file's bytes streamed, a 302 to the store's signed URL, or
        // (`link=1`) the download link `{ url }`.
        produces: ['application/octet-stream'],
      },
    },
    async (request, reply) => {
      const file = await service.download({ customerId: currentUser(request).userId, fileId: request.params.id });
      // Always a download, never rendered by the browser: the bytes are the customer's, not ours.
      return sendDownload(request, reply, file);
    },
  );

  app.delete(
    '/api/en/orders/files/:id',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['files'],
        summary: 'Removes a file the customer attached, while the order may still be edited',
        security: bearer,
        params: idParams,
        response: { 204: z.null(), ...errorResponses(401, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.remove({ customerId: currentUser(request).userId, fileId: request.params.id });
      return reply.status(204).send(null);
    },
  );
};
