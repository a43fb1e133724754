import { ROLE, STAFF_ROLE_IDS, type StaffMe } from '@app/domain';
import type { Db } from '../../db/client';
import { containsPattern } from '../../db/like';
import { ORDER_LIST_COLUMNS, selectStatusHistory, toOrderListRow, type OrderListRow, type StatusHistoryRow } from '../orders';

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

/** What staff's queue is narrowed by (ADR 0081); null or false: not narrowed. */
export interface StaffQueueFilter {
  /** A writer's queue: only the orders assigned to them. */
  writerId: number | null;
  statusId: number | null;
  /** Orders without a writer. */
  unassigned: boolean;
  /** Orders in work (`inWorkStatuses`) due between `now` and `now` plus this many hours, soonest first. */
  dueWithin: { hours: number; now: Date; inWorkStatuses: readonly number[] } | null;
  /** Lower-case text found in the title or the customer's email, or the order id it names. */
  search: { text: string | null; id: number | null } | null;
}

/**
 * The narrower views in one statement: the matching ids with their count (a window over the match, which
 * each view's index keeps small), then the page's rows. A search unites the orders whose title matches
 * (trigram index) with those of the customers whose email matches (trigram index on users) and the order
 * the text names by id. `countSql` counts alone, for a page past the last one.
 */
const narrowQueueSql = (f: StaffQueueFilter): { sql: string; countSql: string; params: unknown[] } => {
  const params: unknown[] = [];
  const add = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const clauses: string[] = [];
  if (f.writerId !== null) clauses.push(`o.writer_id = ${add(f.writerId)}`);
  if (f.statusId !== null) clauses.push(`o.status_id = ${add(f.statusId)}`);
  if (f.unassigned) clauses.push('o.writer_id IS NULL');
  if (f.dueWithin) {
    const now = add(f.dueWithin.now);
    clauses.push(`o.deadline >= ${now}`, `o.deadline < ${now}::timestamptz + ${add(f.dueWithin.hours)} * interval '1 hour'`);
    clauses.push(`o.status_id = ANY(${add(f.dueWithin.inWorkStatuses)}::int[])`);
  }
  const keys = f.dueWithin ? 'o.id, o.deadline AS sort_at' : 'o.id, o.created_at AS sort_at';
  const and = (extra: string[]) => {
    const all = [...clauses, ...extra];
    return all.length > 0 ? `WHERE ${all.join(' AND ')}` : '';
  };
  let matches: string;
  if (f.search) {
    const branches: string[] = [];
    if (f.search.text !== null) {
      const pattern = add(containsPattern(f.search.text));
      branches.push(`SELECT ${keys} FROM orders o ${and([`lower(o.title) LIKE ${pattern}`])}`);
      branches.push(`SELECT ${keys} FROM users u JOIN orders o ON o.customer_id = u.id ${and([`lower(u.email) LIKE ${pattern}`])}`);
    }
    if (f.search.id !== null) branches.push(`SELECT ${keys} FROM orders o ${and([`o.id = ${add(f.search.id)}`])}`);
    matches = branches.join(' UNION ');
  } else {
    matches = `SELECT ${keys} FROM orders o ${and([])}`;
  }
  const order = f.dueWithin ? 'ASC' : 'DESC';
  return {
    sql: `WITH matches AS (${matches}),
      page AS (
        SELECT m.id, m.sort_at, count(*) OVER () AS total FROM matches m
        ORDER BY m.sort_at ${order}, m.id ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}
      )
      SELECT ${COLUMNS}, page.total FROM page JOIN orders o ON o.id = page.id ORDER BY page.sort_at ${order}, page.id ${order}`,
    countSql: `SELECT count(*)::int AS total FROM (${matches}) m`,
    params,
  };
};

/**
 * Staff's view of orders (CONTRACT "Staff side"). Not customer queries: support sees every order, a
 * writer's queries carry `writer_id` in their WHERE the way a customer's carry the customer id. Reads
 * only: the orders module writes an order (status, writer) through `orderWrites(tx)` in the transaction
 * the staff service opens (ADR 0054, 0077).
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

  /**
   * The queue (ADR 0081): newest first, or soonest deadline first for `dueWithin`; paged in SQL with its
   * count. Every order or one status (support): the count comes from the per-status counters the orders
   * table keeps (migration 0020) and a page past the middle is read from the other end of the index, so
   * the last page of a million orders costs what the first does. The narrower views (a writer's orders,
   * unassigned, due, a search) count their matches and page them in one statement.
   */
  queue: async (filter: StaffQueueFilter & { limit: number; offset: number }): Promise<{ rows: StaffOrderRow[]; total: number }> => {
    const { limit, offset } = filter;
    const plain = filter.writerId === null && !filter.unassigned && filter.dueWithin === null && filter.search === null;
    if (plain) {
      const [count] = await db.query<{ total: number }>(
        'SELECT coalesce(sum(orders), 0)::int AS total FROM order_status_counts WHERE $1::int IS NULL OR status_id = $1',
        [filter.statusId],
      );
      const total = Number(count?.total ?? 0);
      if (offset >= total) return { rows: [], total };
      // Past the middle, the same rows are the first ones counted from the oldest end.
      const fromEnd = offset > total - offset - limit;
      const take = Math.min(limit, total - offset);
      const where = filter.statusId === null ? '' : 'WHERE o.status_id = $3';
      const direction = fromEnd ? 'ASC' : 'DESC';
      const rows = await db.query<Record<string, unknown>>(
        `WITH page AS (
           SELECT o.id, o.created_at FROM orders o ${where}
           ORDER BY o.created_at ${direction}, o.id ${direction} LIMIT $1 OFFSET $2
         )
         SELECT ${COLUMNS} FROM page JOIN orders o ON o.id = page.id ORDER BY page.created_at DESC, page.id DESC`,
        [take, fromEnd ? Math.max(0, total - offset - limit) : offset, ...(filter.statusId === null ? [] : [filter.statusId])],
      );
      return { rows: rows.map(toRow), total };
    }
    const { sql, params } = narrowQueueSql(filter);
    const rows = await db.query<Record<string, unknown>>(sql, [...params, limit, offset]);
    let total = Number(rows[0]?.total ?? 0);
    if (rows.length === 0 && offset > 0) {
      // Past the last page: no row carries the count.
      const [count] = await db.query<{ total: number }>(narrowQueueSql(filter).countSql, params);
      total = Number(count?.total ?? 0);
    }
    return { rows: rows.map(toRow), total };
  },

  /** One order: any for support (writerId null), only an assigned one for a writer. */
  findOrder: async ({ orderId, writerId }: { orderId: number; writerId: number | null }): Promise<StaffOrderRow | null> => {
    const [row] = await db.query<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM orders o WHERE o.id = $1 AND ($2::int IS NULL OR o.writer_id = $2)`,
      [orderId, writerId],
    );
    return row ? toRow(row) : null;
  },

  /** The order's status history with who and why (staff's read: any order). */
  history: (orderId: number): Promise<StatusHistoryRow[]> => selectStatusHistory(db, { orderId, customerId: null }),

  isWriter: async ({ userId }: { userId: number }): Promise<boolean> =>
    (await db.query('SELECT 1 FROM users WHERE id = $1 AND role = $2', [userId, ROLE.writer])).length > 0,
});
export type StaffRepo = ReturnType<typeof createStaffRepo>;
