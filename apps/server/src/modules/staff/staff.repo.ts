import {
  MESSAGE_DIRECTION,
  ORDER_STATUS,
  ACTIVE_REVISION_STATUSES,
  ROLE,
  STAFF_ROLE_IDS,
  STAFF_VIEW_RULES,
  type StaffMe,
  type StaffView,
} from '@app/domain';
import type { Db } from '../../db/client';
import { containsPattern } from '../../db/like';
import { ORDER_CARD_COLUMNS, selectStatusHistory, toDate, type OrderCardRow, type StatusHistoryRow } from '../orders';

/** An order in staff's queue: the order's card plus who ordered it and who writes it, and what the transition table reads. */
export interface StaffOrderRow extends OrderCardRow {
  customerId: number;
  writerId: number | null;
  /** A delivery was submitted (ADR 0084). */
  delivered: boolean;
  amountDueCents: number;
  /** ADR 0089: who ordered it and who writes it. */
  customerFirstName: string;
  customerLastName: string;
  customerEmail: string;
  writerFirstName: string | null;
  writerLastName: string | null;
  openRevision: boolean;
}

/** Orders in work: paid, in progress, on hold (ADR 0081, migration 0026's partial index). */
const IN_WORK = `(${ORDER_STATUS.paid}, ${ORDER_STATUS.inProgress}, ${ORDER_STATUS.hold})`;
/** Orders a customer may still be waiting on support for: every status but completed and the final ones. */
const OPEN = `(${ORDER_STATUS.unpaid}, ${ORDER_STATUS.paid}, ${ORDER_STATUS.inProgress}, ${ORDER_STATUS.hold}, ${ORDER_STATUS.modified}, ${ORDER_STATUS.offered})`;
const ACTIVE_REVISION = `(${ACTIVE_REVISION_STATUSES.join(', ')})`;

/** The card's columns (not the customer's own: unread, hidden, feedback, which staff never shows) and staff's. */
const COLUMNS = `${ORDER_CARD_COLUMNS}, o.customer_id, o.writer_id, o.amount_due_cents,
  EXISTS (SELECT 1 FROM order_deliveries d WHERE d.order_id = o.id) AS delivered,
  c.first_name AS customer_first_name, c.last_name AS customer_last_name, c.email AS customer_email,
  w.first_name AS writer_first_name, w.last_name AS writer_last_name,
  EXISTS (SELECT 1 FROM revisions r WHERE r.order_id = o.id AND r.status_id IN ${ACTIVE_REVISION}) AS open_revision`;
/** The people of COLUMNS (primary-key lookups). */
const PEOPLE = 'JOIN users c ON c.id = o.customer_id LEFT JOIN users w ON w.id = o.writer_id';

const nullableText = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/** One row of COLUMNS, built in one object (a page is 20 to 100 of them, ADR 0081). */
const toRow = (r: Record<string, unknown>): StaffOrderRow => ({
  id: Number(r.id),
  uid: String(r.uid),
  title: String(r.title),
  siteCategory: Number(r.site_category),
  workType: { id: Number(r.work_type_id), name: (r.work_type_name as string | null) ?? null },
  statusId: Number(r.status_id),
  deadline: toDate(r.deadline),
  createdAt: toDate(r.created_at),
  finalPriceCents: Number(r.final_price_cents),
  pending: r.pending === true,
  pages: Number(r.pages),
  reviewBy: r.review_by === null || r.review_by === undefined ? null : toDate(r.review_by),
  customerId: Number(r.customer_id),
  writerId: r.writer_id === null || r.writer_id === undefined ? null : Number(r.writer_id),
  delivered: Boolean(r.delivered),
  amountDueCents: Number(r.amount_due_cents ?? 0),
  customerFirstName: String(r.customer_first_name ?? ''),
  customerLastName: String(r.customer_last_name ?? ''),
  customerEmail: String(r.customer_email ?? ''),
  writerFirstName: nullableText(r.writer_first_name),
  writerLastName: nullableText(r.writer_last_name),
  openRevision: Boolean(r.open_revision),
});

/**
 * ADR 0089: each view of support's as a clause over `o` (the orders table). Each narrows to a set an index
 * finds: orders in work by deadline (migration 0026), paid without a writer (0020), on hold (status), open
 * revisions and extension requests (their partial indexes), and for the chat views the open orders with
 * each one's latest message read from a partial index on the order's messages (0026).
 * `disputes`: the orders whose dispute is open (ADR 0087).
 */
export const viewClause = (view: StaffView, now: Date, add: (value: unknown) => string): string | null => {
  switch (view) {
    case 'paidUnassigned':
      return `o.status_id = ${ORDER_STATUS.paid} AND o.writer_id IS NULL`;
    case 'dueSoon': {
      const at = add(now);
      return `o.status_id IN ${IN_WORK} AND o.deadline >= ${at} AND o.deadline < ${at}::timestamptz + ${add(STAFF_VIEW_RULES.dueSoonHours)} * interval '1 hour'`;
    }
    case 'overdue':
      return `o.status_id IN ${IN_WORK} AND o.deadline < ${add(now)}`;
    case 'onHold':
      return `o.status_id = ${ORDER_STATUS.hold}`;
    case 'awaitingSupport':
      return `o.status_id IN ${OPEN} AND EXISTS (
        SELECT 1 FROM (SELECT m.direction, m.created_at FROM messages m WHERE m.order_id = o.id AND m.chat = 'support' ORDER BY m.sequence DESC LIMIT 1) last
         WHERE last.direction = ${MESSAGE_DIRECTION.customerToSupport} AND last.created_at < ${add(new Date(now.getTime() - STAFF_VIEW_RULES.awaitingSupportMinutes * 60_000))})`;
    case 'writerSilent': {
      const cutoff = add(new Date(now.getTime() - STAFF_VIEW_RULES.writerSilentHours * 3_600_000));
      return `o.status_id = ${ORDER_STATUS.inProgress}
        AND NOT EXISTS (SELECT 1 FROM order_deliveries d WHERE d.order_id = o.id AND d.state = 'awaiting_review')
        AND coalesce(
          (SELECT m.created_at FROM messages m WHERE m.order_id = o.id AND m.direction = ${MESSAGE_DIRECTION.writerToCustomer} ORDER BY m.sequence DESC LIMIT 1),
          (SELECT max(h.created_at) FROM order_status_history h WHERE h.order_id = o.id AND h.status_id = ${ORDER_STATUS.inProgress}),
          o.updated_at) < ${cutoff}`;
    }
    case 'revisionsDue':
      return `o.id IN (SELECT r.order_id FROM revisions r WHERE r.status_id IN ${ACTIVE_REVISION})`;
    case 'extensionRequests':
      return `o.id IN (SELECT e.order_id FROM order_extensions e WHERE e.state = 'open')`;
    case 'disputes':
      // ADR 0087: the orders with an open dispute (its partial unique index, one open per order).
      return `o.id IN (SELECT d.order_id FROM order_disputes d WHERE d.status = 'open')`;
  }
};

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
  /** ADR 0089: one of support's views (its clause, `viewClause`), at `now`. */
  view: { view: StaffView; now: Date } | null;
  /** ADR 0089: soonest deadline first (a writer's orders in work before their others). */
  byDeadline: boolean;
}

/**
 * The plain queue's first pages (every order, one status): while a page ends within this many rows of the
 * newest, reading it newest first costs at most this many index entries whichever end is nearer, so the
 * page and the counters' total are one statement; deeper pages read the total first to pick the nearer end.
 */
const PLAIN_FIRST_PAGES_ROWS = 500;

/** ADR 0099: a search counts its matches up to this many; past it the total reads "1,000+" (`totalCapped`). */
export const STAFF_SEARCH_COUNT_CAP = 1000;

/**
 * The narrower views. Without a search, one statement: the matching ids with their count (a window over
 * the match, which each view's index keeps small), then the page's rows; `countSql` counts alone, for a
 * page past the last one. A search (ADR 0099) finds orders whose title matches (trigram index), whose
 * customer's email matches (trigram index on users, read once first) or whose id the text names, one branch
 * each (ADR 0081's addendum of 2026-11-27): each branch stops at the page's last row (newest first, the
 * planner walks the date index for a broad title and the trigram index for a rare one; the email's orders are
 * read from the customer list index alone), and the count, in the same statement, stops at
 * STAFF_SEARCH_COUNT_CAP + 1, so a phrase that matches 25,000 titles never reads them all.
 */
const narrowQueueSql = (f: StaffQueueFilter): { sql: string; countSql: string; params: unknown[]; windowed: boolean } => {
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
  if (f.view) {
    const clause = viewClause(f.view.view, f.view.now, add);
    // A view this server does not count (disputes before their flow lands) matches nothing.
    clauses.push(clause ?? 'false');
  }
  // A search's ways to match, each a branch of its own (see below); none: it matches nothing.
  const ways: string[] = [];
  let people = '';
  if (f.search) {
    if (f.search.text !== null) {
      const pattern = add(containsPattern(f.search.text));
      const inTitle = `lower(o.title) LIKE ${pattern}`;
      const byEmail = 'o.customer_id = ANY((SELECT ids FROM people)::int[])';
      people = `people AS MATERIALIZED (SELECT ARRAY(SELECT u.id FROM users u WHERE lower(u.email) LIKE ${pattern}) AS ids)`;
      ways.push(inTitle, `${byEmail} AND NOT ${inTitle}`);
      if (f.search.id !== null) ways.push(`o.id = ${add(f.search.id)} AND NOT ${inTitle} AND NOT ${byEmail}`);
    } else if (f.search.id !== null) ways.push(`o.id = ${add(f.search.id)}`);
    if (ways.length === 0) clauses.push('false');
  }
  const byDeadline = f.byDeadline || f.dueWithin !== null;
  // A writer's "my orders" by deadline: what is in work first, then the rest.
  const rank = byDeadline && f.writerId !== null ? `CASE WHEN o.status_id IN ${IN_WORK} THEN 0 ELSE 1 END` : '0';
  const keys = byDeadline ? `o.id, o.deadline AS sort_at, ${rank} AS rank` : 'o.id, o.created_at AS sort_at, 0 AS rank';
  const sortKeys = byDeadline ? `${rank}, o.deadline` : 'o.created_at';
  const where = clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '';
  const order = byDeadline ? 'ASC' : 'DESC';
  const limit = `$${params.length + 1}`;
  const offset = `$${params.length + 2}`;
  const rows = `SELECT ${COLUMNS}, page.total FROM page JOIN orders o ON o.id = page.id ${PEOPLE} ORDER BY page.rank, page.sort_at ${order}, page.id ${order}`;
  if (f.search && ways.length > 0) {
    // One branch per way to match, each excluding the ways before it, so an order is in one branch only
    // (UNION ALL, no de-duplication): the title (trigram index, or the date index walked for a broad match),
    // the customer's email (their orders read from the customer list index alone: id, date and title are in
    // it), the order id. Each branch gives its first offset + limit rows in the page's order; the page is
    // taken from those. The capped count rides along on every row (an uncorrelated subquery: run once), so
    // a page is one statement; `countSql` alone for a page past the last one.
    const branch = (way: string, select: string, ordered: boolean) =>
      `(SELECT ${select} FROM orders o WHERE ${[...clauses, way].join(' AND ')}${
        ordered ? ` ORDER BY ${sortKeys} ${order}, o.id ${order} LIMIT ${limit}::bigint + ${offset}::bigint` : ''
      })`;
    const counted = `SELECT count(*)::int AS total FROM (${ways.map((w) => branch(w, '1', false)).join(' UNION ALL ')} LIMIT ${
      STAFF_SEARCH_COUNT_CAP + 1
    }) m`;
    return {
      sql: `WITH ${people === '' ? '' : `${people},`}
        page AS (
          SELECT m.id, m.sort_at, m.rank, (${counted}) AS total
          FROM (${ways.map((w) => branch(w, keys, true)).join(' UNION ALL ')}) m
          ORDER BY m.rank, m.sort_at ${order}, m.id ${order} LIMIT ${limit} OFFSET ${offset}
        )
        ${rows}`,
      countSql: `${people === '' ? '' : `WITH ${people} `}${counted}`,
      params,
      windowed: false,
    };
  }
  return {
    sql: `WITH matches AS (SELECT ${keys} FROM orders o ${where}),
      page AS (
        SELECT m.id, m.sort_at, m.rank, count(*) OVER () AS total FROM matches m
        ORDER BY m.rank, m.sort_at ${order}, m.id ${order} LIMIT ${limit} OFFSET ${offset}
      )
      ${rows}`,
    countSql: `SELECT count(*)::int AS total FROM (SELECT 1 FROM orders o ${where}) m`,
    params,
    windowed: true,
  };
};

/**
 * Staff's view of orders (CONTRACT "Staff side"). Not customer queries: support sees every order, a
 * writer's queries carry `writer_id` in their WHERE the way a customer's carry the customer id. Reads
 * only: the orders module writes an order (status, writer) through `orderWrites(tx)` in the transaction
 * the staff service opens (ADR 0054, 0077).
 */
export const createStaffRepo = (
  db: Db,
  /** Tests: how deep the plain queue's one-statement pages go (PLAIN_FIRST_PAGES_ROWS; 0: never, every page counts first). */
  { plainFirstPagesRows = PLAIN_FIRST_PAGES_ROWS }: { plainFirstPagesRows?: number } = {},
) => ({
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
   * the last page of a million orders costs what the first does; its first pages (PLAIN_FIRST_PAGES_ROWS)
   * read the page and the total in one statement. The narrower views (a writer's orders, unassigned, due,
   * a search) count their matches and page them in one statement.
   */
  queue: async (
    filter: StaffQueueFilter & { limit: number; offset: number },
  ): Promise<{ rows: StaffOrderRow[]; total: number; totalCapped: boolean }> => {
    const { limit, offset } = filter;
    const plain =
      filter.writerId === null &&
      !filter.unassigned &&
      filter.dueWithin === null &&
      filter.search === null &&
      filter.view === null &&
      !filter.byDeadline;
    if (plain) {
      const statusParam = filter.statusId === null ? [] : [filter.statusId];
      if (offset + limit <= plainFirstPagesRows) {
        // The first pages: newest first whatever the total, the counters' total read in the same statement.
        const rows = await db.query<Record<string, unknown>>(
          `WITH page AS (
             SELECT o.id, o.created_at FROM orders o ${filter.statusId === null ? '' : 'WHERE o.status_id = $3'}
             ORDER BY o.created_at DESC, o.id DESC LIMIT $1 OFFSET $2
           )
           SELECT ${COLUMNS}, (SELECT coalesce(sum(orders), 0)::int FROM order_status_counts ${filter.statusId === null ? '' : 'WHERE status_id = $3'}) AS total
           FROM page JOIN orders o ON o.id = page.id ${PEOPLE} ORDER BY page.created_at DESC, page.id DESC`,
          [limit, offset, ...statusParam],
        );
        if (rows.length > 0) return { rows: rows.map(toRow), total: Number(rows[0]?.total ?? 0), totalCapped: false };
      }
      const [count] = await db.query<{ total: number }>(
        'SELECT coalesce(sum(orders), 0)::int AS total FROM order_status_counts WHERE $1::int IS NULL OR status_id = $1',
        [filter.statusId],
      );
      const total = Number(count?.total ?? 0);
      if (offset >= total) return { rows: [], total, totalCapped: false };
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
         SELECT ${COLUMNS} FROM page JOIN orders o ON o.id = page.id ${PEOPLE} ORDER BY page.created_at DESC, page.id DESC`,
        [take, fromEnd ? Math.max(0, total - offset - limit) : offset, ...statusParam],
      );
      return { rows: rows.map(toRow), total, totalCapped: false };
    }
    const { sql, countSql, params, windowed } = narrowQueueSql(filter);
    const rows = await db.query<Record<string, unknown>>(sql, [...params, limit, offset]);
    if (windowed) {
      let total = Number(rows[0]?.total ?? 0);
      if (rows.length === 0 && offset > 0) {
        // Past the last page: no row carries the count.
        const [count] = await db.query<{ total: number }>(countSql, params);
        total = Number(count?.total ?? 0);
      }
      return { rows: rows.map(toRow), total, totalCapped: false };
    }
    // A search: its count stops past the cap; a page past the cap still counts what it has seen.
    const counted =
      rows.length > 0 ? Number(rows[0]?.total ?? 0) : Number((await db.query<{ total: number }>(countSql, params))[0]?.total ?? 0);
    if (counted <= STAFF_SEARCH_COUNT_CAP) return { rows: rows.map(toRow), total: counted, totalCapped: false };
    return { rows: rows.map(toRow), total: Math.max(STAFF_SEARCH_COUNT_CAP, offset + rows.length), totalCapped: true };
  },

  /** One order: any for support (writerId null), only an assigned one for a writer. */
  findOrder: async ({ orderId, writerId }: { orderId: number; writerId: number | null }): Promise<StaffOrderRow | null> => {
    const [row] = await db.query<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM orders o ${PEOPLE} WHERE o.id = $1 AND ($2::int IS NULL OR o.writer_id = $2)`,
      [orderId, writerId],
    );
    return row ? toRow(row) : null;
  },

  /** The order's status history with who and why (staff's read: any order). */
  history: (orderId: number): Promise<StatusHistoryRow[]> => selectStatusHistory(db, { orderId, customerId: null }),

  isWriter: async ({ userId }: { userId: number }): Promise<boolean> =>
    (await db.query('SELECT 1 FROM users WHERE id = $1 AND role = $2', [userId, ROLE.writer])).length > 0,

  /**
   * ADR 0089: each view's count, in one statement (each a count over what its index narrows to). A
   * writer's counts are of their orders. `null` for a view this server does not count.
   */
  viewCounts: async ({ views, now, writerId }: { views: readonly StaffView[]; now: Date; writerId: number | null }) => {
    const params: unknown[] = [];
    const add = (value: unknown): string => {
      params.push(value);
      return `$${params.length}`;
    };
    const scope = writerId === null ? '' : ` AND o.writer_id = ${add(writerId)}`;
    const parts = views.map((view) => {
      const clause = viewClause(view, now, add);
      return { view, sql: clause === null ? null : `(SELECT count(*)::int FROM orders o WHERE ${clause}${scope})` };
    });
    const counted = parts.filter((p) => p.sql !== null);
    const [row] =
      counted.length === 0
        ? [{} as Record<string, unknown>]
        : await db.query<Record<string, unknown>>(`SELECT ${counted.map((p, i) => `${p.sql} AS c${i}`).join(', ')}`, params);
    return parts.map((p) => ({ view: p.view, count: p.sql === null ? null : Number(row?.[`c${counted.indexOf(p)}`] ?? 0) }));
  },

  /**
   * ADR 0089: the writers with their workload and record: orders in work (orders_writer_idx), capacity and
   * availability (writer_profiles, defaults 5 and available), the average review of their orders, and the
   * share of their delivered orders whose first delivery came by the deadline. `search`: in the name or email.
   */
  writers: async ({ search }: { search: string | null }) => {
    const rows = await db.query<Record<string, unknown>>(
      `SELECT u.id, u.first_name, u.last_name,
         coalesce(p.capacity, 5)::int AS capacity, coalesce(p.available, true) AS available,
         (SELECT count(*)::int FROM orders o WHERE o.writer_id = u.id AND o.status_id IN ${IN_WORK}) AS active_orders,
         (SELECT avg(r.rating_halves)::float / 2 FROM orders o JOIN order_reviews r ON r.order_id = o.id WHERE o.writer_id = u.id) AS rating,
         (SELECT avg(CASE WHEN f.first_at <= o.deadline THEN 1 ELSE 0 END)::float
            FROM orders o JOIN LATERAL (SELECT min(d.delivered_at) AS first_at FROM order_deliveries d WHERE d.order_id = o.id) f ON f.first_at IS NOT NULL
           WHERE o.writer_id = u.id) AS on_time
       FROM users u LEFT JOIN writer_profiles p ON p.writer_id = u.id
       WHERE u.role = $1 AND u.deleted_at IS NULL
         AND ($2::text IS NULL OR lower(u.first_name || ' ' || u.last_name) LIKE $2 OR lower(u.email) LIKE $2)
       ORDER BY u.first_name, u.last_name, u.id LIMIT 200`,
      [ROLE.writer, search === null ? null : containsPattern(search)],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      firstName: String(r.first_name ?? ''),
      lastName: String(r.last_name ?? ''),
      activeOrders: Number(r.active_orders ?? 0),
      capacity: Number(r.capacity),
      available: Boolean(r.available),
      rating: r.rating === null || r.rating === undefined ? null : Math.round(Number(r.rating) * 10) / 10,
      onTimeRate: r.on_time === null || r.on_time === undefined ? null : Math.round(Number(r.on_time) * 100) / 100,
    }));
  },

  /** ADR 0089: the customer's other orders, newest first (orders_customer_list_idx), at most 20. */
  customerOrders: async ({ customerId, exceptOrderId }: { customerId: number; exceptOrderId: number }) =>
    (
      await db.query<{ id: number; title: string; status_id: number; created_at: Date | string }>(
        `SELECT o.id, o.title, o.status_id, o.created_at FROM orders o
          WHERE o.customer_id = $1 AND o.id <> $2 ORDER BY o.created_at DESC, o.id DESC LIMIT 20`,
        [customerId, exceptOrderId],
      )
    ).map((r) => ({ id: Number(r.id), title: r.title, status: Number(r.status_id), dateCreated: new Date(r.created_at).toISOString() })),
});
export type StaffRepo = ReturnType<typeof createStaffRepo>;
