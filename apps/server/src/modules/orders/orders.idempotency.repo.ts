import type { Db, Queryable } from '../../db/client';

/** Thrown inside the creating transaction when the Idempotency-Key is already taken: the order rolls back. */
export class IdempotencyKeyTakenError extends Error {
  constructor() {
    super('idempotency key taken');
    this.name = 'IdempotencyKeyTakenError';
  }
}

/** The Idempotency-Key rows of the customer's orders (CONTRACT "Idempotency-Key", ADR 0012). */
export const createIdempotencyRepo = (q: Db | Queryable) => ({
  /** The order a key made, with the hash of the request that made it. */
  find: async ({
    customerId,
    key,
  }: {
    customerId: number;
    key: string;
  }): Promise<{ requestHash: string; id: number; uid: string } | null> => {
    const [row] = await q.query<{ request_hash: string; id: number; uid: string }>(
      `SELECT k.request_hash, o.id, o.uid FROM order_idempotency_keys k
       JOIN orders o ON o.id = k.order_id AND o.customer_id = k.customer_id
       WHERE k.customer_id = $1 AND k.key = $2`,
      [customerId, key],
    );
    return row ? { requestHash: row.request_hash, id: row.id, uid: row.uid } : null;
  },

  /** Claims the key for the new order inside its transaction; IdempotencyKeyTakenError rolls the order back. */
  claim: async (c: { customerId: number; key: string; requestHash: string; orderId: number; now: Date }): Promise<void> => {
    const taken = await q.query(
      `INSERT INTO order_idempotency_keys (customer_id, key, request_hash, order_id, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (customer_id, key) DO NOTHING RETURNING order_id`,
      [c.customerId, c.key, c.requestHash, c.orderId, c.now],
    );
    if (taken.length === 0) throw new IdempotencyKeyTakenError();
  },
});
