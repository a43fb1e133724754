import type { Queryable } from '../../db/client';

/**
 * The audit module's part of an account deletion (ADR 0052, 0077, 0090). The log keeps ids and values, not
 * the customer's words; the one free text it may hold about a customer's order is a staff member's reason
 * or message, which the deletion removes from the entries of that customer's orders. Actor ids are staff
 * accounts, not the customer's. No report section: the log is the business's record of staff actions.
 */
export const eraseCustomerAuditText = async (tx: Queryable, { customerId }: { customerId: number }): Promise<void> => {
  await tx.query(
    `UPDATE audit_log SET
       before = CASE WHEN jsonb_typeof(before) = 'object' THEN before - 'reason' - 'message' ELSE before END,
       after = CASE WHEN jsonb_typeof(after) = 'object' THEN after - 'reason' - 'message' ELSE after END
     WHERE order_id IN (SELECT id FROM orders WHERE customer_id = $1)`,
    [customerId],
  );
};
