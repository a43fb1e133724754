import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../context';
import { createPaymentsRepo } from './payments.repo';
import { paymentsRoutes } from './payments.routes';
import { createPaymentsService } from './payments.service';
import { createProviders } from './providers';

export { createMoneySupport, orderEditMoney, type MoneySupport } from './payments.settle';

/**
 * Payments (issue 4): checkout redirects, provider adapters (sandbox without credentials), callbacks
 * applied exactly once, the return page's status check.
 */
export const paymentsModule: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const repo = createPaymentsRepo(ctx.db);
  const providers = await createProviders({ config: ctx.config.payments, repo, origin: ctx.origin });
  const sandboxed = Object.values(providers).filter((p) => p.sandbox).map((p) => p.name);
  if (sandboxed.length > 0 && ctx.config.env === 'production') {
    ctx.log.warn({ providers: sandboxed }, 'payment providers without credentials run in sandbox mode: no money moves');
  }
  const service = createPaymentsService({ db: ctx.db, repo, providers, clock: ctx.clock, log: ctx.log, origin: ctx.origin });
  await app.register(paymentsRoutes, { service });
};
