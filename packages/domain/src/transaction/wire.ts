import { z } from 'zod';
import { MONEY_PROVIDERS } from '../payment/checkout';

/** SPEC §2 /transactions: the customer's payments and refunds. */
export const TRANSACTION_TYPE = { payment: 'payment', refund: 'refund' } as const;
export type TransactionType = (typeof TRANSACTION_TYPE)[keyof typeof TRANSACTION_TYPE];
/** ADR 0036: 'unapplied' is money that arrived and did not settle its order (parked for support). */
export const TRANSACTION_STATUS = { completed: 'completed', unapplied: 'unapplied' } as const;
export type TransactionStatus = (typeof TRANSACTION_STATUS)[keyof typeof TRANSACTION_STATUS];

export const transactionSchema = z.object({
  id: z.number().int(),
  /** ISO 8601, UTC. */
  date: z.string(),
  orderId: z.number().int(),
  orderTitle: z.string(),
  /** A provider, or `manual`: a payment support recorded by hand (ADR 0071). */
  provider: z.enum(MONEY_PROVIDERS),
  /** USD with 2 decimals (CONTRACT). */
  amount: z.number(),
  type: z.enum(['payment', 'refund']),
  status: z.string(),
  /** ADR 0036: a sandbox attempt's transaction (no money moved). */
  sandbox: z.boolean().optional(),
  /**
   * ADR 0085: the receipt (a payment) or credit note (a refund) issued for it, downloadable at
   * `GET …/transactions/{id}/receipt`; null for money parked for support.
   */
  document: z
    .object({ kind: z.enum(['receipt', 'credit_note']), number: z.string() })
    .nullable()
    .optional(),
});
export type Transaction = z.infer<typeof transactionSchema>;

/** CONTRACT "Paths": GET /api/en/customers/transactions?page&limit → { transactions, total }. */
export const transactionListSchema = z.object({ transactions: z.array(transactionSchema), total: z.number().int() });
export type TransactionList = z.infer<typeof transactionListSchema>;

/** GET /api/en/customers/receipts/years: the years with receipts or credit notes, newest first (the ZIP's choices). */
export const receiptYearsSchema = z.object({ years: z.array(z.number().int()) });
