import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  acceptDeliveryBodySchema,
  afterPaymentStateSchema,
  changesRequestedBodySchema,
  errorBodySchema,
  extensionAnswerBodySchema,
  extensionProposalBodySchema,
  extensionRequestSchema,
  ROUTE_RATE_LIMITS,
  staffDeliveryBodySchema,
} from '@app/domain';
import { currentActor } from '../../plugins/auth';
import { routeRateLimit } from '../../plugins/rate-limit';
import { bearer, idParams, pathId } from '../../lib/route-schemas';
import type { AfterPayment } from './delivery.service';

/** A few fields each: the raw body is bounded before it is parsed (ADR 0067). */
const BODY_LIMIT = 32 * 1024;
const answered = {
  200: afterPaymentStateSchema,
  401: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  413: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};

/**
 * CONTRACT "After payment" (ADR 0084): the staff's delivery and proposal of a new deadline, the customer's
 * answers (accept, ask for changes, push the review clock once, answer a proposal), and support's list of
 * proposals nobody answered. Each answers the order's after-payment state as it is now.
 */
export const deliveryRoutes: FastifyPluginAsyncZod<{ service: AfterPayment }> = async (app, { service }) => {
  const customerLimit = routeRateLimit(app, 'after-payment', ROUTE_RATE_LIMITS.afterPayment);
  const staffLimit = routeRateLimit(app, 'after-payment-staff', ROUTE_RATE_LIMITS.afterPayment);

  app.post(
    '/api/staff/orders/:id/delivery',
    {
      preHandler: [app.requireStaff, staffLimit],
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['staff'],
        summary:
          'Submits a delivery (assigned writer, support): the writer files uploaded since the last delivery and a message; the review clock starts',
        security: bearer,
        params: idParams,
        body: staffDeliveryBodySchema,
        response: answered,
      },
    },
    async (request) => service.deliver({ caller: currentActor(request), orderId: request.params.id, message: request.body.message }),
  );

  app.post(
    '/api/staff/orders/:id/extensions',
    {
      preHandler: [app.requireStaff, staffLimit],
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['staff'],
        summary: 'Proposes a later deadline with a reason (assigned writer, support); the customer answers it before answerBy',
        security: bearer,
        params: idParams,
        body: extensionProposalBodySchema,
        response: answered,
      },
    },
    async (request) => service.proposeExtension({ caller: currentActor(request), orderId: request.params.id, body: request.body }),
  );

  app.get(
    '/api/staff/extensions/unanswered',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'Proposed deadlines nobody answered in time (the original deadline stood): support’s alerts, newest first',
        security: bearer,
        response: {
          200: z.object({
            proposals: z.array(extensionRequestSchema.extend({ orderId: z.number().int(), title: z.string(), expiredAt: z.string() })),
          }),
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request) => service.unansweredProposals({ caller: currentActor(request) }),
  );

  app.put(
    '/api/staff/extensions/:id/seen',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'Support has handled an unanswered proposal: it leaves the list',
        security: bearer,
        params: idParams,
        response: { 204: z.null(), 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      await service.dismissAlert({ caller: currentActor(request), extensionId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/en/orders/:id/accept',
    {
      preHandler: [app.requireCustomer, customerLimit],
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['orders'],
        summary: 'Accepts the delivery: the order completes (5), the free-revision window starts, an optional review is stored',
        security: bearer,
        params: idParams,
        body: acceptDeliveryBodySchema,
        response: answered,
      },
    },
    async (request) => service.accept({ caller: currentActor(request), orderId: request.params.id, body: request.body }),
  );

  app.post(
    '/api/en/orders/:id/changes-requested',
    {
      preHandler: [app.requireCustomer, customerLimit],
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['orders'],
        summary: 'Asks for changes to the delivery: the review clock stops, the message goes into the writer chat, the writer is told',
        security: bearer,
        params: idParams,
        body: changesRequestedBodySchema,
        response: answered,
      },
    },
    async (request) => service.requestChanges({ caller: currentActor(request), orderId: request.params.id, message: request.body.message }),
  );

  app.post(
    '/api/en/orders/:id/review-extension',
    {
      preHandler: [app.requireCustomer, customerLimit],
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['orders'],
        summary: 'Pushes the review clock by 3 days, once (ADR 0084)',
        security: bearer,
        params: idParams,
        response: answered,
      },
    },
    async (request) => service.extendReview({ caller: currentActor(request), orderId: request.params.id }),
  );

  app.put(
    '/api/en/orders/:id/extensions/:extensionId',
    {
      preHandler: [app.requireCustomer, customerLimit],
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['orders'],
        summary: 'Accepts or declines a proposed deadline before its answerBy (after it: 409, the original deadline stands)',
        security: bearer,
        params: z.object({ id: pathId, extensionId: pathId }),
        body: extensionAnswerBodySchema,
        response: answered,
      },
    },
    async (request) =>
      service.answerExtension({
        caller: currentActor(request),
        orderId: request.params.id,
        extensionId: request.params.extensionId,
        accept: request.body.accept,
      }),
  );
};

/**
 * ADR 0084: the journeys run the job as if time had passed (`at`), since a browser test cannot wait three
 * days. Only outside production (the app does not register it there) and only to the clients `allow`
 * admits (this machine), like the dev outbox; anyone else gets the 404 of a route that does not exist.
 */
export const deliveryDevRoutes: FastifyPluginAsyncZod<{ service: AfterPayment; allow: (request: FastifyRequest) => boolean }> = async (
  app,
  { service, allow },
) => {
  app.post(
    '/api/dev/after-payment/run',
    {
      onRequest: async (request, reply) => {
        if (!allow(request)) return reply.callNotFound();
      },
      bodyLimit: 1024,
      schema: {
        tags: ['dev'],
        summary: 'Runs the after-payment job now, as if the time were `at` (default: now)',
        body: z.object({ at: z.string().datetime().optional() }).default({}),
        response: { 200: z.object({ completed: z.number().int(), expired: z.number().int() }) },
      },
    },
    async (request) => service.runOnce(request.body.at ? new Date(request.body.at) : undefined),
  );
};
