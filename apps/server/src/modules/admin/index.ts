import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { ADMIN_MESSAGE, DomainError, ERROR_CODE, isAdminRole } from '@app/domain';
import { currentUser } from '../../plugins/auth';
import type { ModuleOptions } from '../../context';
import type { AuthService, TwoFactor } from '../auth';
import type { CatalogueReader } from '../catalogue';
import { auditModule } from '../audit';
import { createDiscountAdmin } from '../discounts';
import { createAdminPrices } from './admin.prices';
import { adminRoutes } from './admin.routes';
import { createAdminStaff } from './admin.staff';

/**
 * CONTRACT "Staff side", ADR 0090: the admin routes' guard, run before the body is validated (so a customer
 * hears 404 and a writer 403 whatever they send). A customer token is 404 (as every staff route),
 * a writer or support 403; an admin without two-factor sign-in on is 403 with what to do (admins must).
 */
export const adminGuard = (app: FastifyInstance, twoFactor: Pick<TwoFactor, 'enabled'>): preValidationAsyncHookHandler[] => [
  app.requireStaff as preValidationAsyncHookHandler,
  async (request: FastifyRequest) => {
    const { userId, role } = currentUser(request);
    if (!isAdminRole(role)) throw new DomainError(ERROR_CODE.forbidden, ADMIN_MESSAGE.adminOnly);
    if (!(await twoFactor.enabled(userId))) throw new DomainError(ERROR_CODE.forbidden, ADMIN_MESSAGE.twoFactorRequired);
  },
];

export interface AdminModuleDeps {
  auth: Pick<AuthService, 'forgotPassword' | 'staffSessionsRevoked'>;
  twoFactor: Pick<TwoFactor, 'enabled'>;
  catalogue: Pick<CatalogueReader, 'calcs' | 'siteUrgencies' | 'offeredCategories'>;
  /** ADR 0090: the quotes' and the first paint's caches of the price tables, forgotten after a publish. */
  forgetPriceCaches: () => void;
}

/** CONTRACT "Staff side", ADR 0090: the admin (role 7): prices, discount codes, staff accounts, the audit log. */
export const adminModule: FastifyPluginAsyncZod<ModuleOptions & { deps: AdminModuleDeps }> = async (app, { ctx, deps }) => {
  const requireAdmin = adminGuard(app, deps.twoFactor);
  await app.register(adminRoutes, {
    requireAdmin,
    prices: createAdminPrices({ db: ctx.db, clock: ctx.clock, catalogue: deps.catalogue, forgetCaches: deps.forgetPriceCaches }),
    discounts: createDiscountAdmin({ db: ctx.db, clock: ctx.clock }),
    staff: createAdminStaff({ db: ctx.db, clock: ctx.clock, log: ctx.log, auth: deps.auth }),
  });
  await app.register(auditModule, { ctx, requireAdmin });
};
