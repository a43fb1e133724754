import type { Queryable } from '../../db/client';

/**
 * The disputes module's part of an account deletion (ADR 0052, 0077, 0087), in the deletion's transaction:
 * what the customer wrote in a dispute is erased; the dispute and its outcome stay (the books and the
 * order's history keep their shape). Its files are order files (the files module erases them).
 */
export const eraseCustomerDisputes = async (tx: Queryable, { customerId }: { customerId: number }): Promise<void> => {
  await tx.query(`UPDATE order_disputes SET description = '(erased)' WHERE customer_id = $1`, [customerId]);
};

/** The report's `disputes` section: one keyset batch after `afterId`, what the customer wrote and support answered. */
export const disputesReport = (
  q: Queryable,
  { customerId, afterId, limit }: { customerId: number; afterId: number; limit: number },
): Promise<Record<string, unknown>[]> =>
  q.query(
    `SELECT id, order_id AS "orderId", reason, description, status, outcome, resolution_message AS "resolutionMessage",
       refund_cents AS "refundCents", answer_by AS "answerBy", created_at AS "createdAt", resolved_at AS "resolvedAt"
       FROM order_disputes WHERE customer_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
    [customerId, afterId, limit],
  );
