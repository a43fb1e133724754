import { PAYMENT_SYSTEMS, ROLE, STAFF_ROLE_IDS, type PaymentSystem, type StaffMe } from '@app/domain';
import type { Db, Queryable } from '../../db/client';
import { ORDER_LIST_COLUMNS, orderWrites, toOrderListRow, type OrderListRow } from '../orders';

/** An order in staff's queue: the list row plus who ordered it and who writes it. */
export interface StaffOrderRow extends OrderListRow {
  customerId: number;
  writerId: number | null;
}

/** What a refund needs to know of the order's recorded payment (ADR 0024's transactions table). */
export interface PaidTransaction {
  paymentId: string | null;
  provider: PaymentSystem;
  amountCents: number;
  currency: string;
  sandbox: boolean;
}

const COLUMNS = `${ORDER_LIST_COLUMNS}, o.customer_id, o.writer_id`;

const toRow = (r: Record<string, unknown>): StaffOrderRow => ({
  ...toOrderListRow(r),
  customerId: Number(r.customer_id),
  writerId: r.writer_id === null || r.writer_id === undefined ? null : Number(r.writer_id),
});

/**
 * Staff's view of orders (CONTRACT "Staff side"). Not customer queries: support sees every order, a
 * writer's queries carry `writer_id` in their WHERE the way a customer's carry the customer id.
 */
export const createStaffRepo = (db: Db) => ({
  /** Writers (3) and support (6) only. */
  findStaff: async (userId: number): Promise<StaffMe | null> => {
    const [row] = await db.query<{ id: number; role: number; first_name: string; last_name: string; email: string }>(
      'SELECT id, role, first_name, last_name, email FROM users WHERE id = $1 AND role = ANY($2::int[])',
      [userId, STAFF_ROLE_IDS],
    );
    return row ? { id: row.id, role: row.role, firstName: row.first_name, lastName: row.last_name, email: row.email } : null;
  },

  /** The queue, newest first: every order (writerId null) or the writer's; paged in SQL with its count. */
  queue: async ({
    writerId,
    statusId,
    limit,
    offset,
  }: {
    writerId: number | null;
    statusId: number | null;
    limit: number;
    offset: number;
  }): Promise<{ rows: StaffOrderRow[]; total: number }> => {
    const params: unknown[] = [];
    const clauses: string[] = [];
    if (writerId !== null) {
      params.push(writerId);
      clauses.push(`o.writer_id = $${params.length}`);
    }
    if (statusId !== null) {
      params.push(statusId);
      clauses.push(`o.status_id = $${params.length}`);
    }
    const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
    const [countRow] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM orders o ${where}`, params);
    const rows = await db.query<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM orders o ${where} ORDER BY o.created_at DESC, o.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    return { rows: rows.map(toRow), total: Number(countRow?.total ?? 0) };
  },

  /** One order: any for support (writerId null), only an assigned one for a writer. */
  findOrder: async ({ orderId, writerId }: { orderId: number; writerId: number | null }): Promise<StaffOrderRow | null> => {
    const [row] = await db.query<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM orders o WHERE o.id = $1 AND ($2::int IS NULL OR o.writer_id = $2)`,
      [orderId, writerId],
    );
    return row ? toRow(row) : null;
  },

  /**
   * Moves the order to `statusId` and writes the history entry with who did it, in one transaction;
   * completion (5) stamps completed_at (the revision window runs from it). `alsoInTransaction` runs
   * inside the same transaction (the refund record). False when the order does not exist or already has
   * that status (two concurrent changes to one status write one history entry and one refund, ADR 0034).
   */
  changeStatus: async ({
    orderId,
    statusId,
    changedBy,
    now,
    alsoInTransaction,
  }: {
    orderId: number;
    statusId: number;
    changedBy: number;
    now: Date;
    alsoInTransaction?: (tx: Queryable) => Promise<void>;
  }): Promise<boolean> =>
    db.transaction(async (tx) => {
      // The orders module owns the move and its history entry (ADR 0054).
      if (!(await orderWrites(tx).changeStatus({ orderId, statusId, changedBy, now }))) return false;
      if (alsoInTransaction) await alsoInTransaction(tx);
      return true;
    }),

  /** The order's recorded payment when it has one and no refund yet (a second refund of one payment is refused). */
  paymentToRefund: async (q: Queryable, { orderId }: { orderId: number }): Promise<PaidTransaction | null> => {
    const [row] = await q.query<{ payment_id: string | null; provider: string; amount_cents: number; currency: string; sandbox: boolean }>(
      `SELECT t.payment_id, t.provider, t.amount_cents, t.currency, t.sandbox FROM transactions t
       WHERE t.order_id = $1 AND t.type = 'payment'
         AND NOT EXISTS (SELECT 1 FROM transactions r WHERE r.order_id = t.order_id AND r.type = 'refund')
       ORDER BY t.created_at DESC, t.id DESC LIMIT 1`,
      [orderId],
    );
    const provider = PAYMENT_SYSTEMS.find((p) => p === row?.provider);
    return row && provider
      ? {
          paymentId: row.payment_id,
          provider,
          amountCents: Number(row.amount_cents),
          currency: row.currency,
          sandbox: Boolean(row.sandbox),
        }
      : null;
  },

  /** Assigns a writer account (role 3); false when the order does not exist or the id is not a writer. */
  assignWriter: async ({ orderId, writerId, now }: { orderId: number; writerId: number; now: Date }): Promise<boolean> =>
    orderWrites(db).assignWriter({ orderId, writerId, now }),

  isWriter: async ({ userId }: { userId: number }): Promise<boolean> =>
    (await db.query('SELECT 1 FROM users WHERE id = $1 AND role = $2', [userId, ROLE.writer])).length > 0,
});
export type StaffRepo = ReturnType<typeof createStaffRepo>;
