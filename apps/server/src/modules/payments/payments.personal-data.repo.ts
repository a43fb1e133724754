import type { Queryable } from '../../db/client';

/** The payments module's part of an account deletion (ADR 0052): the attempts stay whole for the books; the device hash goes. */
export const eraseCustomerPayments = async (tx: Queryable, { customerId }: { customerId: number }): Promise<void> => {
  await tx.query(`UPDATE payments SET hash_device = '' WHERE customer_id = $1`, [customerId]);
};
