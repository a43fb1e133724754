import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../context';
import { authServiceFor } from '../auth';
import { createCustomersRepo } from './customers.repo';
import { customersRoutes } from './customers.routes';
import { createCustomersService } from './customers.service';

/** SPEC §7 "Customer": profile, email confirmation, privacy, password, sessions, the report and deletion. */
export const customersModule: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = createCustomersService({ repo: createCustomersRepo(ctx.db), auth: authServiceFor(ctx), clock: ctx.clock, log: ctx.log });
  await app.register(customersRoutes, { service });
};
