import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUDIT_ACTION,
  AUTH_MESSAGE,
  AUTH_RATE_LIMIT_PER_MINUTE,
  twoFactorCodeBodySchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '@app/domain';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { currentActor } from '../../plugins/auth';
import { bearer, errorResponses } from '../../lib/route-schemas';
import { accountWindowRateLimit } from '../../plugins/rate-limit';
import { recordAudit } from '../audit';
import type { TwoFactor } from './auth.two-factor';

const SMALL_BODY_LIMIT = 1024;

/** ADR 0090: a staff member's own two-factor sign-in (TOTP): its state, a QR code to scan, the first code turns it on. */
export const twoFactorRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock; twoFactor: TwoFactor }> = async (
  app,
  { db, clock, twoFactor },
) => {
  // A code is six digits: ten tries a minute per account, as the sign-in's limit (CONTRACT "Errors and access").
  const setupLimit = accountWindowRateLimit(app, 'two-factor-setup', AUTH_RATE_LIMIT_PER_MINUTE, 60_000, AUTH_MESSAGE.tooManyRequests);
  const codeLimit = accountWindowRateLimit(app, 'two-factor-code', AUTH_RATE_LIMIT_PER_MINUTE, 60_000, AUTH_MESSAGE.tooManyRequests);
  app.get(
    '/api/staff/two-factor',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'Whether two-factor sign-in is on for the signed-in staff member, and whether the role requires it (admin)',
        security: bearer,
        response: { 200: twoFactorStatusSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => twoFactor.status(currentActor(request).userId),
  );

  app.post(
    '/api/staff/two-factor/setup',
    {
      preHandler: [app.requireStaff, setupLimit],
      schema: {
        tags: ['staff'],
        summary: 'A new secret waiting for its first code: the QR code (SVG) and the otpauth link; shown once, never logged',
        security: bearer,
        response: { 200: twoFactorSetupSchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return twoFactor.setup(currentActor(request).userId);
    },
  );

  app.post(
    '/api/staff/two-factor/enable',
    {
      preHandler: [app.requireStaff, codeLimit],
      bodyLimit: SMALL_BODY_LIMIT,
      schema: {
        tags: ['staff'],
        summary: 'Turns two-factor sign-in on with the first code from the authenticator app (422 for a wrong code)',
        security: bearer,
        body: twoFactorCodeBodySchema,
        response: { 200: twoFactorStatusSchema, ...errorResponses(401, 404, 413, 422, 429) },
      },
    },
    async (request) => {
      const actor = currentActor(request);
      await db.transaction(async (tx) => {
        await twoFactor.enable(tx, { userId: actor.userId, code: request.body.code });
        await recordAudit(tx, {
          actor,
          action: AUDIT_ACTION.twoFactorOn,
          before: { userId: actor.userId, twoFactor: false },
          after: { userId: actor.userId, twoFactor: true },
          at: clock.now(),
        });
      });
      return twoFactor.status(actor.userId);
    },
  );
};
