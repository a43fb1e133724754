import { ORDER_STATUS, ROLE } from '@app/domain';
import type { Queryable } from '../../db/client';

/**
 * Every write other modules make to an order: its status and what goes with it (`pending`,
 * `amount_due_cents`, `completed_at`, the history entry) and its writer. The orders module owns them (ADR 0054). Other modules call these
 * inside their own transaction (`q`) through `orderWrites` of the module's index.ts; none of them
 * writes the `orders` table itself. Each move is guarded in its WHERE, so two racing callers move an
 * order once and write one history entry.
 */
export const createOrderWritesRepo = (q: Queryable) => {
  const recordHistory = async (orderId: number, statusId: number, changedBy: number | null, now: Date): Promise<void> => {
    await q.query('INSERT INTO order_status_history (order_id, status_id, changed_by, created_at) VALUES ($1, $2, $3, $4)', [
      orderId,
      statusId,
      changedBy,
      now,
    ]);
  };

  return {
    /**
     * ADR 0052: an account deletion erases what the customer wrote on their orders; the orders stay for
     * the books (price, status, dates).
     */
    async eraseCustomerText({ customerId, now }: { customerId: number; now: Date }): Promise<void> {
      await q.query(`UPDATE orders SET title = 'Deleted', description = '', credentials = '', updated_at = $2 WHERE customer_id = $1`, [
        customerId,
        now,
      ]);
    },

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

    /** Unpaid → paid, once: only an unpaid order moves, and its history gets the entry. */
    async markPaid({ orderId, now }: { orderId: number; now: Date }): Promise<boolean> {
      const rows = await q.query(
        'UPDATE orders SET status_id = $3, pending = false, updated_at = $2 WHERE id = $1 AND status_id = $4 RETURNING id',
        [orderId, now, ORDER_STATUS.paid, ORDER_STATUS.unpaid],
      );
      if (rows.length === 0) return false;
      await recordHistory(orderId, ORDER_STATUS.paid, null, now);
      return true;
    },

    /** A paid difference: the amount due is cleared and the order is paid again (modified → paid, with its history). */
    async markDifferencePaid({ orderId, amountCents, now }: { orderId: number; amountCents: number; now: Date }): Promise<boolean> {
      const rows = await q.query(
        `UPDATE orders SET amount_due_cents = 0, status_id = $4, pending = false, updated_at = $3
          WHERE id = $1 AND status_id = $5 AND amount_due_cents = $2 RETURNING id`,
        [orderId, amountCents, now, ORDER_STATUS.paid, ORDER_STATUS.modified],
      );
      if (rows.length === 0) return false;
      await recordHistory(orderId, ORDER_STATUS.paid, null, now);
      return true;
    },

    /** The difference a forced edit left to pay (0 when none). */
    async setAmountDue({ orderId, cents, now }: { orderId: number; cents: number; now: Date }): Promise<void> {
      await q.query('UPDATE orders SET amount_due_cents = $2, updated_at = $3 WHERE id = $1', [orderId, cents, now]);
    },

    /** The order moves to refunded once, with its history entry, unless it is refunded already. */
    async markRefunded({ orderId, now }: { orderId: number; now: Date }): Promise<boolean> {
      const rows = await q.query(
        'UPDATE orders SET status_id = $2, pending = false, updated_at = $3 WHERE id = $1 AND status_id <> $2 RETURNING id',
        [orderId, ORDER_STATUS.refunded, now],
      );
      if (rows.length === 0) return false;
      await recordHistory(orderId, ORDER_STATUS.refunded, null, now);
      return true;
    },

    /**
     * Staff move the order to `statusId` with who did it; completion stamps `completed_at` (the revision
     * window runs from it). False when the order does not exist or already has that status.
     */
    async changeStatus({
      orderId,
      statusId,
      changedBy,
      now,
    }: {
      orderId: number;
      statusId: number;
      changedBy: number;
      now: Date;
    }): Promise<boolean> {
      const updated = await q.query(
        `UPDATE orders SET status_id = $2::int, updated_at = $3::timestamptz,
           completed_at = CASE WHEN $2::int = $4::int THEN $3::timestamptz ELSE completed_at END
         WHERE id = $1 AND status_id <> $2::int RETURNING id`,
        [orderId, statusId, now, ORDER_STATUS.completed],
      );
      if (updated.length === 0) return false;
      await recordHistory(orderId, statusId, changedBy, now);
      return true;
    },

    /** Assigns a writer account; false when the order does not exist or the id is not a writer. */
    async assignWriter({ orderId, writerId, now }: { orderId: number; writerId: number; now: Date }): Promise<boolean> {
      const rows = await q.query(
        `UPDATE orders SET writer_id = $2, updated_at = $3
         WHERE id = $1 AND EXISTS (SELECT 1 FROM users u WHERE u.id = $2 AND u.role = $4) RETURNING id`,
        [orderId, writerId, now, ROLE.writer],
      );
      return rows.length > 0;
    },
  };
};
export type OrderWrites = ReturnType<typeof createOrderWritesRepo>;
