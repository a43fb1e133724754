import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { storedAppSecret } from '../../db/app-secrets';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { randomToken } from '../../lib/tokens';
import { batchPerTurn } from '../../lib/batch';
import type { LiveClaims } from '../../lib/jwt';
import { recordReferral } from '../loyalty';
import { createAuthRepo } from './auth.repo';
import { authRoutes } from './auth.routes';
import { createAuthService, type AuthService, type SessionsEnded } from './auth.service';
import { createTermsRecord } from './auth.terms';
import { twoFactorRoutes } from './auth.two-factor.routes';
import type { TwoFactor } from './auth.two-factor';

// Kept for the module tests that sign tokens; the signer itself is infrastructure (lib/jwt.ts).
export { createAccessTokens } from '../../lib/jwt';
export type { AuthService, SessionsEnded } from './auth.service';
/** The customer's account row: profile and consent writes, and the deletion's erase step (the auth module owns `users`, ADR 0077). */
export { accountWrites, eraseAccount } from './auth.accounts.repo';
/** The personal-data report's `acceptances` section (ADR 0085). */
export { acceptancesReport } from './auth.personal-data.repo';
/** ADR 0090: staff two-factor sign-in and the admin's writes to staff accounts. */
export { createTwoFactor, TWO_FACTOR_MESSAGE, type TwoFactor } from './auth.two-factor';
export { staffAccountWrites, type StaffAuditState } from './auth.staff.repo';

const ROTATION_KEY_NAME = 'refresh_rotation_key';

/**
 * The auth service over the app's infrastructure; other modules use it for email confirmation.
 * `onSessionsEnded` hears every end of sessions (the composition root passes the chat bus's, ADR 0069).
 */
export const authServiceFor = (
  ctx: AppContext,
  { onSessionsEnded, twoFactor }: { onSessionsEnded?: (ended: SessionsEnded) => void; twoFactor?: TwoFactor } = {},
): AuthService => {
  let rotationKey: Promise<string> | undefined;
  return createAuthService({
    repo: createAuthRepo(ctx.db),
    // ADR 0061: stored once, shared by every instance (db/app-secrets.ts); read on the first refresh.
    rotationKey: () =>
      (rotationKey ??= storedAppSecret(ctx.db, ROTATION_KEY_NAME, randomToken).catch((error: unknown) => {
        rotationKey = undefined;
        throw error;
      })),
    clock: ctx.clock,
    tokens: ctx.tokens,
    mailer: ctx.mailer,
    origin: ctx.origin,
    log: ctx.log,
    onReferredSignUp: (e) => recordReferral(ctx.db, e),
    terms: createTermsRecord({ db: ctx.db, clock: ctx.clock, currentVersions: () => ctx.config.legalVersions }),
    ...(onSessionsEnded ? { onSessionsEnded } : {}),
    ...(twoFactor ? { twoFactor } : {}),
  });
};

/** SPEC §7 "Authentication", CONTRACT "Identity"; the service is built once by the composition root (services.ts). */
export const authModule: FastifyPluginAsyncZod<{ service: AuthService; db: Db; clock: Clock; twoFactor: TwoFactor }> = async (
  app,
  { service, db, clock, twoFactor },
) => {
  await app.register(authRoutes, { service });
  await app.register(twoFactorRoutes, { db, clock, twoFactor });
};

/**
 * ADR 0053: is an access token's account still there and its session not ended? (lib/jwt.ts `withLiveness`).
 * ADR 0063: every request still asks the database, but the requests of one event-loop turn ask in one
 * query (lib/batch.ts; no cache: each check reads the state after the request arrived).
 */
export const accessLivenessFor = (db: Db): ((claims: LiveClaims) => Promise<boolean>) => {
  const repo = createAuthRepo(db);
  const live = batchPerTurn((batch: readonly { userId: number; sid: string | null }[]) => repo.liveAccesses(batch));
  return (claims) => live({ userId: claims.userId, sid: claims.sid ?? null });
};
