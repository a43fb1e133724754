import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  orderFileSchema,
  manualPaymentBodySchema,
  staffMeSchema,
  staffOrderFileListSchema,
  staffOrderListSchema,
  staffOrderViewSchema,
  staffOrderQuerySchema,
  staffRevisionListSchema,
  staffRevisionQuerySchema,
  staffRevisionSchema,
  staffRevisionStatusBodySchema,
  staffStatusBodySchema,
  staffWriterBodySchema,
  staffViewCountsSchema,
  staffWriterListSchema,
} from '@app/domain';
import { currentActor } from '../../plugins/auth';
import { downloadQuerySchema, incomingOrderFile, sendDownload, type UploadRate } from '../files';
import type { RevisionsService } from '../revisions';
import type { StaffService } from './staff.service';
import { bearer, builtAnswerSerializer, errorResponses, idParams, pathId } from '../../lib/route-schemas';

/** A status change or a recorded payment is a few fields: its raw body is bounded before it is parsed (ADR 0071). */
const SMALL_BODY_LIMIT = 16 * 1024;

/** CONTRACT "Staff side": a customer token gets 404 from every staff route (requireStaff). */
export const staffRoutes: FastifyPluginAsyncZod<{ service: StaffService; revisions: RevisionsService; uploadRate: UploadRate }> = async (
  app,
  { service, revisions, uploadRate },
) => {
  app.get(
    '/api/staff/me',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'The signed-in writer or support account',
        security: bearer,
        response: { 200: staffMeSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.me({ userId: currentActor(request).userId }),
  );

  app.get(
    '/api/staff/orders',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'The order queue, newest first: every order for support, the assigned ones for a writer',
        security: bearer,
        querystring: staffOrderQuerySchema,
        response: { 200: staffOrderListSchema, ...errorResponses(401, 404, 422) },
      },
      // ADR 0081: the service builds each row in the schema's shape and order; the page is written as built.
      serializerCompiler: builtAnswerSerializer,
    },
    async (request) => service.queue({ actor: currentActor(request), query: request.query }),
  );

  // ADR 0089: support's views, each with its count (a writer: their orders').
  app.get(
    '/api/staff/views',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary:
          "Each view's count: paid and unassigned, due within 24 h, overdue, on hold, waiting for support, writer silent, revisions due, extension requests, disputes (open)",
        security: bearer,
        response: { 200: staffViewCountsSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.viewCounts({ actor: currentActor(request) }),
  );

  app.get(
    '/api/staff/writers',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'The writers with their active orders, capacity, availability, rating and on-time rate (support); q: in the name or email',
        security: bearer,
        querystring: z.object({ q: z.string().max(100).optional() }),
        response: { 200: staffWriterListSchema, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => service.writers({ actor: currentActor(request), q: request.query.q }),
  );

  // ADR 0059: the staff console's order view opens from a link or a reload, not only from the queue.
  app.get(
    '/api/staff/orders/:id',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary:
          'One order of the queue: any order for support, an assigned one for a writer (404 otherwise), with what the transition table reads and the status history',
        security: bearer,
        params: idParams,
        response: { 200: staffOrderViewSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.order({ actor: currentActor(request), orderId: request.params.id }),
  );

  app.put(
    '/api/staff/orders/:id/status',
    {
      preHandler: app.requireStaff,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ['staff'],
        summary:
          "Moves the order's status (support) through the transition table (409 names the moves allowed now); 7, 8 and 9 need a reason; 7 refunds (ADR 0072), 8 of a paid order refunds too",
        security: bearer,
        params: idParams,
        body: staffStatusBodySchema,
        response: { 200: staffOrderViewSchema, ...errorResponses(401, 403, 404, 409, 413, 422) },
      },
    },
    async (request) =>
      service.setStatus({
        actor: currentActor(request),
        orderId: request.params.id,
        status: request.body.status,
        reason: request.body.reason,
      }),
  );

  // ADR 0071: paid (2) is reached only through money; support records a bank transfer with its reference.
  app.post(
    '/api/staff/orders/:id/payments',
    {
      preHandler: app.requireStaff,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ['staff'],
        summary:
          'Records a payment by hand (support): a bank transfer with its reference, for exactly what the order asks now; one transaction, the order paid (1 → 2, or 10 → 2)',
        security: bearer,
        params: idParams,
        body: manualPaymentBodySchema,
        response: { 200: staffOrderViewSchema, ...errorResponses(401, 403, 404, 409, 413, 422) },
      },
    },
    async (request) => service.recordPayment({ actor: currentActor(request), orderId: request.params.id, body: request.body }),
  );

  app.put(
    '/api/staff/orders/:id/writer',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'Assigns a writer to the order (support); a paid order moves to in progress (2 → 3)',
        security: bearer,
        params: idParams,
        body: staffWriterBodySchema,
        response: { 200: staffOrderViewSchema, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => service.assignWriter({ actor: currentActor(request), orderId: request.params.id, writerId: request.body.idWriter }),
  );

  app.post(
    '/api/staff/orders/:id/files',
    {
      // ADR 0073: a delivery counts on the staff member's upload rate, not on the customer's quota.
      preHandler: [app.requireStaff, uploadRate],
      schema: {
        tags: ['staff'],
        summary: "Delivers a file (multipart field `file`): it becomes a writer file of the customer's order",
        security: bearer,
        params: idParams,
        consumes: ['multipart/form-data'],
        response: { 200: orderFileSchema, ...errorResponses(401, 404, 413, 422, 429, 507) },
      },
    },
    async (request) => {
      const actor = currentActor(request);
      const order = await service.orderForDelivery({ actor, orderId: request.params.id });
      return service.deliver({ actor, order, file: await incomingOrderFile(request) });
    },
  );

  // ADR 0071: staff keep every file of an order (the customer no longer downloads a refunded order's writer files).
  app.get(
    '/api/staff/orders/:id/files',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: "The order's files, the customer's and the writer's, oldest first (support: any order; a writer: an assigned one)",
        security: bearer,
        params: idParams,
        response: { 200: staffOrderFileListSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.files({ actor: currentActor(request), orderId: request.params.id }),
  );

  app.get(
    '/api/staff/orders/:id/files/:fileId',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'Downloads one file of the order (support: any order; a writer: an assigned one), whatever its status',
        security: bearer,
        params: z.object({ id: pathId, fileId: pathId }),
        querystring: downloadQuerySchema,
        produces: ['application/octet-stream'],
      },
    },
    async (request, reply) =>
      sendDownload(
        request,
        reply,
        await service.download({ actor: currentActor(request), orderId: request.params.id, fileId: request.params.fileId }),
      ),
  );

  // ADR 0044: revisions. Support sees and moves every one; a writer those of the orders assigned to them.
  app.get(
    '/api/staff/revisions',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: "Revisions, newest first (idOrder: one order's): every one for support, the assigned orders' for a writer",
        security: bearer,
        querystring: staffRevisionQuerySchema,
        response: { 200: staffRevisionListSchema, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => revisions.staffList({ actor: currentActor(request), query: request.query }),
  );

  app.put(
    '/api/staff/revisions/:id/status',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'Moves a revision along its state machine (assigned writer: in progress, verifying; support: every allowed move)',
        security: bearer,
        params: idParams,
        body: staffRevisionStatusBodySchema,
        response: { 200: staffRevisionSchema, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) =>
      revisions.staffSetStatus({ actor: currentActor(request), revisionId: request.params.id, status: request.body.status }),
  );

  app.post(
    '/api/staff/revisions/:id/writers/files',
    {
      // ADR 0073: as a delivery, on the staff member's upload rate.
      preHandler: [app.requireStaff, uploadRate],
      schema: {
        tags: ['staff'],
        summary: 'Delivers a revised file (multipart field `file`): a writer file of the revision',
        security: bearer,
        params: idParams,
        consumes: ['multipart/form-data'],
        response: { 200: orderFileSchema, ...errorResponses(401, 404, 413, 422, 429, 507) },
      },
    },
    async (request) => {
      const actor = currentActor(request);
      const revision = await revisions.staffRevisionForDelivery({ actor, revisionId: request.params.id });
      return revisions.staffDeliver({ actor, revision, file: await incomingOrderFile(request) });
    },
  );
};
