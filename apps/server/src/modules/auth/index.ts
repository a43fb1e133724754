import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { recordReferral } from '../loyalty';
import { createAuthRepo } from './auth.repo';
import { authRoutes } from './auth.routes';
import { createAuthService, type AuthService } from './auth.service';

// Kept for the module tests that sign tokens; the signer itself is infrastructure (lib/jwt.ts).
export { createAccessTokens } from '../../lib/jwt';
export type { AuthService } from './auth.service';

/** The auth service over the app's infrastructure; other modules use it for email confirmation. */
export const authServiceFor = (ctx: AppContext): AuthService =>
  createAuthService({
    repo: createAuthRepo(ctx.db),
    clock: ctx.clock,
    tokens: ctx.tokens,
    mailer: ctx.mailer,
    origin: ctx.origin,
    log: ctx.log,
    onReferredSignUp: (e) => recordReferral(ctx.db, e),
  });

/** SPEC §7 "Authentication", CONTRACT "Identity"; the service is built once by the composition root (services.ts). */
export const authModule: FastifyPluginAsyncZod<{ service: AuthService }> = async (app, { service }) => {
  await app.register(authRoutes, { service });
};
