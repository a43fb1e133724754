import type { Queryable } from '../../db/client';

/**
 * The files module's part of an account deletion (ADR 0052), in the deletion's transaction: the customer's
 * file rows go; the hourly orphan sweep (ADR 0039) removes their stored bytes.
 */
export const eraseCustomerFiles = async (tx: Queryable, { customerId }: { customerId: number }): Promise<void> => {
  await tx.query('DELETE FROM order_files WHERE customer_id = $1', [customerId]);
};

/** The report's `files` section (ADR 0052): one keyset batch after `afterId`. */
export const filesReport = (
  q: Queryable,
  { customerId, afterId, limit }: { customerId: number; afterId: number; limit: number },
): Promise<Record<string, unknown>[]> =>
  q.query(
    `SELECT f.id, f.order_id AS "orderId", f.revision_id AS "revisionId", f.name, f.type_name AS "typeName", f.source,
      f.size_bytes AS "sizeBytes", f.created_at AS "dateCreated"
    FROM order_files f WHERE f.customer_id = $1 AND f.id > $2 ORDER BY f.id LIMIT $3`,
    [customerId, afterId, limit],
  );
