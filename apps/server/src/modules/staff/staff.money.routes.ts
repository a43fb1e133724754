import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError, ERROR_CODE, errorBodySchema, refundClaimListSchema, ROLE, STAFF_MESSAGE, unappliedPaymentListSchema } from '@app/domain';
import type { FastifyRequest } from 'fastify';
import { currentUser } from '../../plugins/auth';
import type { MoneySupport } from '../payments';

const guarded = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** CONTRACT "Staff side": a writer on a support-only route gets 403. */
const requireSupport = (request: FastifyRequest): void => {
  if (currentUser(request).role !== ROLE.support) throw new DomainError(ERROR_CODE.forbidden, STAFF_MESSAGE.supportOnly);
};

/** ADR 0035: support's view of money that did not settle its order, and of refunds owed. */
export const staffMoneyRoutes: FastifyPluginAsyncZod<{ money: MoneySupport }> = async (app, { money }) => {
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
        summary: 'Support refunded the claim at the provider: one refund row in the customer\'s transactions, the claim closed',
        security: [{ bearer: [] }],
        params: z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }),
        response: { 200: z.object({ id: z.number().int(), transactionId: z.number().int() }), ...guarded, 409: errorBodySchema, 422: errorBodySchema },
      },
    },
    async (request) => {
      requireSupport(request);
      return money.refundClaim({ claimId: request.params.id });
    },
  );
};
