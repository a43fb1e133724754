import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  loyaltyCodeSchema,
  loyaltyRulesSchema,
  loyaltySummarySchema,
  referralDiscountSchema,
  referralInfoSchema,
  referralListQuerySchema,
  referralListSchema,
} from '@app/domain';
import { currentUser } from '../../plugins/auth';
import type { LoyaltyService } from './loyalty.service';
import { bearer, errorResponses, idParams } from '../../lib/route-schemas';

/** SPEC §7 "Loyalty and referral", CONTRACT "Paths"; paths exact. */
export const loyaltyRoutes: FastifyPluginAsyncZod<{ service: LoyaltyService }> = async (app, { service }) => {
  app.get(
    '/api/en/orders/discounts/loyalty_discounts/rules',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['loyalty'],
        summary: 'The loyalty rules [{from, to, percent}]',
        security: bearer,
        response: { 200: loyaltyRulesSchema, ...errorResponses(401, 404) },
      },
    },
    async () => service.rules(),
  );
  app.get(
    '/api/en/orders/discounts/loyalty_discounts',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['loyalty'],
        summary: 'The points balance (the ledger sum), the current rule and points to the next, the codes',
        security: bearer,
        response: { 200: loyaltySummarySchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.summary({ customerId: currentUser(request).userId }),
  );
  app.get(
    '/api/en/orders/discounts/loyalty_discounts/code',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['loyalty'],
        summary: 'The loyalty code not used yet, or null',
        security: bearer,
        response: { 200: loyaltyCodeSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.code({ customerId: currentUser(request).userId }),
  );
  app.post(
    '/api/en/orders/discounts/loyalty_discounts/code',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['loyalty'],
        summary: 'Generates a single-use loyalty code (ADR 0050); the open code again when there is one',
        security: bearer,
        response: { 200: loyaltyCodeSchema, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) => service.generateCode({ customerId: currentUser(request).userId }),
  );

  app.get(
    '/api/en/customers/referral',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['referrals'],
        summary: 'The referral link and the count of ready referrals',
        security: bearer,
        response: { 200: referralInfoSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.referralInfo({ customerId: currentUser(request).userId }),
  );
  app.get(
    '/api/en/customers/referrals/referral_customers',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['referrals'],
        summary: 'The referred customers, filtered by status (0 all, 1–6)',
        security: bearer,
        querystring: referralListQuerySchema,
        response: { 200: referralListSchema, ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => service.referralList({ customerId: currentUser(request).userId, idStatus: request.query.idStatus as 0 }),
  );
  app.get(
    '/api/en/customers/referrals/:id/discount',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['referrals'],
        summary: "The referral's discount code",
        security: bearer,
        params: idParams,
        response: { 200: referralDiscountSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.referralDiscount({ customerId: currentUser(request).userId, id: request.params.id }),
  );
  app.post(
    '/api/en/customers/referrals/:id/discount',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['referrals'],
        summary: 'Generates the discount of a ready referral (ADR 0051); the same code when asked again',
        security: bearer,
        params: idParams,
        response: { 200: referralDiscountSchema, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) => service.generateReferralDiscount({ customerId: currentUser(request).userId, id: request.params.id }),
  );
};
