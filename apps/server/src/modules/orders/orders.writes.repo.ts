import { checkOrderMove, MOVE_BY, ORDER_STATUS, ROLE, type MoveBy, type OrderMoveFacts } from '@app/domain';
import type { Queryable } from '../../db/client';
import type { Actor } from '../../lib/actor';

/** The order as a move reads it, under its row lock. */
export interface LockedOrder {
  id: number;
  customerId: number;
  statusId: number;
  finalPriceCents: number;
  amountDueCents: number;
  facts: OrderMoveFacts;
}

/** What a move did: moved from `from`, or refused with the transition table's message (or the order is missing). */
export type MoveResult = { moved: true; from: number } | { moved: false; from: number | null; message: string };

export interface MoveRequest {
  orderId: number;
  to: number;
  by: MoveBy;
  /** Who made the move; null for the system (a provider's callback, a job). */
  actor: Actor | null;
  /** Kept for 7, 8 and 9 (CONTRACT "Staff side"); null otherwise. */
  reason?: string | null;
  now: Date;
}

/**
 * Every write other modules make to an order: its status and what goes with it (`pending`,
 * `amount_due_cents`, `completed_at`, the history entry) and its writer. The orders module owns them (ADR 0054). Other modules call these
 * inside their own transaction (`q`) through `orderWrites` of the module's index.ts; none of them
 * writes the `orders` table itself. Every status change goes through `move` (ADR 0071): it locks the
 * order's row, checks the domain's transition table against what the row says now, and writes the
 * history entry with who, how and why; two racing callers move an order once and write one entry.
 */
export const createOrderWritesRepo = (q: Queryable) => {
  const recordHistory = async (m: MoveRequest): Promise<void> => {
    await q.query(
      `INSERT INTO order_status_history (order_id, status_id, changed_by, changed_by_role, via, reason, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [m.orderId, m.to, m.actor?.userId ?? null, m.actor?.role ?? null, m.by, m.reason ?? null, m.now],
    );
  };

  /** Locks the order's row (until the caller's transaction ends) and reads what the table's conditions need. */
  const lockForMove = async (orderId: number): Promise<LockedOrder | null> => {
    const [row] = await q.query<{
      id: number;
      customer_id: number;
      status_id: number;
      writer_id: number | null;
      final_price_cents: number;
      amount_due_cents: number;
      delivered: boolean;
    }>(
      `SELECT o.id, o.customer_id, o.status_id, o.writer_id, o.final_price_cents, o.amount_due_cents,
         EXISTS (SELECT 1 FROM order_deliveries d WHERE d.order_id = o.id) AS delivered
       FROM orders o WHERE o.id = $1 FOR UPDATE OF o`,
      [orderId],
    );
    if (!row) return null;
    return {
      id: Number(row.id),
      customerId: Number(row.customer_id),
      statusId: Number(row.status_id),
      finalPriceCents: Number(row.final_price_cents),
      amountDueCents: Number(row.amount_due_cents),
      facts: { hasWriter: row.writer_id !== null, delivered: Boolean(row.delivered), amountDueCents: Number(row.amount_due_cents) },
    };
  };

  /**
   * The one status change (ADR 0071): under the row lock, the table decides from what the order is now;
   * a refused move changes nothing. Money settles the amount due (2 by payment), paid and refunded
   * clear `pending`, completion stamps `completed_at` (the revision window runs from it).
   */
  const move = async (m: MoveRequest, locked?: LockedOrder | null): Promise<MoveResult> => {
    const order = locked === undefined ? await lockForMove(m.orderId) : locked;
    if (!order) return { moved: false, from: null, message: 'Not found' };
    const check = checkOrderMove(order.statusId, m.to, m.by, order.facts);
    if (!check.ok) return { moved: false, from: order.statusId, message: check.message };
    await q.query(
      `UPDATE orders SET status_id = $2::int, updated_at = $3::timestamptz,
         completed_at = CASE WHEN $2::int = $5::int THEN $3::timestamptz ELSE completed_at END,
         pending = CASE WHEN $2::int = ANY($6::int[]) THEN false ELSE pending END,
         amount_due_cents = CASE WHEN $7::boolean THEN 0 ELSE amount_due_cents END
       WHERE id = $1 AND status_id = $4::int`,
      [
        m.orderId,
        m.to,
        m.now,
        order.statusId,
        ORDER_STATUS.completed,
        [ORDER_STATUS.paid, ORDER_STATUS.refunded],
        m.by === MOVE_BY.payment,
      ],
    );
    await recordHistory(m);
    return { moved: true, from: order.statusId };
  };

  return {
    /** A payment attempt opened: the order shows "pending" while it is unpaid or modified. */
    async markPendingWhenPayable({ orderId, now }: { orderId: number; now: Date }): Promise<void> {
      await q.query('UPDATE orders SET pending = true, updated_at = $2 WHERE id = $1 AND status_id = ANY($3::int[])', [
        orderId,
        now,
        [ORDER_STATUS.unpaid, ORDER_STATUS.modified],
      ]);
    },

    /** The `pending` flag follows whether an attempt is still open (the payments module knows). */
    async setPending({ orderId, pending, now }: { orderId: number; pending: boolean; now: Date }): Promise<void> {
      await q.query('UPDATE orders SET pending = $2, updated_at = $3 WHERE id = $1 AND pending <> $2', [orderId, pending, now]);
    },

    lockForMove,
    move,

    /** Unpaid → paid by money, once: only an unpaid order moves (ADR 0034's full charge). */
    async markPaid({ orderId, now, actor = null }: { orderId: number; now: Date; actor?: Actor | null }): Promise<boolean> {
      const order = await lockForMove(orderId);
      if (order?.statusId !== ORDER_STATUS.unpaid) return false;
      return (await move({ orderId, to: ORDER_STATUS.paid, by: MOVE_BY.payment, actor, now }, order)).moved;
    },

    /** A paid difference: modified → paid by money when exactly that difference was due; the amount due is cleared. */
    async markDifferencePaid({
      orderId,
      amountCents,
      now,
      actor = null,
    }: {
      orderId: number;
      amountCents: number;
      now: Date;
      actor?: Actor | null;
    }): Promise<boolean> {
      const order = await lockForMove(orderId);
      if (order?.statusId !== ORDER_STATUS.modified || order.amountDueCents !== amountCents) return false;
      return (await move({ orderId, to: ORDER_STATUS.paid, by: MOVE_BY.payment, actor, now }, order)).moved;
    },

    /** ADR 0084: the customer accepted a proposed deadline (the delivery module's answer, in its transaction). */
    async setDeadline({ orderId, deadline, now }: { orderId: number; deadline: Date; now: Date }): Promise<void> {
      await q.query('UPDATE orders SET deadline = $2, updated_at = $3 WHERE id = $1', [orderId, deadline, now]);
    },

    /**
     * ADR 0086: a paid upgrade's changes, once, in the payment's transaction: only while the order is
     * still in an upgradeable status and still costs what the upgrade was priced against; the price
     * breakdown gains each line's delta. False when the order moved on (nothing written).
     */
    async applyUpgrade(u: {
      orderId: number;
      statuses: readonly number[];
      basePriceCents: number;
      pages: number;
      urgencyHours: number;
      deadline: Date;
      extras: { premiumWriter: boolean; extraQualityCheck: boolean; onePageSummary: boolean; originalityReport: boolean };
      differenceCents: number;
      priceDelta: Record<string, number>;
      now: Date;
    }): Promise<boolean> {
      const [row] = await q.query<{ price_breakdown: unknown }>(
        `SELECT price_breakdown FROM orders WHERE id = $1 AND status_id = ANY($2::int[]) AND final_price_cents = $3 FOR UPDATE`,
        [u.orderId, u.statuses, u.basePriceCents],
      );
      if (!row) return false;
      const before = (typeof row.price_breakdown === 'string' ? JSON.parse(row.price_breakdown) : row.price_breakdown) as Record<
        string,
        unknown
      > | null;
      const breakdown: Record<string, number> = {};
      for (const [key, delta] of Object.entries(u.priceDelta)) breakdown[key] = Number(before?.[key] ?? 0) + delta;
      const updated = await q.query(
        `UPDATE orders SET pages = $2, urgency_hours = $3, deadline = $4, premium_writer = $5, extra_quality_check = $6,
           one_page_summary = $7, originality_report = $8, final_price_cents = final_price_cents + $9,
           basic_price_cents = basic_price_cents + $10, price_breakdown = $11::jsonb, updated_at = $12
         WHERE id = $1 RETURNING id`,
        [
          u.orderId,
          u.pages,
          u.urgencyHours,
          u.deadline,
          u.extras.premiumWriter,
          u.extras.extraQualityCheck,
          u.extras.onePageSummary,
          u.extras.originalityReport,
          u.differenceCents,
          u.priceDelta.basicPrice ?? 0,
          JSON.stringify({ ...before, ...breakdown }),
          u.now,
        ],
      );
      return updated.length === 1;
    },

    /** The difference a forced edit left to pay (0 when none). */
    async setAmountDue({ orderId, cents, now }: { orderId: number; cents: number; now: Date }): Promise<void> {
      await q.query('UPDATE orders SET amount_due_cents = $2, updated_at = $3 WHERE id = $1', [orderId, cents, now]);
    },

    /**
     * Assigns a writer account and, on a paid order, makes the table's assignment move (2 → 3), in the
     * caller's transaction; false when the order does not exist or the id is not a writer.
     */
    async assignWriter({
      orderId,
      writerId,
      now,
      actor,
    }: {
      orderId: number;
      writerId: number;
      now: Date;
      actor: Actor | null;
    }): Promise<boolean> {
      const rows = await q.query(
        `UPDATE orders SET writer_id = $2, updated_at = $3
         WHERE id = $1 AND EXISTS (SELECT 1 FROM users u WHERE u.id = $2 AND u.role = $4) RETURNING id`,
        [orderId, writerId, now, ROLE.writer],
      );
      if (rows.length === 0) return false;
      const order = await lockForMove(orderId);
      if (order?.statusId === ORDER_STATUS.paid)
        await move({ orderId, to: ORDER_STATUS.inProgress, by: MOVE_BY.assignment, actor, now }, order);
      return true;
    },
  };
};
