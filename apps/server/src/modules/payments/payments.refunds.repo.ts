import { ORDER_STATUS } from '@app/domain';
import type { Queryable } from '../../db/client';

/** SQL of a provider's refund or chargeback (issue 8); `q` is the callback's open transaction. */
export const createRefundsRepo = (q: Queryable) => ({
  /**
   * A refund event of the attempt that arrived before it was paid (stored, not applied), now marked
   * applied; null when there is none.
   */
  async takeEarlierRefundEvent(paymentId: string): Promise<string | null> {
    const [row] = await q.query<{ event_id: string }>(
      `UPDATE payment_events SET applied = true
        WHERE (provider, event_id) = (SELECT provider, event_id FROM payment_events
                                       WHERE payment_id = $1 AND status = 'refunded' AND NOT applied
                                       ORDER BY received_at, event_id LIMIT 1)
        RETURNING event_id`,
      [paymentId],
    );
    return row ? String(row.event_id) : null;
  },

  /**
   * The order moves to refunded (7) once, with its history entry, unless it is refunded already or
   * another attempt of it is still paid (a duplicate payment refunded leaves the order paid).
   */
  async markOrderRefunded({ orderId, paymentId, now }: { orderId: number; paymentId: string; now: Date }): Promise<boolean> {
    const rows = await q.query(
      `UPDATE orders SET status_id = $3, pending = false, updated_at = $4
        WHERE id = $1 AND status_id <> $3
          AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.order_id = $1 AND p.id <> $2 AND p.state = 'paid')
        RETURNING id`,
      [orderId, paymentId, ORDER_STATUS.refunded, now],
    );
    if (rows.length === 0) return false;
    await q.query('INSERT INTO order_status_history (order_id, status_id, created_at) VALUES ($1, $2, $3)', [orderId, ORDER_STATUS.refunded, now]);
    return true;
  },
});
