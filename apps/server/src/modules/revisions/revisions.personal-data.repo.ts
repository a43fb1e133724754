import type { Queryable } from '../../db/client';

/** The revisions module's part of an account deletion (ADR 0052): what the customer wrote is erased, the revisions stay. */
export const eraseCustomerRevisions = async (tx: Queryable, { customerId }: { customerId: number }): Promise<void> => {
  await tx.query(`UPDATE revisions SET description = '[deleted]' WHERE customer_id = $1`, [customerId]);
};

/** The report's `revisions` section (ADR 0052): one keyset batch after `afterId`. */
export const revisionsReport = (
  q: Queryable,
  { customerId, afterId, limit }: { customerId: number; afterId: number; limit: number },
): Promise<Record<string, unknown>[]> =>
  q.query(
    `SELECT v.id, v.order_id AS "orderId", v.status_id AS "statusId", v.level_id AS "levelId", v.category_ids AS categories,
      v.description, v.deadline, v.created_at AS "dateCreated"
    FROM revisions v WHERE v.customer_id = $1 AND v.id > $2 ORDER BY v.id LIMIT $3`,
    [customerId, afterId, limit],
  );
