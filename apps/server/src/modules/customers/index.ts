import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../context';
import type { AuthService } from '../auth';
import { createCustomersRepo } from './customers.repo';
import type { PersonalData } from './customers.personal-data.repo';
import { customersRoutes } from './customers.routes';
import { createCustomersService } from './customers.service';

/** The deletion's and the report's parts, each module's own (ADR 0052, 0077); this module's own part. */
export { consentHistoryReport, eraseConsentHistory, type PersonalData } from './customers.personal-data.repo';
/** ADR 0085: the buyer a receipt prints, in the caller's transaction (the transactions module's issue step). */
export { selectBuyerForDocument as readBuyerForDocument } from './customers.repo';

/**
 * SPEC §7 "Customer": profile, email confirmation, privacy, password, sessions, the report and deletion; `auth` is the app's one
 * auth service, `personalData` every module's erase step and report sections (services.ts).
 */
export const customersModule: FastifyPluginAsyncZod<ModuleOptions & { auth: AuthService; personalData: PersonalData }> = async (
  app,
  { ctx, auth, personalData },
) => {
  const service = createCustomersService({
    db: ctx.db,
    repo: createCustomersRepo(ctx.db),
    auth,
    personalData,
    clock: ctx.clock,
    log: ctx.log,
  });
  await app.register(customersRoutes, { service });
};
