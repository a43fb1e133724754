import type { AuditAction } from '@app/domain';
import type { Queryable } from '../../db/client';
import type { Actor } from '../../lib/actor';

/** One audit entry: who (a staff actor, or null for the command line), what, on which order, before and after. */
export interface AuditRecord {
  /** the staff member (a role null when only the account is known), or null for the command line */
  actor: (Pick<Actor, 'userId'> & { role: number | null }) | null;
  action: AuditAction;
  orderId?: number | null | undefined;
  before: unknown;
  after: unknown;
  at: Date;
}

/**
 * ADR 0090: records a staff action in the caller's transaction (`tx`), so the entry is written exactly when
 * the change commits and never without it. The audit module owns `audit_log` (ADR 0077); every other
 * module writes it through this function. Only ids and values go in: never a token, a link, a password or
 * a two-factor secret.
 */
export const recordAudit = async (tx: Queryable, r: AuditRecord): Promise<void> => {
  await tx.query(
    `INSERT INTO audit_log (at, actor_id, actor_role, action, order_id, before, after)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)`,
    [
      r.at,
      r.actor?.userId ?? null,
      r.actor?.role ?? null,
      r.action,
      r.orderId ?? null,
      JSON.stringify(r.before ?? null),
      JSON.stringify(r.after ?? null),
    ],
  );
};

/** What the audit records of an order before a change: its status, writer and money (a read of the orders table). */
export const orderAuditState = async (
  q: Queryable,
  orderId: number,
): Promise<{ status: number; writerId: number | null; finalPrice: number; amountDue: number } | null> => {
  const [row] = await q.query<{ status_id: number; writer_id: number | null; final_price_cents: number; amount_due_cents: number }>(
    'SELECT status_id, writer_id, final_price_cents, amount_due_cents FROM orders WHERE id = $1',
    [orderId],
  );
  return row
    ? { status: row.status_id, writerId: row.writer_id, finalPrice: row.final_price_cents / 100, amountDue: row.amount_due_cents / 100 }
    : null;
};

export interface AuditRow {
  id: string | number;
  at: Date;
  actor_id: number | null;
  action: string;
  order_id: number | null;
  before: unknown;
  after: unknown;
}

export const createAuditRepo = (db: Queryable) => ({
  /** Newest first, filtered by order and actor; `limit` rows from `offset`, and the filter's total. */
  list: async ({
    orderId,
    actorId,
    limit,
    offset,
  }: {
    orderId: number | null;
    actorId: number | null;
    limit: number;
    offset: number;
  }): Promise<{ rows: AuditRow[]; total: number }> => {
    const where = `($1::integer IS NULL OR order_id = $1) AND ($2::integer IS NULL OR actor_id = $2)`;
    const rows = await db.query<AuditRow>(
      `SELECT id, at, actor_id, action, order_id, before, after FROM audit_log WHERE ${where} ORDER BY id DESC LIMIT $3 OFFSET $4`,
      [orderId, actorId, limit, offset],
    );
    const [count] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE ${where}`, [orderId, actorId]);
    return { rows, total: count?.n ?? 0 };
  },
});
