import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DomainError,
  ERROR_CODE,
  errorBodySchema,
  paymentAttentionListSchema,
  paymentAttentionResolveBodySchema,
  paymentAttentionResolvedSchema,
  refundClaimListSchema,
  ROLE,
  STAFF_MESSAGE,
  unappliedPaymentListSchema,
} from '@app/domain';
import type { FastifyRequest } from 'fastify';
import { currentUser } from '../../plugins/auth';
import type { MoneySupport, PaymentAttention } from '../payments';

const guarded = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** CONTRACT "Staff side": a writer on a support-only route gets 403. */
const requireSupport = (request: FastifyRequest): void => {
  if (currentUser(request).role !== ROLE.support) throw new DomainError(ERROR_CODE.forbidden, STAFF_MESSAGE.supportOnly);
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
        security: [{ bearer: [] }],
        response: { 200: unappliedPaymentListSchema, ...guarded },
      },
    },
    async (request) => {
      requireSupport(request);
      return money.unapplied();
    },
  );

  app.get(
    '/api/staff/payments/refund-claims',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'Open refund claims: forced edits that lowered a paid price, oldest first (support)',
        security: [{ bearer: [] }],
        response: { 200: refundClaimListSchema, ...guarded },
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
        security: [{ bearer: [] }],
        params: z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }),
        response: {
          200: z.object({ id: z.number().int(), transactionId: z.number().int() }),
          ...guarded,
          409: errorBodySchema,
          422: errorBodySchema,
        },
      },
    },
    async (request) => {
      requireSupport(request);
      const { userId, role } = currentUser(request);
      return money.refundClaim({ claimId: request.params.id, actor: { id: userId, role } });
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
        security: [{ bearer: [] }],
        response: { 200: paymentAttentionListSchema, ...guarded },
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
        security: [{ bearer: [] }],
        params: z.object({ paymentId: z.string().min(1).max(64) }),
        body: paymentAttentionResolveBodySchema,
        response: { 200: paymentAttentionResolvedSchema, ...guarded, 422: errorBodySchema },
      },
    },
    async (request) => {
      requireSupport(request);
      return attention.resolve({
        paymentId: request.params.paymentId,
        outcome: request.body.outcome,
        staffId: currentUser(request).userId,
      });
    },
  );
};
