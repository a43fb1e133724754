import { ROLE, STAFF_ROLE_IDS, type StaffMe } from '@app/domain';
import type { Db, Queryable } from '../../db/client';
import {
  ORDER_LIST_COLUMNS,
  orderWrites,
  selectStatusHistory,
  toOrderListRow,
  type LockedOrder,
  type MoveActor,
  type MoveResult,
  type OrderListRow,
  type OrderWrites,
  type StatusHistoryRow,
} from '../orders';

/** An order in staff's queue: the list row plus who ordered it and who writes it, and what the transition table reads. */
export interface StaffOrderRow extends OrderListRow {
  customerId: number;
  writerId: number | null;
  /** A delivery was submitted (ADR 0084). */
  delivered: boolean;
  amountDueCents: number;
}

const COLUMNS = `${ORDER_LIST_COLUMNS}, o.customer_id, o.writer_id, o.amount_due_cents,
  EXISTS (SELECT 1 FROM order_deliveries d WHERE d.order_id = o.id) AS delivered`;

const toRow = (r: Record<string, unknown>): StaffOrderRow => ({
  ...toOrderListRow(r),
  customerId: Number(r.customer_id),
  writerId: r.writer_id === null || r.writer_id === undefined ? null : Number(r.writer_id),
  delivered: Boolean(r.delivered),
  amountDueCents: Number(r.amount_due_cents ?? 0),
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

  /** Runs `work` in one transaction (a status change and what goes with it: the refund, the history). */
  transaction: <T>(work: (tx: Queryable) => Promise<T>): Promise<T> => db.transaction(work),

  /** The orders module's row lock and facts (ADR 0071), in the caller's transaction. */
  lockForMove: (tx: Queryable, orderId: number): Promise<LockedOrder | null> => orderWrites(tx).lockForMove(orderId),

  /** The orders module's one status move through the transition table (ADR 0054, 0071). */
  move: (tx: Queryable, m: Parameters<OrderWrites['move']>[0], locked: LockedOrder): Promise<MoveResult> => orderWrites(tx).move(m, locked),

  /** The order's status history with who and why (staff's read: any order). */
  history: (orderId: number): Promise<StatusHistoryRow[]> => selectStatusHistory(db, { orderId, customerId: null }),

  /** Assigns a writer account (role 3) and, on a paid order, moves it to in progress (2 → 3), in one transaction. */
  assignWriter: async ({
    orderId,
    writerId,
    now,
    actor,
  }: {
    orderId: number;
    writerId: number;
    now: Date;
    actor: MoveActor;
  }): Promise<boolean> => db.transaction(async (tx) => orderWrites(tx).assignWriter({ orderId, writerId, now, actor })),

  isWriter: async ({ userId }: { userId: number }): Promise<boolean> =>
    (await db.query('SELECT 1 FROM users WHERE id = $1 AND role = $2', [userId, ROLE.writer])).length > 0,
});
export type StaffRepo = ReturnType<typeof createStaffRepo>;
