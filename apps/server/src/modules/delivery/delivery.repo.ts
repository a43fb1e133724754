import { ORDER_STATUS, type DeliveryState, type ExtensionState, type OrderEventType, type OrderFile } from '@app/domain';
import type { Queryable } from '../../db/client';

/** The order as the after-payment calls read it: who it belongs to, who writes it, where it stands. */
export interface AfterPaymentOrder {
  id: number;
  customerId: number;
  writerId: number | null;
  statusId: number;
  deadline: Date;
  title: string;
  customerEmail: string;
  writerEmail: string | null;
}

export interface DeliveryRow {
  id: number;
  orderId: number;
  message: string;
  deliveredAt: Date;
  reviewBy: Date | null;
  state: DeliveryState;
  reviewExtended: boolean;
  number: number;
}

export interface ExtensionRow {
  id: number;
  orderId: number;
  previousDeadline: Date;
  deadline: Date;
  reason: string;
  answerBy: Date;
  state: ExtensionState;
  proposedByRole: number | null;
  supportAlertAt: Date | null;
  createdAt: Date;
}

export interface EventRow {
  type: OrderEventType;
  date: Date;
  actorRole: number | null;
  deadline: Date | null;
  note: string | null;
}

const ORDER_COLUMNS = `o.id, o.customer_id, o.writer_id, o.status_id, o.deadline, o.title, c.email AS customer_email, w.email AS writer_email
  FROM orders o JOIN users c ON c.id = o.customer_id LEFT JOIN users w ON w.id = o.writer_id`;

const toOrder = (r: Record<string, unknown>): AfterPaymentOrder => ({
  id: Number(r.id),
  customerId: Number(r.customer_id),
  writerId: r.writer_id === null ? null : Number(r.writer_id),
  statusId: Number(r.status_id),
  deadline: new Date(r.deadline as string | Date),
  title: String(r.title),
  customerEmail: String(r.customer_email),
  writerEmail: r.writer_email === null ? null : String(r.writer_email),
});

const DELIVERY_COLUMNS = `d.id, d.order_id, d.message, d.delivered_at, d.review_by, d.state, d.review_extended,
  (SELECT count(*) FROM order_deliveries n WHERE n.order_id = d.order_id AND n.id <= d.id) AS number`;
const toDelivery = (r: Record<string, unknown>): DeliveryRow => ({
  id: Number(r.id),
  orderId: Number(r.order_id),
  message: String(r.message),
  deliveredAt: new Date(r.delivered_at as string | Date),
  reviewBy: r.review_by === null ? null : new Date(r.review_by as string | Date),
  state: r.state as DeliveryState,
  reviewExtended: Boolean(r.review_extended),
  number: Number(r.number),
});

const EXTENSION_COLUMNS = `id, order_id, previous_deadline, deadline, reason, answer_by, state, proposed_by_role, support_alert_at, created_at`;
const toExtension = (r: Record<string, unknown>): ExtensionRow => ({
  id: Number(r.id),
  orderId: Number(r.order_id),
  previousDeadline: new Date(r.previous_deadline as string | Date),
  deadline: new Date(r.deadline as string | Date),
  reason: String(r.reason),
  answerBy: new Date(r.answer_by as string | Date),
  state: r.state as ExtensionState,
  proposedByRole: r.proposed_by_role === null ? null : Number(r.proposed_by_role),
  supportAlertAt: r.support_alert_at === null ? null : new Date(r.support_alert_at as string | Date),
  createdAt: new Date(r.created_at as string | Date),
});

/**
 * SQL of the after-payment module (ADR 0084): it owns order_deliveries, order_delivery_files,
 * order_extensions and order_events, and reads orders, order_files and users. A customer's query carries
 * the customer id in its WHERE; a writer's the writer id (another's order is a 404 by construction).
 */
export const createDeliveryRepo = (q: Queryable) => ({
  /** The order as a customer sees it (null when it is not theirs). */
  async orderOfCustomer({ orderId, customerId }: { orderId: number; customerId: number }): Promise<AfterPaymentOrder | null> {
    const [row] = await q.query(`SELECT ${ORDER_COLUMNS} WHERE o.id = $1 AND o.customer_id = $2`, [orderId, customerId]);
    return row ? toOrder(row) : null;
  },

  /** The order as staff sees it: support any (writerId null), a writer only one assigned to them. */
  async orderOfStaff({ orderId, writerId }: { orderId: number; writerId: number | null }): Promise<AfterPaymentOrder | null> {
    const [row] = await q.query(`SELECT ${ORDER_COLUMNS} WHERE o.id = $1 AND ($2::int IS NULL OR o.writer_id = $2::int)`, [
      orderId,
      writerId,
    ]);
    return row ? toOrder(row) : null;
  },

  async latestDelivery(orderId: number, { lock = false }: { lock?: boolean } = {}): Promise<DeliveryRow | null> {
    const [row] = await q.query(
      `SELECT ${DELIVERY_COLUMNS} FROM order_deliveries d WHERE d.order_id = $1 ORDER BY d.id DESC LIMIT 1${lock ? ' FOR UPDATE OF d' : ''}`,
      [orderId],
    );
    return row ? toDelivery(row) : null;
  },

  /** The writer files of the order (not of a revision) that no delivery carries yet, oldest first. */
  async undeliveredFileIds(orderId: number): Promise<number[]> {
    const rows = await q.query<{ id: number }>(
      `SELECT f.id FROM order_files f
        WHERE f.order_id = $1 AND f.source = 'writer' AND f.revision_id IS NULL
          AND NOT EXISTS (SELECT 1 FROM order_delivery_files df WHERE df.file_id = f.id)
        ORDER BY f.id`,
      [orderId],
    );
    return rows.map((r) => Number(r.id));
  },

  async insertDelivery(d: {
    orderId: number;
    actorId: number;
    actorRole: number;
    message: string;
    now: Date;
    reviewBy: Date;
    fileIds: number[];
  }): Promise<number> {
    const [row] = await q.query<{ id: number }>(
      `INSERT INTO order_deliveries (order_id, delivered_by, delivered_by_role, message, delivered_at, review_by)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [d.orderId, d.actorId, d.actorRole, d.message, d.now, d.reviewBy],
    );
    if (!row) throw new Error('the delivery was not stored');
    await q.query('INSERT INTO order_delivery_files (file_id, delivery_id) SELECT unnest($1::int[]), $2', [d.fileIds, row.id]);
    return Number(row.id);
  },

  /** The files a delivery carries, as the order page lists them. */
  async deliveryFiles(deliveryId: number): Promise<OrderFile[]> {
    const rows = await q.query<{ id: number; name: string; type_name: string; size_bytes: string | number }>(
      `SELECT f.id, f.name, f.type_name, f.size_bytes FROM order_delivery_files df JOIN order_files f ON f.id = df.file_id
        WHERE df.delivery_id = $1 ORDER BY f.id`,
      [deliveryId],
    );
    return rows.map((r) => ({ id: Number(r.id), name: r.name, typeName: r.type_name, size: Number(r.size_bytes), remote: true as const }));
  },

  /** The clock stops or the delivery is settled: its state, and review_by cleared unless it still awaits review. */
  async setDeliveryState({ id, state, now }: { id: number; state: DeliveryState; now: Date }): Promise<void> {
    await q.query(
      `UPDATE order_deliveries SET state = $2, answered_at = $3, review_by = CASE WHEN $2 = 'awaiting_review' THEN review_by END WHERE id = $1`,
      [id, state, now],
    );
  },

  async extendReview({ id, reviewBy }: { id: number; reviewBy: Date }): Promise<void> {
    await q.query('UPDATE order_deliveries SET review_by = $2, review_extended = true WHERE id = $1 AND NOT review_extended', [
      id,
      reviewBy,
    ]);
  },

  /**
   * The deliveries whose review clock ran out, each with its order row locked (SKIP LOCKED: an order another
   * instance, or a customer's answer, holds now is left for the next run). Run it in a transaction.
   */
  async lockDueDelivery({ now, skip }: { now: Date; skip: number[] }): Promise<{ deliveryId: number; orderId: number } | null> {
    const [row] = await q.query<{ id: number; order_id: number }>(
      `SELECT d.id, d.order_id FROM order_deliveries d JOIN orders o ON o.id = d.order_id
        WHERE d.state = 'awaiting_review' AND d.review_by <= $1 AND o.status_id = $2 AND d.id <> ALL($3::int[])
        ORDER BY d.review_by, d.id LIMIT 1
        FOR UPDATE OF o SKIP LOCKED`,
      [now, ORDER_STATUS.inProgress, skip],
    );
    return row ? { deliveryId: Number(row.id), orderId: Number(row.order_id) } : null;
  },

  /** A delivery still awaiting review on an order support completed by hand: it counts as accepted, its clock stops. */
  async settleCompletedByHand({ now }: { now: Date }): Promise<number> {
    const rows = await q.query(
      `UPDATE order_deliveries d SET review_by = NULL, state = 'accepted', answered_at = $1
        FROM orders o WHERE o.id = d.order_id AND d.state = 'awaiting_review' AND o.status_id = $2
        RETURNING d.id`,
      [now, ORDER_STATUS.completed],
    );
    return rows.length;
  },

  async openExtension(orderId: number, { lock = false }: { lock?: boolean } = {}): Promise<ExtensionRow | null> {
    const [row] = await q.query(
      `SELECT ${EXTENSION_COLUMNS} FROM order_extensions WHERE order_id = $1 AND state = 'open'${lock ? ' FOR UPDATE' : ''}`,
      [orderId],
    );
    return row ? toExtension(row) : null;
  },

  async extension({ id, orderId, lock = false }: { id: number; orderId: number; lock?: boolean }): Promise<ExtensionRow | null> {
    const [row] = await q.query(
      `SELECT ${EXTENSION_COLUMNS} FROM order_extensions WHERE id = $1 AND order_id = $2${lock ? ' FOR UPDATE' : ''}`,
      [id, orderId],
    );
    return row ? toExtension(row) : null;
  },

  async insertExtension(e: {
    orderId: number;
    actorId: number;
    actorRole: number;
    previousDeadline: Date;
    deadline: Date;
    reason: string;
    answerBy: Date;
    now: Date;
  }): Promise<number> {
    const [row] = await q.query<{ id: number }>(
      `INSERT INTO order_extensions (order_id, proposed_by, proposed_by_role, previous_deadline, deadline, reason, answer_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [e.orderId, e.actorId, e.actorRole, e.previousDeadline, e.deadline, e.reason, e.answerBy, e.now],
    );
    if (!row) throw new Error('the proposal was not stored');
    return Number(row.id);
  },

  async settleExtension({ id, state, now }: { id: number; state: ExtensionState; now: Date }): Promise<void> {
    await q.query(
      `UPDATE order_extensions SET state = $2, answered_at = $3, support_alert_at = CASE WHEN $2 = 'expired' THEN $3::timestamptz END
        WHERE id = $1 AND state = 'open'`,
      [id, state, now],
    );
  },

  /** The open proposals past their answer time, each with its order row locked (SKIP LOCKED, as the review clock). */
  async lockDueExtension({ now, skip }: { now: Date; skip: number[] }): Promise<{ id: number; orderId: number } | null> {
    const [row] = await q.query<{ id: number; order_id: number }>(
      `SELECT e.id, e.order_id FROM order_extensions e JOIN orders o ON o.id = e.order_id
        WHERE e.state = 'open' AND e.answer_by < $1 AND e.id <> ALL($2::int[])
        ORDER BY e.answer_by, e.id LIMIT 1
        FOR UPDATE OF o SKIP LOCKED`,
      [now, skip],
    );
    return row ? { id: Number(row.id), orderId: Number(row.order_id) } : null;
  },

  /** Support's list: proposals nobody answered in time, not yet dismissed, newest first. */
  async unansweredAlerts(): Promise<(ExtensionRow & { title: string })[]> {
    const rows = await q.query(
      `SELECT e.id, e.order_id, e.previous_deadline, e.deadline, e.reason, e.answer_by, e.state, e.proposed_by_role,
         e.support_alert_at, e.created_at, o.title
        FROM order_extensions e JOIN orders o ON o.id = e.order_id
        WHERE e.support_alert_at IS NOT NULL AND e.support_seen_at IS NULL
        ORDER BY e.support_alert_at DESC, e.id DESC LIMIT 200`,
    );
    return rows.map((r) => ({ ...toExtension(r), title: String(r.title) }));
  },

  async dismissAlert({ id, now }: { id: number; now: Date }): Promise<boolean> {
    const rows = await q.query(
      'UPDATE order_extensions SET support_seen_at = $2 WHERE id = $1 AND support_alert_at IS NOT NULL AND support_seen_at IS NULL RETURNING id',
      [id, now],
    );
    return rows.length > 0;
  },

  /** The latest proposal of the order that nobody answered in time and support has not dismissed. */
  async alertOf(orderId: number): Promise<ExtensionRow | null> {
    const [row] = await q.query(
      `SELECT ${EXTENSION_COLUMNS} FROM order_extensions
        WHERE order_id = $1 AND support_alert_at IS NOT NULL AND support_seen_at IS NULL ORDER BY id DESC LIMIT 1`,
      [orderId],
    );
    return row ? toExtension(row) : null;
  },

  async insertEvent(e: {
    orderId: number;
    type: OrderEventType;
    actorId: number | null;
    actorRole: number | null;
    deadline?: Date | null;
    note?: string | null;
    now: Date;
  }): Promise<void> {
    await q.query(
      `INSERT INTO order_events (order_id, type, actor_id, actor_role, deadline, note, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [e.orderId, e.type, e.actorId, e.actorRole, e.deadline ?? null, e.note ?? null, e.now],
    );
  },

  async events(orderId: number): Promise<EventRow[]> {
    const rows = await q.query<{
      type: OrderEventType;
      created_at: Date;
      actor_role: number | null;
      deadline: Date | null;
      note: string | null;
    }>('SELECT type, created_at, actor_role, deadline, note FROM order_events WHERE order_id = $1 ORDER BY id', [orderId]);
    return rows.map((r) => ({
      type: r.type,
      date: new Date(r.created_at),
      actorRole: r.actor_role === null ? null : Number(r.actor_role),
      deadline: r.deadline === null ? null : new Date(r.deadline),
      note: r.note,
    }));
  },
});
