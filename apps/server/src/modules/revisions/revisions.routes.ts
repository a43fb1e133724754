import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  orderFileListSchema,
  orderFileSchema,
  revisionCategoryListSchema,
  revisionCreateBodySchema,
  revisionLevelListSchema,
  revisionListQuerySchema,
  revisionListSchema,
  revisionRefSchema,
  revisionSchema,
} from '@app/domain';
import { currentUser } from '../../plugins/auth';
import { incomingOrderFile, type UploadRate } from '../files';
import type { RevisionsService } from './revisions.service';
import { bearer, errorResponses, idParams } from '../../lib/route-schemas';

/** SPEC §7 "Revisions", paths exact (ADR 0044). */
export const revisionsRoutes: FastifyPluginAsyncZod<{ service: RevisionsService; uploadRate: UploadRate }> = async (
  app,
  { service, uploadRate },
) => {
  // CONTRACT "Errors and access": the revision categories and levels need no token.
  app.get(
    '/api/en/orders/revisions/categories',
    { schema: { tags: ['revisions'], summary: 'The revision categories', response: { 200: revisionCategoryListSchema } } },
    async () => service.categories(),
  );
  app.get(
    '/api/en/orders/revisions/levels',
    {
      schema: {
        tags: ['revisions'],
        summary: 'The revision levels with the hours each takes (SPEC §9)',
        response: { 200: revisionLevelListSchema },
      },
    },
    async () => service.levels(),
  );

  app.get(
    '/api/en/orders/revisions',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['revisions'],
        summary: "The order's revisions, newest first (10 a page), with its revision window and active revision",
        security: bearer,
        querystring: revisionListQuerySchema,
        response: { 200: revisionListSchema, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => service.list({ customerId: currentUser(request).userId, query: request.query }),
  );

  app.get(
    '/api/en/orders/revisions/:id',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['revisions'],
        summary: 'One revision',
        security: bearer,
        params: idParams,
        response: { 200: revisionSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.get({ customerId: currentUser(request).userId, revisionId: request.params.id }),
  );

  for (const [segment, source] of [
    ['customers', 'customer'],
    ['writers', 'writer'],
  ] as const) {
    app.get(
      `/api/en/orders/revisions/:id/${segment}/files`,
      {
        preHandler: app.requireCustomer,
        schema: {
          tags: ['revisions'],
          summary: source === 'customer' ? 'Files the customer attached to the revision' : 'Revised files the writer delivered',
          security: bearer,
          params: idParams,
          response: { 200: orderFileListSchema, ...errorResponses(401, 404) },
        },
      },
      async (request) => service.listFiles({ customerId: currentUser(request).userId, revisionId: request.params.id, source }),
    );
  }

  app.post(
    '/api/en/orders/:id/revisions',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['revisions'],
        summary: 'Requests a free revision of a completed order: {category, describeProblem, revisionLevel}',
        security: bearer,
        params: idParams,
        body: revisionCreateBodySchema,
        response: { 200: revisionRefSchema, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) => service.create({ customerId: currentUser(request).userId, orderId: request.params.id, body: request.body }),
  );

  app.post(
    '/api/en/orders/revisions/:id/customers/files',
    {
      // ADR 0073: the uploads of every path count on one counter per account, before the body is read.
      preHandler: [app.requireCustomer, uploadRate],
      schema: {
        tags: ['revisions'],
        summary: 'Attaches a file to an active revision (form: id_revision and file), streamed to storage',
        security: bearer,
        params: idParams,
        consumes: ['multipart/form-data'],
        response: { 200: orderFileSchema, ...errorResponses(401, 404, 409, 413, 422, 429, 507) },
      },
    },
    async (request) => {
      const revision = await service.revisionForUpload({ customerId: currentUser(request).userId, revisionId: request.params.id });
      return service.upload({ revision, file: await incomingOrderFile(request) });
    },
  );
};
