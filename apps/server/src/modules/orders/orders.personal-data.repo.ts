import type { Queryable } from '../../db/client';

/**
 * The orders module's part of an account deletion (ADR 0052), in the deletion's transaction: what the
 * customer wrote is erased, the orders stay for the books; the Idempotency-Key rows go.
 */
export const eraseCustomerOrders = async (tx: Queryable, { customerId, now }: { customerId: number; now: Date }): Promise<void> => {
  await tx.query('DELETE FROM order_idempotency_keys WHERE customer_id = $1', [customerId]);
  await tx.query(`UPDATE orders SET title = 'Deleted', description = '', credentials = '', updated_at = $2 WHERE customer_id = $1`, [
    customerId,
    now,
  ]);
};

/** The report's `orders` section (ADR 0052): one keyset batch after `afterId`, each order with the customer's feedback. */
export const ordersReport = (
  q: Queryable,
  { customerId, afterId, limit }: { customerId: number; afterId: number; limit: number },
): Promise<Record<string, unknown>[]> =>
  q.query(
    `SELECT o.id, o.uid, o.title, o.status_id AS "statusId", o.site_category AS "siteCategory", o.work_type_id AS "workTypeId",
      o.pages, o.sources, o.urgency_hours AS "urgencyHours", o.deadline, o.description, o.credentials,
      round(o.final_price_cents / 100.0, 2)::float8 AS "finalPrice", o.discount_code AS "discountCode", o.created_at AS "dateCreated",
      (SELECT json_build_object('rating', r.rating_halves / 2.0, 'comment', r.comment) FROM order_reviews r
        WHERE r.order_id = o.id AND r.customer_id = $1) AS feedback
    FROM orders o WHERE o.customer_id = $1 AND o.id > $2 ORDER BY o.id LIMIT $3`,
    [customerId, afterId, limit],
  );
