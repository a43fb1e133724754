import type { DisputeOutcome, DisputeReason, DisputeStatus, OrderFile } from '@app/domain';
import type { Queryable } from '../../db/client';

/** A dispute row as the service reads it. */
export interface DisputeRow {
  id: number;
  orderId: number;
  customerId: number;
  reason: DisputeReason;
  description: string;
  requestedRefundCents: number | null;
  answerBy: Date;
  createdAt: Date;
  status: DisputeStatus;
  outcome: DisputeOutcome | null;
  resolutionMessage: string | null;
  refundCents: number | null;
  newDeadline: Date | null;
  resolvedAt: Date | null;
}

/** Support's queue row: the dispute and what the order is now. */
export interface StaffDisputeRow extends DisputeRow {
  title: string;
  orderStatus: number;
  writerId: number | null;
  deadline: Date;
}

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));

const COLUMNS = `d.id, d.order_id, d.customer_id, d.reason, d.description, d.requested_refund_cents, d.answer_by, d.created_at,
  d.status, d.outcome, d.resolution_message, d.refund_cents, d.new_deadline, d.resolved_at`;

const toRow = (r: Record<string, unknown>): DisputeRow => ({
  id: Number(r.id),
  orderId: Number(r.order_id),
  customerId: Number(r.customer_id),
  reason: r.reason as DisputeReason,
  description: String(r.description),
  requestedRefundCents: r.requested_refund_cents === null ? null : Number(r.requested_refund_cents),
  answerBy: date(r.answer_by),
  createdAt: date(r.created_at),
  status: r.status as DisputeStatus,
  outcome: (r.outcome as DisputeOutcome | null) ?? null,
  resolutionMessage: (r.resolution_message as string | null) ?? null,
  refundCents: r.refund_cents === null ? null : Number(r.refund_cents),
  newDeadline: dateOrNull(r.new_deadline),
  resolvedAt: dateOrNull(r.resolved_at),
});

/**
 * ADR 0087, 0077: the disputes module writes `order_disputes` and `order_dispute_files` only; it reads
 * orders and order_files. A customer's query carries the customer id in its WHERE (another's id is 404).
 */
export const createDisputesRepo = (q: Queryable) => ({
  /** The order, when it is this customer's. */
  async orderOfCustomer({ orderId, customerId }: { orderId: number; customerId: number }): Promise<{ id: number } | null> {
    const [row] = await q.query<{ id: number }>('SELECT id FROM orders WHERE id = $1 AND customer_id = $2', [orderId, customerId]);
    return row ? { id: Number(row.id) } : null;
  },

  async openDispute(orderId: number): Promise<DisputeRow | null> {
    const [row] = await q.query(`SELECT ${COLUMNS} FROM order_disputes d WHERE d.order_id = $1 AND d.status = 'open'`, [orderId]);
    return row ? toRow(row) : null;
  },

  /** A new dispute; null when another one on the order is open (the partial unique index: two racing make one). */
  async insert(d: {
    orderId: number;
    customerId: number;
    reason: DisputeReason;
    description: string;
    requestedRefundCents: number | null;
    answerBy: Date;
    now: Date;
    fileIds: number[];
  }): Promise<DisputeRow | null> {
    const [row] = await q.query(
      `INSERT INTO order_disputes AS d (order_id, customer_id, reason, description, requested_refund_cents, answer_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (order_id) WHERE status = 'open' DO NOTHING
       RETURNING ${COLUMNS}`,
      [d.orderId, d.customerId, d.reason, d.description, d.requestedRefundCents, d.answerBy, d.now],
    );
    if (!row) return null;
    const dispute = toRow(row);
    if (d.fileIds.length > 0)
      await q.query(
        `INSERT INTO order_dispute_files (file_id, dispute_id)
         SELECT f.id, $2 FROM order_files f WHERE f.id = ANY($1::int[]) AND f.order_id = $3 ON CONFLICT (file_id) DO NOTHING`,
        [d.fileIds, dispute.id, d.orderId],
      );
    return dispute;
  },

  async listForOrder(orderId: number): Promise<DisputeRow[]> {
    const rows = await q.query(`SELECT ${COLUMNS} FROM order_disputes d WHERE d.order_id = $1 ORDER BY d.id DESC`, [orderId]);
    return rows.map(toRow);
  },

  /** The files of these disputes, by dispute id. */
  async filesOf(disputeIds: number[]): Promise<Map<number, OrderFile[]>> {
    const byDispute = new Map<number, OrderFile[]>();
    if (disputeIds.length === 0) return byDispute;
    const rows = await q.query<{ dispute_id: number; id: number; name: string; size_bytes: number; type_name: string }>(
      `SELECT df.dispute_id, f.id, f.name, f.size_bytes, f.type_name
         FROM order_dispute_files df JOIN order_files f ON f.id = df.file_id
        WHERE df.dispute_id = ANY($1::int[]) ORDER BY f.id`,
      [disputeIds],
    );
    for (const r of rows) {
      const list = byDispute.get(Number(r.dispute_id)) ?? [];
      list.push({ id: Number(r.id), name: r.name, size: Number(r.size_bytes), typeName: r.type_name, remote: true });
      byDispute.set(Number(r.dispute_id), list);
    }
    return byDispute;
  },

  /** Locks the dispute's row for its resolution (after the order's row: the same order as every move). */
  async lock(id: number): Promise<DisputeRow | null> {
    const [row] = await q.query(`SELECT ${COLUMNS} FROM order_disputes d WHERE d.id = $1 FOR UPDATE`, [id]);
    return row ? toRow(row) : null;
  },

  async orderIdOf(id: number): Promise<number | null> {
    const [row] = await q.query<{ order_id: number }>('SELECT order_id FROM order_disputes WHERE id = $1', [id]);
    return row ? Number(row.order_id) : null;
  },

  /** Support's one outcome; false when the dispute was resolved already. */
  async resolve(r: {
    id: number;
    outcome: DisputeOutcome;
    message: string;
    refundCents: number | null;
    newDeadline: Date | null;
    newWriterId: number | null;
    resolvedBy: number;
    now: Date;
  }): Promise<boolean> {
    const rows = await q.query(
      `UPDATE order_disputes SET status = 'resolved', outcome = $2, resolution_message = $3, refund_cents = $4, new_deadline = $5,
         new_writer_id = $6, resolved_by = $7, resolved_at = $8
       WHERE id = $1 AND status = 'open' RETURNING id`,
      [r.id, r.outcome, r.message, r.refundCents, r.newDeadline, r.newWriterId, r.resolvedBy, r.now],
    );
    return rows.length > 0;
  },

  /** Support's queue: open ones by answer-by (soonest first), resolved ones newest first. */
  async staffList({
    status,
    orderId,
    limit,
    offset,
  }: {
    status: DisputeStatus;
    orderId: number | null;
    limit: number;
    offset: number;
  }): Promise<{ rows: StaffDisputeRow[]; total: number }> {
    const order = status === 'open' ? 'd.answer_by, d.id' : 'd.resolved_at DESC, d.id DESC';
    const rows = await q.query(
      `SELECT ${COLUMNS}, o.title, o.status_id AS order_status, o.writer_id, o.deadline
         FROM order_disputes d JOIN orders o ON o.id = d.order_id
        WHERE d.status = $1 AND ($2::int IS NULL OR d.order_id = $2)
        ORDER BY ${order} LIMIT $3 OFFSET $4`,
      [status, orderId, limit, offset],
    );
    const [count] = await q.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM order_disputes d WHERE d.status = $1 AND ($2::int IS NULL OR d.order_id = $2)',
      [status, orderId],
    );
    return {
      rows: rows.map((r) => ({
        ...toRow(r),
        title: String(r.title),
        orderStatus: Number(r.order_status),
        writerId: r.writer_id === null ? null : Number(r.writer_id),
        deadline: date(r.deadline),
      })),
      total: Number(count?.n ?? 0),
    };
  },
});
