import {
  TRANSACTION_STATUS,
  type DocumentKind,
  type MoneyProvider,
  type RecordedPayment,
  type TransactionStatus,
  type TransactionType,
} from '@app/domain';
import type { Queryable } from '../../db/client';

export interface TransactionRow {
  id: number;
  createdAt: Date;
  orderId: number;
  orderTitle: string;
  provider: MoneyProvider;
  amountCents: number;
  type: TransactionType;
  status: string;
  sandbox: boolean;
  /** ADR 0085: its receipt or credit note, when one was issued. */
  document: { kind: DocumentKind; number: number } | null;
}

export interface NewPaymentTransaction {
  customerId: number;
  orderId: number;
  paymentId: string;
  provider: MoneyProvider;
  amountCents: number;
  currency: string;
  /** ADR 0036: the attempt ran in sandbox mode (no money moved). */
  sandbox?: boolean;
  now: Date;
  /** ADR 0036: 'unapplied' for money that arrived and did not settle the order (parked for support). */
  status?: TransactionStatus;
}

export interface NewRefund {
  orderId: number;
  paymentId: string | null;
  provider: MoneyProvider;
  amountCents: number;
  currency: string;
  /** ADR 0036: the refunded payment ran in sandbox mode. */
  sandbox?: boolean;
  now: Date;
  /**
   * The refund's unique key (ADR 0036, 0072): `payment:<id>` (one refund per paid attempt) or
   * `order:<id>` by default; a refund claim gives `claim:<id>`.
   */
  key?: string;
}

/** ADR 0072: the money recorded on one order: its applied payments (oldest first) and its refunds. */
export interface OrderMoneyRecord {
  payments: (RecordedPayment & { provider: MoneyProvider; currency: string; sandbox: boolean })[];
  paidCents: number;
  refundedCents: number;
}

const toDate = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

/** SQL of the transactions table; `q` is the database or the caller's open transaction. */
export const createTransactionsRepo = (q: Queryable) => ({
  /**
   * The customer's transactions, newest first, one page (DESIGN rule 3: the customer id is in the WHERE).
   * ADR 0081: the page's ids and the count come from the customer's index alone (an index-only scan), and
   * only the page's rows are read and joined to their orders, so a deep page costs what the first does.
   */
  async list({ customerId, limit, offset }: { customerId: number; limit: number; offset: number }) {
    const rows = await q.query<Record<string, unknown>>(
      `WITH page AS (
         SELECT t.id, t.created_at, count(*) OVER () AS total FROM transactions t
          WHERE t.customer_id = $1
          ORDER BY t.created_at DESC, t.id DESC
          LIMIT $2 OFFSET $3
       )
       SELECT t.id, t.created_at, t.order_id, o.title, t.provider, t.amount_cents, t.type, t.status, t.sandbox,
              d.kind AS document_kind, d.number AS document_number, page.total
         FROM page JOIN transactions t ON t.id = page.id
         JOIN orders o ON o.id = t.order_id AND o.customer_id = t.customer_id
         LEFT JOIN transaction_documents d ON d.transaction_id = t.id
        ORDER BY page.created_at DESC, page.id DESC`,
      [customerId, limit, offset],
    );
    let total = Number(rows[0]?.total ?? 0);
    if (rows.length === 0 && offset > 0) {
      const [count] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE customer_id = $1', [customerId]);
      total = count?.n ?? 0;
    }
    const transactions: TransactionRow[] = rows.map((r) => ({
      id: Number(r.id),
      createdAt: toDate(r.created_at),
      orderId: Number(r.order_id),
      orderTitle: String(r.title),
      provider: r.provider as MoneyProvider,
      amountCents: Number(r.amount_cents),
      type: r.type as TransactionType,
      status: String(r.status),
      sandbox: Boolean(r.sandbox),
      document:
        r.document_kind === null || r.document_kind === undefined
          ? null
          : { kind: r.document_kind as DocumentKind, number: Number(r.document_number) },
    }));
    return { transactions, total };
  },

  /** The payment row of a paid attempt; the partial unique index keeps it to one per attempt. */
  async insertPayment(t: NewPaymentTransaction): Promise<number | null> {
    const rows = await q.query<{ id: number }>(
      `INSERT INTO transactions (customer_id, order_id, payment_id, provider, type, amount_cents, currency, created_at, status, sandbox)
       VALUES ($1, $2, $3, $4, 'payment', $5, $6, $7, $8, $9)
       ON CONFLICT (payment_id) WHERE type = 'payment' DO NOTHING
       RETURNING id`,
      [t.customerId, t.orderId, t.paymentId, t.provider, t.amountCents, t.currency, t.now, t.status ?? 'completed', t.sandbox ?? false],
    );
    return rows[0] ? Number(rows[0].id) : null;
  },

  /**
   * ADR 0089: parked money support applied to its order: its payment row (recorded as not applied when it
   * was parked) becomes completed, once. Null when there is no such row (applied already, or none).
   */
  async applyParked({ paymentId }: { paymentId: string }) {
    const [row] = await q.query<Record<string, unknown>>(
      `UPDATE transactions SET status = $2 WHERE payment_id = $1 AND type = 'payment' AND status = $3
       RETURNING id, customer_id, order_id, provider, amount_cents, currency, sandbox`,
      [paymentId, TRANSACTION_STATUS.completed, TRANSACTION_STATUS.unapplied],
    );
    return row
      ? {
          id: Number(row.id),
          customerId: Number(row.customer_id),
          orderId: Number(row.order_id),
          provider: String(row.provider) as MoneyProvider,
          amountCents: Number(row.amount_cents),
          currency: String(row.currency),
          sandbox: Boolean(row.sandbox),
        }
      : null;
  },

  /**
   * A refund row; the customer is the order's owner. One per paid attempt (ADR 0036): the refund key
   * (migration 0006) makes a second one, from the provider or from support, a no-op (null).
   */
  async insertRefund(r: NewRefund): Promise<{ id: number; customerId: number } | null> {
    const refundKey = r.key ?? (r.paymentId === null ? `order:${r.orderId}` : `payment:${r.paymentId}`);
    const [row] = await q.query<{ id: number; customer_id: number }>(
      `INSERT INTO transactions (customer_id, order_id, payment_id, provider, type, amount_cents, currency, created_at, sandbox, refund_key)
       SELECT o.customer_id, o.id, $2, $3, 'refund', $4, $5, $6, $7, $8 FROM orders o WHERE o.id = $1
       ON CONFLICT (refund_key) DO NOTHING
       RETURNING id, customer_id`,
      [r.orderId, r.paymentId, r.provider, r.amountCents, r.currency, r.now, r.sandbox ?? false, refundKey],
    );
    return row ? { id: Number(row.id), customerId: Number(row.customer_id) } : null;
  },

  /**
   * ADR 0072: the order's recorded money, read in the refund's transaction (the order's row is locked by
   * then): applied payments (parked money is not the order's) and every refund.
   */
  async orderMoney(orderId: number): Promise<OrderMoneyRecord> {
    const rows = await q.query<{
      payment_id: string | null;
      provider: string;
      type: string;
      amount_cents: number;
      currency: string;
      sandbox: boolean;
      refund_key: string | null;
    }>(
      `SELECT payment_id, provider, type, amount_cents, currency, sandbox, refund_key FROM transactions
        WHERE order_id = $1 AND ((type = 'refund' AND refund_key NOT LIKE 'unapplied:%') OR (type = 'payment' AND status = $2))
        ORDER BY created_at, id`,
      [orderId, TRANSACTION_STATUS.completed],
    );
    const refundKeys = new Set(rows.filter((r) => r.type === 'refund').map((r) => r.refund_key));
    const refundedPayments = new Set(rows.filter((r) => r.type === 'refund' && r.payment_id !== null).map((r) => r.payment_id));
    const payments = rows
      .filter((r) => r.type === 'payment')
      .map((r) => ({
        paymentId: r.payment_id,
        provider: r.provider as MoneyProvider,
        amountCents: Number(r.amount_cents),
        currency: r.currency,
        sandbox: Boolean(r.sandbox),
        refunded: r.payment_id === null ? refundKeys.has(`order:${orderId}`) : refundedPayments.has(r.payment_id),
      }));
    return {
      payments,
      paidCents: payments.reduce((sum, p) => sum + p.amountCents, 0),
      refundedCents: rows.filter((r) => r.type === 'refund').reduce((sum, r) => sum + Number(r.amount_cents), 0),
    };
  },
});
