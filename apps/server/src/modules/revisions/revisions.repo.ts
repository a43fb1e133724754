import { ACTIVE_REVISION_STATUSES, ORDER_STATUS, REVISION_STATUS } from '@app/domain';
import type { Db, Queryable } from '../../db/client';

export interface RevisionRow {
  id: number;
  orderId: number;
  customerId: number;
  statusId: number;
  levelId: number;
  categoryIds: number[];
  description: string;
  deadline: Date;
  createdAt: Date;
}

interface Row {
  id: number;
  order_id: number;
  customer_id: number;
  status_id: number;
  level_id: number;
  category_ids: number[];
  description: string;
  deadline: Date | string;
  created_at: Date | string;
}

const toRow = (r: Row): RevisionRow => ({
  id: r.id,
  orderId: r.order_id,
  customerId: r.customer_id,
  statusId: r.status_id,
  levelId: r.level_id,
  categoryIds: r.category_ids.map(Number),
  description: r.description,
  deadline: new Date(r.deadline),
  createdAt: new Date(r.created_at),
});

const COLUMNS = 'r.id, r.order_id, r.customer_id, r.status_id, r.level_id, r.category_ids, r.description, r.deadline, r.created_at';
/** In the SQL text, not a parameter: ON CONFLICT names the partial unique index by this very predicate. */
const ACTIVE = `(${ACTIVE_REVISION_STATUSES.join(', ')})`;

/** The revision a staff member looks at, with the order's writer and the customer to tell. */
export interface StaffRevisionRow extends RevisionRow {
  writerId: number | null;
  customerEmail: string;
  customerFirstName: string;
}

/** PostgreSQL's unique_violation: the one-active-revision index refused a second active revision. */
export { isUniqueViolation } from '../../db/client';

/**
 * Revisions (ADR 0044). Customer queries carry the customer id in their WHERE (DESIGN rule 3); staff
 * queries carry the writer id for a writer, nothing for support (as the staff module's do).
 */
export const createRevisionsRepo = (db: Db) => ({
  /** What a request needs to know of one of the customer's orders; null when it is not theirs. */
  orderState: async ({
    customerId,
    orderId,
  }: {
    customerId: number;
    orderId: number;
  }): Promise<{ statusId: number; pages: number; completedAt: Date | null; activeRevisionId: number | null } | null> => {
    const [row] = await db.query<{ status_id: number; pages: number; completed_at: Date | string | null; active_id: number | null }>(
      `SELECT o.status_id, o.pages, o.completed_at,
         (SELECT r.id FROM revisions r WHERE r.order_id = o.id AND r.customer_id = o.customer_id AND r.status_id IN ${ACTIVE} LIMIT 1) AS active_id
       FROM orders o WHERE o.id = $1 AND o.customer_id = $2`,
      [orderId, customerId],
    );
    if (!row) return null;
    return {
      statusId: row.status_id,
      pages: row.pages,
      completedAt: row.completed_at === null ? null : new Date(row.completed_at),
      activeRevisionId: row.active_id,
    };
  },

  /**
   * Stores a requested revision (status 1) and its first history entry in one statement, when the order
   * is the customer's and completed and has no active revision: the partial unique index decides
   * between two concurrent requests. Null when nothing was stored.
   */
  insert: async (r: {
    customerId: number;
    orderId: number;
    levelId: number;
    categoryIds: number[];
    description: string;
    deadline: Date;
    now: Date;
  }): Promise<{ id: number } | null> => {
    const [row] = await db.query<{ revision_id: number }>(
      `WITH created AS (
         INSERT INTO revisions (order_id, customer_id, status_id, level_id, category_ids, description, deadline, created_at, updated_at)
         SELECT o.id, o.customer_id, $8::int, $3, $4::smallint[], $5, $6, $7, $7 FROM orders o
         WHERE o.id = $1 AND o.customer_id = $2 AND o.status_id = $9
         ON CONFLICT (order_id) WHERE status_id IN ${ACTIVE} DO NOTHING
         RETURNING id, status_id, created_at
       )
       INSERT INTO revision_status_history (revision_id, status_id, changed_by, created_at)
       SELECT id, status_id, $2, created_at FROM created RETURNING revision_id`,
      [
        r.orderId,
        r.customerId,
        r.levelId,
        r.categoryIds,
        r.description,
        r.deadline,
        r.now,
        REVISION_STATUS.requested,
        ORDER_STATUS.completed,
      ],
    );
    return row ? { id: row.revision_id } : null;
  },

  /** The order's revisions, newest first, paged in SQL with the count. */
  list: async ({
    customerId,
    orderId,
    limit,
    offset,
  }: {
    customerId: number;
    orderId: number;
    limit: number;
    offset: number;
  }): Promise<{ rows: RevisionRow[]; total: number }> => {
    const [count] = await db.query<{ total: number }>(
      'SELECT count(*)::int AS total FROM revisions r WHERE r.customer_id = $1 AND r.order_id = $2',
      [customerId, orderId],
    );
    const rows = await db.query<Row>(
      `SELECT ${COLUMNS} FROM revisions r WHERE r.customer_id = $1 AND r.order_id = $2
       ORDER BY r.created_at DESC, r.id DESC LIMIT $3 OFFSET $4`,
      [customerId, orderId, limit, offset],
    );
    return { rows: rows.map(toRow), total: Number(count?.total ?? 0) };
  },

  find: async ({ customerId, revisionId }: { customerId: number; revisionId: number }): Promise<RevisionRow | null> => {
    const [row] = await db.query<Row>(`SELECT ${COLUMNS} FROM revisions r WHERE r.id = $1 AND r.customer_id = $2`, [
      revisionId,
      customerId,
    ]);
    return row ? toRow(row) : null;
  },

  /** Status history of the given revisions, oldest first. */
  history: async (revisionIds: number[]): Promise<Map<number, { status: number; date: Date }[]>> => {
    const byRevision = new Map<number, { status: number; date: Date }[]>();
    if (revisionIds.length === 0) return byRevision;
    const rows = await db.query<{ revision_id: number; status_id: number; created_at: Date | string }>(
      'SELECT revision_id, status_id, created_at FROM revision_status_history WHERE revision_id = ANY($1::int[]) ORDER BY revision_id, id',
      [revisionIds],
    );
    for (const r of rows) {
      const list = byRevision.get(r.revision_id) ?? [];
      list.push({ status: r.status_id, date: new Date(r.created_at) });
      byRevision.set(r.revision_id, list);
    }
    return byRevision;
  },

  /** Staff's revisions, newest first: every one for support (writerId null), the writer's orders' for a writer. */
  staffList: async ({
    writerId,
    orderId,
    statusId,
    limit,
    offset,
  }: {
    writerId: number | null;
    orderId: number | null;
    statusId: number | null;
    limit: number;
    offset: number;
  }): Promise<{ rows: StaffRevisionRow[]; total: number }> => {
    const where = `WHERE ($1::int IS NULL OR o.writer_id = $1) AND ($2::int IS NULL OR r.order_id = $2) AND ($3::int IS NULL OR r.status_id = $3)`;
    const params = [writerId, orderId, statusId];
    const [count] = await db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM revisions r JOIN orders o ON o.id = r.order_id ${where}`,
      params,
    );
    const rows = await db.query<Row & { writer_id: number | null; email: string; first_name: string }>(
      `SELECT ${COLUMNS}, o.writer_id, u.email, u.first_name FROM revisions r JOIN orders o ON o.id = r.order_id JOIN users u ON u.id = r.customer_id
       ${where} ORDER BY r.created_at DESC, r.id DESC LIMIT $4 OFFSET $5`,
      [...params, limit, offset],
    );
    return {
      rows: rows.map((r) => ({ ...toRow(r), writerId: r.writer_id, customerEmail: r.email, customerFirstName: r.first_name })),
      total: Number(count?.total ?? 0),
    };
  },

  /** One revision for staff: any for support (writerId null), only of an order assigned to the writer. */
  staffFind: async ({ revisionId, writerId }: { revisionId: number; writerId: number | null }): Promise<StaffRevisionRow | null> => {
    const [row] = await db.query<Row & { writer_id: number | null; email: string; first_name: string }>(
      `SELECT ${COLUMNS}, o.writer_id, u.email, u.first_name FROM revisions r JOIN orders o ON o.id = r.order_id JOIN users u ON u.id = r.customer_id
       WHERE r.id = $1 AND ($2::int IS NULL OR o.writer_id = $2)`,
      [revisionId, writerId],
    );
    return row ? { ...toRow(row), writerId: row.writer_id, customerEmail: row.email, customerFirstName: row.first_name } : null;
  },

  /**
   * Moves the revision from `from` to `to` and records the move with its time, in one transaction. False
   * when the revision was no longer in `from` (a concurrent move won). A move into an active status while
   * the order has another active revision fails with the unique index's error.
   */
  move: async ({
    revisionId,
    from,
    to,
    changedBy,
    now,
    also,
  }: {
    revisionId: number;
    from: number;
    to: number;
    changedBy: number;
    now: Date;
    /** What else the move does in its transaction (the customer's notification, ADR 0088; staff's audit entry, ADR 0090). */
    also?: (tx: Queryable) => Promise<unknown>;
  }): Promise<boolean> =>
    db.transaction(async (tx) => {
      const updated = await tx.query('UPDATE revisions SET status_id = $3, updated_at = $4 WHERE id = $1 AND status_id = $2 RETURNING id', [
        revisionId,
        from,
        to,
        now,
      ]);
      if (updated.length === 0) return false;
      await tx.query('INSERT INTO revision_status_history (revision_id, status_id, changed_by, created_at) VALUES ($1, $2, $3, $4)', [
        revisionId,
        to,
        changedBy,
        now,
      ]);
      await also?.(tx);
      return true;
    }),
});
export type RevisionsRepo = ReturnType<typeof createRevisionsRepo>;
