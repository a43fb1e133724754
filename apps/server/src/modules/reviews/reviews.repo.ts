import type { Db } from '../../db/client';

/** Reviews of the customer's orders: every query carries the customer id in its WHERE (DESIGN rule 3). */
export const createReviewsRepo = (db: Db) => ({
  /** The status of one of the customer's orders and whether it has a review; null when not theirs. */
  orderState: async ({
    customerId,
    orderId,
  }: {
    customerId: number;
    orderId: number;
  }): Promise<{ statusId: number; reviewed: boolean } | null> => {
    const [row] = await db.query<{ status_id: number; reviewed: boolean }>(
      `SELECT o.status_id, EXISTS (SELECT 1 FROM order_reviews r WHERE r.order_id = o.id) AS reviewed
       FROM orders o WHERE o.id = $1 AND o.customer_id = $2`,
      [orderId, customerId],
    );
    return row ? { statusId: row.status_id, reviewed: row.reviewed } : null;
  },

  /**
   * Stores the review when the order is the customer's and in `statusId`, and has none yet; the checks
   * ride in the statement, so two concurrent posts store one review. Null when nothing was stored.
   */
  insert: async (review: {
    customerId: number;
    orderId: number;
    statusId: number;
    ratingHalves: number;
    comment: string;
    now: Date;
  }): Promise<{ id: number } | null> => {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO order_reviews (order_id, customer_id, rating_halves, comment, created_at)
       SELECT o.id, o.customer_id, $4, $5, $6 FROM orders o WHERE o.id = $1 AND o.customer_id = $2 AND o.status_id = $3
       ON CONFLICT (order_id) DO NOTHING
       RETURNING id`,
      [review.orderId, review.customerId, review.statusId, review.ratingHalves, review.comment, review.now],
    );
    return row ?? null;
  },

  find: async ({
    customerId,
    orderId,
  }: {
    customerId: number;
    orderId: number;
  }): Promise<{ ratingHalves: number; comment: string } | null> => {
    const [row] = await db.query<{ rating_halves: number; comment: string }>(
      'SELECT rating_halves, comment FROM order_reviews WHERE order_id = $1 AND customer_id = $2',
      [orderId, customerId],
    );
    return row ? { ratingHalves: row.rating_halves, comment: row.comment } : null;
  },
});
export type ReviewsRepo = ReturnType<typeof createReviewsRepo>;
