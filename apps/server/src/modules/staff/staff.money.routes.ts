import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DomainError,
  ERROR_CODE,
  paymentAttentionListSchema,
  paymentAttentionResolveBodySchema,
  paymentAttentionResolvedSchema,
  refundClaimListSchema,
  hasSupportRights,
  STAFF_MESSAGE,
  unappliedPaymentListSchema,
  unappliedRefundBodySchema,
} from '@app/domain';
import type { FastifyRequest } from 'fastify';
import { currentActor, currentUser } from '../../plugins/auth';
import type { MoneySupport, PaymentAttention } from '../payments';
import { bearer, errorResponses, idParams } from '../../lib/route-schemas';

/** CONTRACT "Staff side": a writer on a support-only route gets 403. */
const requireSupport = (request: FastifyRequest): void => {
  if (!hasSupportRights(currentUser(request).role)) throw new DomainError(ERROR_CODE.forbidden, STAFF_MESSAGE.supportOnly);
};

/** ADR 0035, 0058: support's view of money that did not settle its order, and of refunds owed. */
export const staffMoneyRoutes: FastifyPluginAsyncZod<{ money: MoneySupport; attention: PaymentAttention }> = async (
  app,
  { money, attention },
) => {
  app.get(
    '/api/staff/payments/unapplied',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'Money that arrived and did not settle its order (parked), oldest first (support)',
        security: bearer,
        response: { 200: unappliedPaymentListSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      requireSupport(request);
      return money.unapplied();
    },
  );

  // ADR 0089: the queue's two actions. A parked payment is named by its attempt id.
  const paymentParams = z.object({ paymentId: z.string().min(1).max(64) });
  app.post(
    '/api/staff/payments/unapplied/:paymentId/apply',
    {
      preHandler: app.requireStaff,
      bodyLimit: 1024,
      schema: {
        tags: ['staff'],
        summary:
          'Applies parked money to its order when it is exactly what the order asks now (support): the order is paid, the payment row completed with its receipt (409 otherwise)',
        security: bearer,
        params: paymentParams,
        response: {
          200: z.object({ paymentId: z.string(), orderId: z.number().int() }),
          ...errorResponses(401, 403, 404, 409),
        },
      },
    },
    async (request) => {
      requireSupport(request);
      return money.applyUnapplied({ paymentId: request.params.paymentId, actor: currentActor(request) });
    },
  );

  app.post(
    '/api/staff/payments/unapplied/:paymentId/refund',
    {
      preHandler: app.requireStaff,
      bodyLimit: 4 * 1024,
      schema: {
        tags: ['staff'],
        summary:
          "Refunds parked money (support) through the one refund use case: one refund row with its credit note in the customer's transactions; the order is untouched",
        security: bearer,
        params: paymentParams,
        body: unappliedRefundBodySchema,
        response: {
          200: z.object({ paymentId: z.string(), orderId: z.number().int(), transactionId: z.number().int() }),
          ...errorResponses(401, 403, 404, 409, 413, 422),
        },
      },
    },
    async (request) => {
      requireSupport(request);
      return money.refundUnapplied({ paymentId: request.params.paymentId, actor: currentActor(request), reason: request.body.reason });
    },
  );

  app.get(
    '/api/staff/payments/refund-claims',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'Open refund claims: forced edits that lowered a paid price, oldest first (support)',
        security: bearer,
        response: { 200: refundClaimListSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      requireSupport(request);
      return money.refundClaims();
    },
  );

  app.post(
    '/api/staff/payments/refund-claims/:id/refunded',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: "Support refunded the claim at the provider: one refund row in the customer's transactions, the claim closed",
        security: bearer,
        params: idParams,
        response: { 200: z.object({ id: z.number().int(), transactionId: z.number().int() }), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => {
      requireSupport(request);
      return money.refundClaim({ claimId: request.params.id, actor: currentActor(request) });
    },
  );

  // ADR 0058: attempts the reconciliation job handed to support (stale, the provider could not settle them).
  app.get(
    '/api/staff/payments/attention',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'Stale payment attempts flagged for support by the reconciliation job, oldest flag first (support)',
        security: bearer,
        response: { 200: paymentAttentionListSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      requireSupport(request);
      return attention.list();
    },
  );

  app.post(
    '/api/staff/payments/attention/:paymentId/resolved',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'Support resolved a flagged attempt: declined (no money came) or kept open; it leaves the list',
        security: bearer,
        params: z.object({ paymentId: z.string().min(1).max(64) }),
        body: paymentAttentionResolveBodySchema,
        response: { 200: paymentAttentionResolvedSchema, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      requireSupport(request);
      return attention.resolve({
        paymentId: request.params.paymentId,
        outcome: request.body.outcome,
        staffId: currentUser(request).userId,
        staffRole: currentUser(request).role,
      });
    },
  );
};
