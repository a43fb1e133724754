import type { Queryable } from '../../db/client';

/**
 * The reviews module's part of an account deletion (ADR 0052): the comments are erased, the ratings stay.
 * (The report shows a review as its order's `feedback`, in the orders section.)
 */
export const eraseCustomerReviews = async (tx: Queryable, { customerId }: { customerId: number }): Promise<void> => {
  await tx.query(`UPDATE order_reviews SET comment = '' WHERE customer_id = $1`, [customerId]);
};
