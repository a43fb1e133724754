import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../context';
import { createUpgrades, type UpgradePricing } from './payments.upgrades';
import { upgradeRoutes } from './payments.upgrades.routes';
import { createPaymentsRepo } from './payments.repo';
import { paymentsRoutes } from './payments.routes';
import { createPaymentsService } from './payments.service';
import { createProviders } from './providers';
import { createReconciler } from './payments.reconcile';
import { logSandboxPolicy, usablePaymentSystems } from './payments.sandbox-policy';

export { usablePaymentSystems } from './payments.sandbox-policy';

export { createMoneySupport, orderEditMoney, type MoneySupport } from './payments.settle';
/** ADR 0071: a payment support records by hand, settled like a provider's. */
export { createManualPayments, type ManualPayments } from './payments.manual';
/** ADR 0072: the one refund use case, in the caller's transaction (support's refund and a paid order's cancel). */
export { refundOrder, type RefundOutcome, type RefundRequest } from './payments.refunds';
export { createPaymentAttention, type PaymentAttention } from './payments.attention';
export type { UpgradePricing } from './payments.upgrades';
/** The account deletion's erase step (ADR 0052, 0077). */
export { eraseCustomerPayments } from './payments.personal-data.repo';

/**
 * Payments (ADR 0024): checkout redirects, provider adapters (sandbox without credentials), callbacks
 * applied exactly once, the return page's status check.
 */
export const paymentsModule: FastifyPluginAsyncZod<ModuleOptions & { pricing: UpgradePricing }> = async (app, { ctx, pricing }) => {
  const repo = createPaymentsRepo(ctx.db);
  const providers = await createProviders({ config: ctx.config.payments, repo, origin: ctx.origin });
  logSandboxPolicy(ctx.config, ctx.log);
  const usable = new Set(usablePaymentSystems(ctx.config));
  const service = createPaymentsService({
    db: ctx.db,
    repo,
    providers,
    clock: ctx.clock,
    log: ctx.log,
    origin: ctx.origin,
    available: (provider) => usable.has(provider),
  });
  await app.register(paymentsRoutes, { service });
  // ADR 0086: upgrades of a paid order, paid by the difference through the same attempts.
  await app.register(upgradeRoutes, {
    upgrades: createUpgrades({ db: ctx.db, clock: ctx.clock, log: ctx.log, pricing }),
    payments: service,
  });
  // The background reconciliation of attempts left open (ADR 0037), from ready to close.
  const reconciler = createReconciler({
    db: ctx.db,
    providers,
    applyEvent: service.applyEvent,
    clock: ctx.clock,
    log: ctx.log,
    ...ctx.config.payments.reconcile,
  });
  app.addHook('onReady', async () => reconciler.start());
  app.addHook('onClose', async () => reconciler.stop());
};
