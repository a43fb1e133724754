import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUDIT_CSV_MAX_ROWS,
  auditCsvQuerySchema,
  auditListSchema,
  auditQuerySchema,
  csvField,
  type AuditEntry,
  type AuditList,
} from '@app/domain';
import type { preValidationAsyncHookHandler } from 'fastify';
import type { Queryable } from '../../db/client';
import { bearer, errorResponses } from '../../lib/route-schemas';
import { createAuditRepo, type AuditRow } from './audit.repo';

const toEntry = (r: AuditRow): AuditEntry => ({
  id: Number(r.id),
  at: r.at.toISOString(),
  actorId: r.actor_id,
  action: r.action,
  ...(r.order_id === null ? {} : { orderId: r.order_id }),
  before: r.before,
  after: r.after,
});

const CSV_COLUMNS = ['id', 'at', 'actorId', 'action', 'orderId', 'before', 'after'] as const;

/** CONTRACT "Staff side": the audit log, admin only; searchable by order and actor; a CSV export of the same filter. */
export const auditRoutes: FastifyPluginAsyncZod<{ db: Queryable; requireAdmin: preValidationAsyncHookHandler[] }> = async (
  app,
  { db, requireAdmin },
) => {
  const repo = createAuditRepo(db);
  app.get(
    '/api/staff/audit',
    {
      preValidation: requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'The audit log, newest first (admin): every staff change to an order, money, a price, a code or an account',
        security: bearer,
        querystring: auditQuerySchema,
        response: { 200: auditListSchema, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request): Promise<AuditList> => {
      const { page, limit, orderId, actorId } = request.query;
      const { rows, total } = await repo.list({ orderId: orderId ?? null, actorId: actorId ?? null, limit, offset: (page - 1) * limit });
      return { entries: rows.map(toEntry), total };
    },
  );

  app.get(
    '/api/staff/audit/csv',
    {
      preValidation: requireAdmin,
      schema: {
        tags: ['admin'],
        summary: `The audit log as CSV (admin), the same filters, newest first, at most ${AUDIT_CSV_MAX_ROWS} rows`,
        security: bearer,
        querystring: auditCsvQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { rows } = await repo.list({
        orderId: request.query.orderId ?? null,
        actorId: request.query.actorId ?? null,
        limit: AUDIT_CSV_MAX_ROWS,
        offset: 0,
      });
      const lines = [CSV_COLUMNS.join(',')];
      for (const entry of rows.map(toEntry)) lines.push(CSV_COLUMNS.map((c) => csvField(entry[c])).join(','));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        .header('cache-control', 'no-store')
        .send(`${lines.join('\r\n')}\r\n`);
    },
  );
};
