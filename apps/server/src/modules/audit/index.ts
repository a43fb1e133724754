import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { preValidationAsyncHookHandler } from 'fastify';
import type { ModuleOptions } from '../../context';
import { auditRoutes } from './audit.routes';

/** ADR 0090: the one way every module writes the audit log, in the transaction of the change it records. */
export { orderAuditState, recordAudit, type AuditRecord } from './audit.repo';
/** The deletion's erase step (ADR 0052): staff's free text about the customer's orders. */
export { eraseCustomerAuditText } from './audit.personal-data.repo';

/** CONTRACT "Staff side": the audit log for admins (JSON and CSV). */
export const auditModule: FastifyPluginAsyncZod<ModuleOptions & { requireAdmin: preValidationAsyncHookHandler[] }> = async (
  app,
  { ctx, requireAdmin },
) => {
  await app.register(auditRoutes, { db: ctx.db, requireAdmin });
};
