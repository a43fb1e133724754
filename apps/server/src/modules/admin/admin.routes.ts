import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { preValidationAsyncHookHandler } from 'fastify';
import {
  adminDiscountBodySchema,
  adminDiscountListSchema,
  adminDiscountSchema,
  adminDiscountUpdateBodySchema,
  adminPricesBodySchema,
  adminPricesSchema,
  adminStaffBodySchema,
  adminStaffListSchema,
  adminStaffSchema,
  calcsSchema,
} from '@app/domain';
import { currentActor } from '../../plugins/auth';
import { bearer, errorResponses, idParams } from '../../lib/route-schemas';
import type { DiscountAdmin } from '../discounts';
import type { AdminPricesService } from './admin.prices';
import type { AdminStaffService } from './admin.staff';

const SMALL_BODY_LIMIT = 16 * 1024;
/** A category's whole price table: up to 5 000 rates of about 80 bytes. */
const PRICES_BODY_LIMIT = 512 * 1024;

/** CONTRACT "Staff side": the admin's routes (prices, codes, staff accounts); 404 for a customer, 403 for writer and support. */
export const adminRoutes: FastifyPluginAsyncZod<{
  requireAdmin: preValidationAsyncHookHandler[];
  prices: AdminPricesService;
  discounts: DiscountAdmin;
  staff: AdminStaffService;
}> = async (app, { requireAdmin, prices, discounts, staff }) => {
  const errors = errorResponses(401, 403, 404, 409, 413, 422);

  app.get(
    '/api/staff/admin/prices',
    {
      preValidation: requireAdmin,
      schema: {
        tags: ['admin'],
        summary: "Every offered category's price tables as `…/calcs` serves them, and the site's urgencies (admin)",
        security: bearer,
        response: { 200: adminPricesSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async () => prices.get(),
  );

  app.put(
    '/api/staff/admin/prices',
    {
      preValidation: requireAdmin,
      bodyLimit: PRICES_BODY_LIMIT,
      schema: {
        tags: ['admin'],
        summary:
          "Publishes one category's rates, extras and discount cap (admin): new quotes only, orders keep their price; every price above 0; audited",
        security: bearer,
        body: adminPricesBodySchema,
        response: { 200: calcsSchema, ...errors },
      },
    },
    async (request) => prices.put({ actor: currentActor(request), body: request.body }),
  );

  app.get(
    '/api/staff/admin/discounts',
    {
      preValidation: requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Public discount codes with their limits, uses and revenue, newest first (admin)',
        security: bearer,
        response: { 200: adminDiscountListSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async () => discounts.list(),
  );

  app.post(
    '/api/staff/admin/discounts',
    {
      preValidation: requireAdmin,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ['admin'],
        summary:
          'Creates a code: a percent (at most 100) or a fixed amount, limits, start and end, top-writer flag, active (admin); audited',
        security: bearer,
        body: adminDiscountBodySchema,
        response: { 200: adminDiscountSchema, ...errors },
      },
    },
    async (request) => discounts.create({ actor: currentActor(request), body: request.body }),
  );

  app.put(
    '/api/staff/admin/discounts/:id',
    {
      preValidation: requireAdmin,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ['admin'],
        summary: 'Edits a code with the version it was read at; 409 with a message when another admin saved it in between (admin); audited',
        security: bearer,
        params: idParams,
        body: adminDiscountUpdateBodySchema,
        response: { 200: adminDiscountSchema, ...errors },
      },
    },
    async (request) => discounts.update({ actor: currentActor(request), id: request.params.id, body: request.body }),
  );

  app.get(
    '/api/staff/admin/staff',
    {
      preValidation: requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Staff accounts: role, active, two-factor (admin)',
        security: bearer,
        response: { 200: adminStaffListSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async () => staff.list(),
  );

  app.post(
    '/api/staff/admin/staff',
    {
      preValidation: requireAdmin,
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ['admin'],
        summary: 'Adds a staff account; its holder sets a password from the emailed link (admin); audited',
        security: bearer,
        body: adminStaffBodySchema,
        response: { 200: adminStaffSchema, ...errors },
      },
    },
    async (request) => staff.add({ actor: currentActor(request), body: request.body }),
  );

  app.post(
    '/api/staff/admin/staff/:id/suspend',
    {
      preValidation: requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Suspends a staff account: no more sign-in, every session ended at once (admin); audited',
        security: bearer,
        params: idParams,
        response: { 200: adminStaffSchema, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => staff.suspend({ actor: currentActor(request), id: request.params.id }),
  );

  app.post(
    '/api/staff/admin/staff/:id/password-reset',
    {
      preValidation: requireAdmin,
      schema: {
        tags: ['admin'],
        summary:
          'Resets a staff password: the old one stops working, every session ends, a link to set a new one is mailed (admin); audited',
        security: bearer,
        params: idParams,
        response: { 200: adminStaffSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => staff.resetPassword({ actor: currentActor(request), id: request.params.id }),
  );
};
