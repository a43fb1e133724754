import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  orderFileSchema,
  staffMeSchema,
  staffOrderListSchema,
  staffOrderQuerySchema,
  staffOrderSchema,
  staffRevisionListSchema,
  staffRevisionQuerySchema,
  staffRevisionSchema,
  staffRevisionStatusBodySchema,
  staffStatusBodySchema,
  staffWriterBodySchema,
} from '@app/domain';
import { currentUser } from '../../plugins/auth';
import { incomingOrderFile, type UploadRate } from '../files';
import type { RevisionsService } from '../revisions';
import type { StaffService } from './staff.service';

const guarded = { 401: errorBodySchema, 404: errorBodySchema };
const idParams = z.object({ id: z.string().max(20) });

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
        security: [{ bearer: [] }],
        response: { 200: staffMeSchema, ...guarded },
      },
    },
    async (request) => service.me({ userId: currentUser(request).userId }),
  );

  app.get(
    '/api/staff/orders',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'The order queue, newest first: every order for support, the assigned ones for a writer',
        security: [{ bearer: [] }],
        querystring: staffOrderQuerySchema,
        response: { 200: staffOrderListSchema, ...guarded, 422: errorBodySchema },
      },
    },
    async (request) => service.queue({ actor: currentUser(request), query: request.query }),
  );

  // ADR 0059: the staff console's order view opens from a link or a reload, not only from the queue.
  app.get(
    '/api/staff/orders/:id',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'One order of the queue: any order for support, an assigned one for a writer (404 otherwise)',
        security: [{ bearer: [] }],
        params: idParams,
        response: { 200: staffOrderSchema, ...guarded },
      },
    },
    async (request) => service.order({ actor: currentUser(request), orderId: request.params.id }),
  );

  app.put(
    '/api/staff/orders/:id/status',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: "Sets the order's status (support); the change lands in its statusHistory",
        security: [{ bearer: [] }],
        params: idParams,
        body: staffStatusBodySchema,
        response: { 200: staffOrderSchema, ...guarded, 403: errorBodySchema, 422: errorBodySchema },
      },
    },
    async (request) => service.setStatus({ actor: currentUser(request), orderId: request.params.id, status: request.body.status }),
  );

  app.put(
    '/api/staff/orders/:id/writer',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'Assigns a writer to the order (support)',
        security: [{ bearer: [] }],
        params: idParams,
        body: staffWriterBodySchema,
        response: { 200: staffOrderSchema, ...guarded, 403: errorBodySchema, 422: errorBodySchema },
      },
    },
    async (request) => service.assignWriter({ actor: currentUser(request), orderId: request.params.id, writerId: request.body.idWriter }),
  );

  app.post(
    '/api/staff/orders/:id/files',
    {
      // ADR 0073: a delivery counts on the staff member's upload rate, not on the customer's quota.
      preHandler: [app.requireStaff, uploadRate],
      schema: {
        tags: ['staff'],
        summary: "Delivers a file (multipart field `file`): it becomes a writer file of the customer's order",
        security: [{ bearer: [] }],
        params: idParams,
        consumes: ['multipart/form-data'],
        response: {
          200: orderFileSchema,
          ...guarded,
          413: errorBodySchema,
          422: errorBodySchema,
          429: errorBodySchema,
          507: errorBodySchema,
        },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      const order = await service.orderForDelivery({ actor, orderId: request.params.id });
      return service.deliver({ actor, order, file: await incomingOrderFile(request) });
    },
  );

  // ADR 0044: revisions. Support sees and moves every one; a writer those of the orders assigned to them.
  app.get(
    '/api/staff/revisions',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: "Revisions, newest first (idOrder: one order's): every one for support, the assigned orders' for a writer",
        security: [{ bearer: [] }],
        querystring: staffRevisionQuerySchema,
        response: { 200: staffRevisionListSchema, ...guarded, 422: errorBodySchema },
      },
    },
    async (request) => revisions.staffList({ actor: currentUser(request), query: request.query }),
  );

  app.put(
    '/api/staff/revisions/:id/status',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'Moves a revision along its state machine (assigned writer: in progress, verifying; support: every allowed move)',
        security: [{ bearer: [] }],
        params: idParams,
        body: staffRevisionStatusBodySchema,
        response: { 200: staffRevisionSchema, ...guarded, 403: errorBodySchema, 409: errorBodySchema, 422: errorBodySchema },
      },
    },
    async (request) =>
      revisions.staffSetStatus({ actor: currentUser(request), revisionId: request.params.id, status: request.body.status }),
  );

  app.post(
    '/api/staff/revisions/:id/writers/files',
    {
      // ADR 0073: as a delivery, on the staff member's upload rate.
      preHandler: [app.requireStaff, uploadRate],
      schema: {
        tags: ['staff'],
        summary: 'Delivers a revised file (multipart field `file`): a writer file of the revision',
        security: [{ bearer: [] }],
        params: idParams,
        consumes: ['multipart/form-data'],
        response: {
          200: orderFileSchema,
          ...guarded,
          413: errorBodySchema,
          422: errorBodySchema,
          429: errorBodySchema,
          507: errorBodySchema,
        },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      const revision = await revisions.staffRevisionForDelivery({ actor, revisionId: request.params.id });
      return revisions.staffDeliver({ actor, revision, file: await incomingOrderFile(request) });
    },
  );
};
