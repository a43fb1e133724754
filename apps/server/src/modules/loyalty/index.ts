import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../context';
import { loyaltyRoutes } from './loyalty.routes';
import { createLoyaltyService } from './loyalty.service';

export type { LoyaltyService } from './loyalty.service';
/** Called by payments (settle, the one refund use case of ADR 0072) and auth (sign-up with ref_id), in their transactions. */
export { earnPointsForPayment, recordReferral, takeBackPointsForRefund } from './loyalty.hooks';
/** The account deletion's erase step and the personal-data report's sections (ADR 0052, 0077). */
export { eraseCustomerReferrals, pointsLedgerReport, referralsReport } from './loyalty.personal-data.repo';

/** Loyalty points, codes generated from them, and referrals (SPEC §3, §4, §7; ADR 0050, 0051). */
export const loyaltyModule: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  await app.register(loyaltyRoutes, { service: createLoyaltyService({ db: ctx.db, clock: ctx.clock, origin: ctx.origin }) });
};
