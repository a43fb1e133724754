import type { Queryable } from '../../db/client';

/** SQL of a provider's refund or chargeback (ADR 0036); `q` is the callback's open transaction. */
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
});
