import type { Queryable } from '../../db/client';

/** The report's `transactions` section (ADR 0052): one keyset batch after `afterId`. Deletion keeps them whole (the books). */
export const transactionsReport = (
  q: Queryable,
  { customerId, afterId, limit }: { customerId: number; afterId: number; limit: number },
): Promise<Record<string, unknown>[]> =>
  q.query(
    `SELECT t.id, t.order_id AS "orderId", t.type, t.status, t.provider, round(t.amount_cents / 100.0, 2)::float8 AS amount,
      t.currency, t.sandbox, t.created_at AS "dateCreated"
    FROM transactions t WHERE t.customer_id = $1 AND t.id > $2 ORDER BY t.id LIMIT $3`,
    [customerId, afterId, limit],
  );
