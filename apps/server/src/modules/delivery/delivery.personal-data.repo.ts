import type { Queryable } from '../../db/client';

/**
 * The delivery module's part of an account deletion (ADR 0052, 0077), in the deletion's transaction: the
 * text the customer wrote on an order's timeline (a request for changes) is erased; the events stay, so the
 * order's history keeps its shape for the books and the writer.
 */
export const eraseCustomerTimelineNotes = async (tx: Queryable, { customerId }: { customerId: number }): Promise<void> => {
  await tx.query('UPDATE order_events SET note = NULL WHERE actor_id = $1 AND note IS NOT NULL', [customerId]);
};
