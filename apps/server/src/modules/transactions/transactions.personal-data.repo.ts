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

/**
 * The report's `receipts` section (ADR 0085): the receipts and credit notes issued, with the billing details
 * printed on them. Deletion keeps them (the books).
 */
export const receiptsReport = (
  q: Queryable,
  { customerId, afterId, limit }: { customerId: number; afterId: number; limit: number },
): Promise<Record<string, unknown>[]> =>
  q.query(
    `SELECT d.transaction_id AS id, d.kind, d.number, d.issued_at AS "issuedAt", d.snapshot -> 'buyer' AS buyer
    FROM transaction_documents d WHERE d.customer_id = $1 AND d.transaction_id > $2 ORDER BY d.transaction_id LIMIT $3`,
    [customerId, afterId, limit],
  );
