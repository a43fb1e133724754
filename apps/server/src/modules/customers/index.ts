import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../context';
import type { AuthService } from '../auth';
import { createCustomersRepo } from './customers.repo';

/** ADR 0085: the buyer a receipt prints, in the caller's transaction (the transactions module's issue step). */
export { selectBuyerForDocument as readBuyerForDocument } from './customers.repo';
import { customersRoutes } from './customers.routes';
import { createCustomersService } from './customers.service';

/** SPEC §7 "Customer": profile, email confirmation, privacy, password, sessions, the report and deletion; `auth` is the app's one auth service (services.ts). */
export const customersModule: FastifyPluginAsyncZod<ModuleOptions & { auth: AuthService }> = async (app, { ctx, auth }) => {
  const service = createCustomersService({ repo: createCustomersRepo(ctx.db), auth, clock: ctx.clock, log: ctx.log });
  await app.register(customersRoutes, { service });
};
