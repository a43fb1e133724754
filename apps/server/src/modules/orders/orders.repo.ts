import { ACTIVE_REVISION_STATUSES, ORDER_STATUS, ROLE, SITE_CATEGORY } from '@app/domain';
import { isUniqueViolation, type Db, type Queryable } from '../../db/client';
import { containsPattern } from '../../db/like';
import { createIdempotencyRepo } from './orders.idempotency.repo';
import {
  ORDER_FIELD_COLUMNS,
  orderFieldParams,
  orderFieldPlaceholder,
  toDate,
  toOrderDetailRow,
  toOrderListRow,
  type OrderDetailRow,
  type OrderFields,
  type OrderListFilter,
  type OrderListRow,
} from './orders.rows';

/** What the payments module does inside an edit's transaction (ADR 0034). */
export interface OrderEditHooks {
  beforeEdit(tx: Queryable, e: { orderId: number; now: Date }): Promise<void>;
  afterEdit(
    tx: Queryable,
    e: {
      orderId: number;
      customerId: number;
      statusId: number;
      previousPriceCents: number;
      previousDueCents: number;
      newPriceCents: number;
      now: Date;
    },
  ): Promise<void>;
}

/** Rolls an edit's transaction back when the order's status no longer allows the edit. */
class OrderNotEditableError extends Error {}

/** The single-use code trigger (migration 0011, ADR 0050) refused a code another order took meanwhile. */
export class DiscountCodeTakenError extends Error {
  constructor() {
    super('single-use discount code already taken');
    this.name = 'DiscountCodeTakenError';
  }
}
const takenCodeAsError = (error: unknown): never => {
  throw isUniqueViolation(error, 'discount_codes_used_order_key') ? new DiscountCodeTakenError() : error;
};

/** A catalogue name: the category's own row wins over the shared one (site_category 0). */
const nameOf = (kind: string, idColumn: string): string =>
  `(SELECT c.name FROM catalogue_items c WHERE c.kind = ${kind} AND c.site_category IN (0, o.site_category)
      AND c.id = o.${idColumn} ORDER BY c.site_category DESC LIMIT 1)`;

/** The columns of an order's card, which the customer's list and staff's queue both show (`OrderCardRow`). */
export const ORDER_CARD_COLUMNS = `o.id, o.uid, o.title, o.site_category, o.work_type_id, ${nameOf("'work_type'", 'work_type_id')} AS work_type_name,
  o.status_id, o.deadline, o.created_at, o.final_price_cents, o.pending, o.pages,
  (SELECT d.review_by FROM order_deliveries d WHERE d.order_id = o.id AND d.state = 'awaiting_review') AS review_by`;

/** The columns of an order as the customer's list shows it: the card, and what only the customer's card uses. */
export const ORDER_LIST_COLUMNS = `${ORDER_CARD_COLUMNS}, o.hidden,
  COALESCE((SELECT s.staff_writer - s.customer_read_writer + s.staff_support - s.customer_read_support
     FROM chat_sequences s WHERE s.order_id = o.id), 0)::int AS unread,
  o.completed_at,
  (o.status_id = ${ORDER_STATUS.completed} AND EXISTS (SELECT 1 FROM order_reviews rv WHERE rv.order_id = o.id)) AS reviewed,
  (o.status_id = ${ORDER_STATUS.completed} AND EXISTS (SELECT 1 FROM revisions rn WHERE rn.order_id = o.id
     AND rn.status_id IN (${ACTIVE_REVISION_STATUSES.join(', ')}))) AS revision_active`;

/** The WHERE of the list: only the filters given, so the planner sees the plainest predicate. */
const listWhere = (customerId: number, filter: OrderListFilter): { where: string; params: unknown[] } => {
  const params: unknown[] = [customerId, filter.hidden];
  const clauses = ['o.customer_id = $1', 'o.hidden = $2'];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    clauses.push(clause(`$${params.length}`));
  };
  if (filter.statusId !== null) add((n) => `o.status_id = ${n}`, filter.statusId);
  if (filter.orderId !== null) add((n) => `o.id = ${n}`, filter.orderId);
  if (filter.createdFrom) add((n) => `o.created_at >= ${n}`, filter.createdFrom);
  if (filter.createdBefore) add((n) => `o.created_at < ${n}`, filter.createdBefore);
  if (filter.search) {
    params.push(containsPattern(filter.search.text));
    const title = `lower(o.title) LIKE $${params.length}`;
    if (filter.search.id === null) clauses.push(title);
    else {
      params.push(filter.search.id);
      clauses.push(`(${title} OR o.id = $${params.length})`);
    }
  }
  return { where: clauses.join(' AND '), params };
};

/** How many orders a list's WHERE matches: alone past the last page, or beside a page without a search. */
const countSql = (where: string): string => `SELECT count(*)::int AS total FROM orders o WHERE ${where}`;

/** The list statement (exported so the benchmark's bare route runs exactly this SQL). */
export const orderListSql = ({
  customerId,
  filter,
  limit,
  offset,
}: {
  customerId: number;
  filter: OrderListFilter;
  limit: number;
  offset: number;
}): {
  sql: string;
  params: unknown[];
} => {
  const { where, params } = listWhere(customerId, filter);
  // ADR 0081 (addendum of 2026-11-27): without a search every filter is an index's own range, so the total is
  // a count of index entries of its own (an uncorrelated subquery: run once) and the page reads only its rows;
  // a window count would first gather every match (9,242 for the busiest customer: 4–5 ms against 1.7).
  // With a search each entry's title is tested, so the window count tests each once.
  const total = filter.search === null ? `(${countSql(where)})` : 'count(*) OVER ()';
  return {
    sql: `WITH page AS (
        SELECT o.id, o.created_at, ${total} AS total FROM orders o
        WHERE ${where}
        ORDER BY o.created_at DESC, o.id DESC
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}
      )
      SELECT ${ORDER_LIST_COLUMNS}, page.total FROM page JOIN orders o ON o.id = page.id AND o.customer_id = $1
      ORDER BY page.created_at DESC, page.id DESC`,
    params: [...params, limit, offset],
  };
};

const orderCountSql = ({ customerId, filter }: { customerId: number; filter: OrderListFilter }): { sql: string; params: unknown[] } => {
  const { where, params } = listWhere(customerId, filter);
  return { sql: countSql(where), params };
};

/** One entry of an order's status history (ADR 0071): who (account, role), how (`via`) and why. */
export interface StatusHistoryRow {
  status: number;
  date: Date;
  actorId: number | null;
  actorRole: number | null;
  reason: string | null;
}

/** The order's history, oldest first; a customer's reads carry their id in the WHERE (null: staff's read). */
export const selectStatusHistory = async (
  q: Queryable,
  { orderId, customerId }: { orderId: number; customerId: number | null },
): Promise<StatusHistoryRow[]> =>
  (
    await q.query<{
      status_id: number;
      created_at: unknown;
      changed_by: number | null;
      changed_by_role: number | null;
      reason: string | null;
    }>(
      `SELECT h.status_id, h.created_at, h.changed_by, h.changed_by_role, h.reason FROM order_status_history h
       JOIN orders o ON o.id = h.order_id
       WHERE h.order_id = $1 AND ($2::int IS NULL OR o.customer_id = $2)
       ORDER BY h.created_at, h.id`,
      [orderId, customerId],
    )
  ).map((r) => ({
    status: r.status_id,
    date: toDate(r.created_at),
    actorId: r.changed_by === null ? null : Number(r.changed_by),
    actorRole: r.changed_by_role === null ? null : Number(r.changed_by_role),
    reason: r.reason,
  }));

/**
 * ADR 0089: one order with every catalogue name, for staff (any order: the staff service scopes a writer
 * to their assigned orders before it asks).
 */
export const selectOrderDetailForStaff = async (q: Queryable, orderId: number): Promise<OrderDetailRow | null> => {
  const [r] = await q.query<Record<string, unknown>>(
    `SELECT o.*,
       ${nameOf("'work_type'", 'work_type_id')} AS work_type_name,
       ${nameOf("'assignment'", 'paper_type_id')} AS paper_type_name,
       ${nameOf("'paper_format'", 'paper_format_id')} AS paper_format_name,
       ${nameOf("'resume_service'", 'resume_service_id')} AS resume_service_name,
       ${nameOf("'subject'", 'subject_id')} AS subject_name,
       ${nameOf(`(CASE o.site_category WHEN ${SITE_CATEGORY.resume} THEN 'resume_level' WHEN ${SITE_CATEGORY.thesis} THEN 'thesis_level' ELSE 'academic_level' END)`, 'level_id')} AS level_name
     FROM orders o
     WHERE o.id = $1`,
    [orderId],
  );
  return r ? toOrderDetailRow(r) : null;
};

/**
 * ADR 0085: the order as a receipt or credit note lists it, read in the caller's transaction (the one that
 * writes the money): its work, names from the catalogue, extras and discount as recorded on the order.
 */
export const selectOrderForDocument = async (q: Queryable, { orderId, customerId }: { orderId: number; customerId: number }) => {
  const [r] = await q.query<Record<string, unknown>>(
    `SELECT o.*,
       ${nameOf("'work_type'", 'work_type_id')} AS work_type_name,
       ${nameOf("'assignment'", 'paper_type_id')} AS paper_type_name,
       ${nameOf(`(CASE o.site_category WHEN ${SITE_CATEGORY.resume} THEN 'resume_level' WHEN ${SITE_CATEGORY.thesis} THEN 'thesis_level' ELSE 'academic_level' END)`, 'level_id')} AS level_name
     FROM orders o
     WHERE o.id = $1 AND o.customer_id = $2`,
    [orderId, customerId],
  );
  return r ? toOrderDetailRow(r) : null;
};

/** Orders of one customer: every query carries the customer id in its WHERE (DESIGN rule 3). */
export const createOrdersRepo = (db: Db) => ({
  /** Non-hidden orders of the customer, counted per status id. */
  countByStatus: async ({ customerId }: { customerId: number }): Promise<{ statusId: number; count: number }[]> => {
    const rows = await db.query<{ status_id: number; count: number }>(
      `SELECT status_id, count(*)::int AS count FROM orders
       WHERE customer_id = $1 AND hidden = false
       GROUP BY status_id
       ORDER BY status_id`,
      [customerId],
    );
    return rows.map((r) => ({ statusId: r.status_id, count: r.count }));
  },

  /**
   * Creates an order in status 1 with its first status history entry, in one transaction. With an
   * idempotency key, the key row is written in the same transaction: a second request with the same key
   * waits for the first (PostgreSQL's unique index) or runs after it (PGlite), finds the key taken, and
   * rolls its order back (IdempotencyKeyTakenError).
   */
  insert: async ({
    customerId,
    uid,
    fields,
    now,
    idempotency,
  }: {
    customerId: number;
    uid: string;
    fields: OrderFields;
    now: Date;
    idempotency: { key: string; requestHash: string } | null;
  }): Promise<{ id: number; uid: string }> =>
    db
      .transaction(async (tx) => {
        const params = [...orderFieldParams(fields), customerId, uid, now];
        const n = ORDER_FIELD_COLUMNS.length;
        const [row] = await tx.query<{ id: number; uid: string }>(
          `INSERT INTO orders (${ORDER_FIELD_COLUMNS.map((c) => c.column).join(', ')}, customer_id, uid, status_id, created_at, updated_at)
         VALUES (${ORDER_FIELD_COLUMNS.map((_, i) => orderFieldPlaceholder(i)).join(', ')}, $${n + 1}, $${n + 2}, $${n + 4}, $${n + 3}, $${n + 3})
         RETURNING id, uid`,
          [...params, ORDER_STATUS.unpaid],
        );
        if (!row) throw new Error('order was not stored');
        // ADR 0071: the first entry, by the customer who placed the order.
        await tx.query(
          `INSERT INTO order_status_history (order_id, status_id, changed_by, changed_by_role, via, created_at)
           SELECT $1, $2, u.id, u.role, 'creation', $4 FROM users u WHERE u.id = $3`,
          [row.id, ORDER_STATUS.unpaid, customerId, now],
        );
        if (idempotency)
          await createIdempotencyRepo(tx).claim({
            customerId,
            key: idempotency.key,
            requestHash: idempotency.requestHash,
            orderId: row.id,
            now,
          });
        return row;
      })
      .catch(takenCodeAsError),

  findIdempotent: (k: { customerId: number; key: string }) => createIdempotencyRepo(db).find(k),

  /** The status and category of one of the customer's orders. */
  findState: async ({
    customerId,
    orderId,
  }: {
    customerId: number;
    orderId: number;
  }): Promise<{ statusId: number; siteCategory: number } | null> => {
    const [row] = await db.query<{ status_id: number; site_category: number }>(
      'SELECT status_id, site_category FROM orders WHERE id = $1 AND customer_id = $2',
      [orderId, customerId],
    );
    return row ? { statusId: row.status_id, siteCategory: row.site_category } : null;
  },

  /**
   * Edits the order when its status still allows it (checked in the same statement, so a payment that
   * lands in between wins). Null when nothing was updated. ADR 0034: in one transaction with the money
   * hooks: `beforeEdit` (the order's open payment attempts are canceled, locked before the order as a
   * callback locks them) and `afterEdit` (a forced edit's difference), with the price before and after.
   */
  update: async ({
    customerId,
    orderId,
    fields,
    now,
    editableStatuses,
    money,
  }: {
    customerId: number;
    orderId: number;
    fields: OrderFields;
    now: Date;
    editableStatuses: readonly number[];
    money: OrderEditHooks;
  }): Promise<{ id: number; uid: string } | null> =>
    db
      .transaction(async (tx) => {
        await money.beforeEdit(tx, { orderId, now });
        const [before] = await tx.query<{ final_price_cents: number; amount_due_cents: number }>(
          'SELECT final_price_cents, amount_due_cents FROM orders WHERE id = $1 AND customer_id = $2 FOR UPDATE',
          [orderId, customerId],
        );
        if (!before) return null;
        const n = ORDER_FIELD_COLUMNS.length;
        const [row] = await tx.query<{ id: number; uid: string; status_id: number; final_price_cents: number }>(
          `UPDATE orders SET ${ORDER_FIELD_COLUMNS.map((c, i) => `${c.column} = ${orderFieldPlaceholder(i)}`).join(', ')}, updated_at = $${n + 1}
         WHERE id = $${n + 2} AND customer_id = $${n + 3} AND status_id = ANY($${n + 4}::int[])
         RETURNING id, uid, status_id, final_price_cents`,
          [...orderFieldParams(fields), now, orderId, customerId, [...editableStatuses]],
        );
        // Not editable any more: the transaction ends without effect (the attempts stay as they were).
        if (!row) throw new OrderNotEditableError();
        await money.afterEdit(tx, {
          orderId,
          customerId,
          statusId: Number(row.status_id),
          previousPriceCents: Number(before.final_price_cents),
          previousDueCents: Number(before.amount_due_cents),
          newPriceCents: Number(row.final_price_cents),
          now,
        });
        return { id: Number(row.id), uid: String(row.uid) };
      })
      .catch((error: unknown) => {
        if (error instanceof OrderNotEditableError) return null;
        return takenCodeAsError(error);
      }),

  findDetail: async ({ customerId, orderId }: { customerId: number; orderId: number }): Promise<OrderDetailRow | null> => {
    const [r] = await db.query<Record<string, unknown>>(
      `SELECT o.*,
         ${nameOf("'work_type'", 'work_type_id')} AS work_type_name,
         ${nameOf("'assignment'", 'paper_type_id')} AS paper_type_name,
         ${nameOf("'paper_format'", 'paper_format_id')} AS paper_format_name,
         ${nameOf("'resume_service'", 'resume_service_id')} AS resume_service_name,
         ${nameOf("'subject'", 'subject_id')} AS subject_name,
         -- CONTRACT "Orders and catalogues": the level list per site category (3 resume, 4 thesis, else academic).
         ${nameOf(`(CASE o.site_category WHEN ${SITE_CATEGORY.resume} THEN 'resume_level' WHEN ${SITE_CATEGORY.thesis} THEN 'thesis_level' ELSE 'academic_level' END)`, 'level_id')} AS level_name
       FROM orders o
       WHERE o.id = $1 AND o.customer_id = $2`,
      [orderId, customerId],
    );
    return r ? toOrderDetailRow(r) : null;
  },

  /** CONTRACT: one entry per change, oldest first, with who made it and why (ADR 0071). */
  statusHistory: async ({ customerId, orderId }: { customerId: number; orderId: number }): Promise<StatusHistoryRow[]> =>
    selectStatusHistory(db, { orderId, customerId }),

  findIdByUid: async ({ customerId, uid }: { customerId: number; uid: string }): Promise<number | null> => {
    const [row] = await db.query<{ id: number }>('SELECT id FROM orders WHERE uid = $1 AND customer_id = $2', [uid, customerId]);
    return row?.id ?? null;
  },

  /** Writers who worked on the customer's orders (status 2 and on), with their premium flag. */
  preferredWriters: async ({ customerId }: { customerId: number }): Promise<{ idWriter: number; isPremium: boolean }[]> =>
    (
      await db.query<{ id: number; is_premium_writer: boolean }>(
        `SELECT u.id, u.is_premium_writer FROM users u
         WHERE u.role = $2 AND u.id IN (SELECT o.writer_id FROM orders o WHERE o.customer_id = $1 AND o.status_id >= $3)
         ORDER BY u.id`,
        [customerId, ROLE.writer, ORDER_STATUS.paid],
      )
    ).map((r) => ({ idWriter: r.id, isPremium: r.is_premium_writer })),

  /** The ids among `ids` that are writer accounts. */
  existingWriters: async ({ ids }: { ids: readonly number[] }): Promise<number[]> =>
    ids.length === 0
      ? []
      : (await db.query<{ id: number }>('SELECT id FROM users WHERE role = $2 AND id = ANY($1::int[])', [[...ids], ROLE.writer])).map(
          (r) => r.id,
        ),

  /**
   * CONTRACT "Order list query", paginated in SQL: the page's ids and the match count in one statement
   * (a window count over the index-backed match), then the page's rows with their names.
   */
  list: async ({
    customerId,
    filter,
    limit,
    offset,
  }: {
    customerId: number;
    filter: OrderListFilter;
    limit: number;
    offset: number;
  }): Promise<{
    rows: OrderListRow[];
    total: number;
  }> => {
    const { sql, params } = orderListSql({ customerId, filter, limit, offset });
    const rows = await db.query<Record<string, unknown>>(sql, params);
    if (rows.length === 0 && offset > 0) {
      // Past the last page: no row carries the count, so it is asked for alone.
      const count = orderCountSql({ customerId, filter });
      const [row] = await db.query<{ total: number }>(count.sql, count.params);
      return { rows: [], total: Number(row?.total ?? 0) };
    }
    return { rows: rows.map(toOrderListRow), total: rows.length === 0 ? 0 : Number(rows[0]?.total) };
  },

  /** One of the customer's orders as the list shows it. */
  findListItem: async ({ customerId, orderId }: { customerId: number; orderId: number }): Promise<OrderListRow | null> => {
    const [row] = await db.query<Record<string, unknown>>(
      `SELECT ${ORDER_LIST_COLUMNS}, 1 AS total FROM orders o WHERE o.id = $1 AND o.customer_id = $2`,
      [orderId, customerId],
    );
    return row ? toOrderListRow(row) : null;
  },

  /** SPEC §2 "Hiding an order removes it from the visible list". False when the order is not theirs. */
  setHidden: async ({
    customerId,
    orderId,
    hidden,
    now,
  }: {
    customerId: number;
    orderId: number;
    hidden: boolean;
    now: Date;
  }): Promise<boolean> =>
    (
      await db.query('UPDATE orders SET hidden = $3, updated_at = $4 WHERE id = $1 AND customer_id = $2 RETURNING id', [
        orderId,
        customerId,
        hidden,
        now,
      ])
    ).length > 0,
});
export type OrdersRepo = ReturnType<typeof createOrdersRepo>;
