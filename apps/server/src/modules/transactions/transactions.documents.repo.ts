import {
  DOCUMENT_KIND,
  TRANSACTION_STATUS,
  type DocumentKind,
  type DocumentSnapshot,
  type MoneyProvider,
  type SellerDetails,
} from '@app/domain';
import type { Queryable } from '../../db/client';

const toDate = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const toSnapshot = (v: unknown): DocumentSnapshot => (typeof v === 'string' ? JSON.parse(v) : v) as DocumentSnapshot;

/** A transaction that has no document yet (the start's catch-up, ADR 0085). */
export interface UndocumentedTransaction {
  id: number;
  customerId: number;
  orderId: number;
  type: 'payment' | 'refund';
  paymentId: string | null;
  provider: MoneyProvider;
  amountCents: number;
  currency: string;
  sandbox: boolean;
  createdAt: Date;
}

/** An issued document as the customer downloads it. */
export interface StoredDocument {
  transactionId: number;
  kind: DocumentKind;
  number: number;
  issuedAt: Date;
  snapshot: DocumentSnapshot;
  /** A credit note's receipt: its number and date. */
  refersTo: { number: number; issuedAt: Date } | null;
}

const DOCUMENT_COLUMNS = `d.transaction_id, d.kind, d.number, d.issued_at, d.snapshot, r.number AS ref_number, r.issued_at AS ref_issued_at`;
const toStored = (r: Record<string, unknown>): StoredDocument => ({
  transactionId: Number(r.transaction_id),
  kind: r.kind as DocumentKind,
  number: Number(r.number),
  issuedAt: toDate(r.issued_at),
  snapshot: toSnapshot(r.snapshot),
  refersTo:
    r.ref_number === null || r.ref_number === undefined ? null : { number: Number(r.ref_number), issuedAt: toDate(r.ref_issued_at) },
});

/** SQL of the receipts and credit notes (ADR 0085); `q` is the database or the caller's open transaction. */
export const createDocumentsRepo = (q: Queryable) => ({
  /**
   * The next number of a kind. The UPDATE locks the counter row until the caller's transaction ends, so
   * numbers are handed out one transaction at a time and a rollback gives its number back: no gaps.
   */
  async takeNumber(kind: DocumentKind): Promise<number> {
    const [row] = await q.query<{ last_number: number }>(
      'UPDATE document_counters SET last_number = last_number + 1 WHERE kind = $1 RETURNING last_number',
      [kind],
    );
    if (!row) throw new Error(`no document counter for ${kind}`);
    return Number(row.last_number);
  },

  /** Both counters locked (the catch-up: it reads what is missing only once it holds them). */
  async lockCounters(): Promise<void> {
    await q.query('SELECT kind FROM document_counters ORDER BY kind DESC FOR UPDATE');
  },

  async seller(): Promise<SellerDetails> {
    const [row] = await q.query<{ name: string; address: string; tax_id: string; email: string }>(
      'SELECT name, address, tax_id, email FROM document_seller',
    );
    return { name: row?.name ?? '', address: row?.address ?? '', taxId: row?.tax_id ?? '', email: row?.email ?? '' };
  },

  /** The seller from the settings, written only when it changed (one statement at start). */
  async setSeller(s: SellerDetails): Promise<void> {
    await q.query(
      `UPDATE document_seller SET name = $1, address = $2, tax_id = $3, email = $4
        WHERE (name, address, tax_id, email) IS DISTINCT FROM ($1, $2, $3, $4)`,
      [s.name, s.address, s.taxId, s.email],
    );
  },

  async insert(d: {
    transactionId: number;
    customerId: number;
    kind: DocumentKind;
    number: number;
    refersTo: number | null;
    issuedAt: Date;
    snapshot: DocumentSnapshot;
  }): Promise<void> {
    await q.query(
      `INSERT INTO transaction_documents (transaction_id, customer_id, kind, number, refers_to, issued_at, snapshot)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)`,
      [d.transactionId, d.customerId, d.kind, d.number, d.refersTo, d.issuedAt, JSON.stringify(d.snapshot)],
    );
  },

  /**
   * The receipt a credit note names: the receipt of the refunded payment, else (a refund of an order's money
   * as a whole: a claim) the order's latest receipt.
   */
  async receiptFor({ orderId, paymentId }: { orderId: number; paymentId: string | null }): Promise<number | null> {
    const [row] = await q.query<{ transaction_id: number }>(
      `SELECT d.transaction_id FROM transaction_documents d JOIN transactions t ON t.id = d.transaction_id
        WHERE d.kind = $1 AND t.order_id = $2 AND ($3::text IS NULL OR t.payment_id = $3)
        ORDER BY (t.payment_id IS NOT DISTINCT FROM $3) DESC, d.number DESC LIMIT 1`,
      [DOCUMENT_KIND.receipt, orderId, paymentId],
    );
    return row ? Number(row.transaction_id) : null;
  },

  /** Settled payments and refunds without a document, oldest first (data written before migration 0022, or by the seed). */
  async undocumented(limit: number): Promise<UndocumentedTransaction[]> {
    const rows = await q.query<Record<string, unknown>>(
      `SELECT t.id, t.customer_id, t.order_id, t.type, t.payment_id, t.provider, t.amount_cents, t.currency, t.sandbox, t.created_at
         FROM transactions t
        WHERE (t.type = 'refund' OR t.status = $1)
          AND NOT EXISTS (SELECT 1 FROM transaction_documents d WHERE d.transaction_id = t.id)
        ORDER BY t.created_at, t.id LIMIT $2`,
      [TRANSACTION_STATUS.completed, limit],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      customerId: Number(r.customer_id),
      orderId: Number(r.order_id),
      type: r.type as 'payment' | 'refund',
      paymentId: (r.payment_id as string | null) ?? null,
      provider: r.provider as MoneyProvider,
      amountCents: Number(r.amount_cents),
      currency: String(r.currency),
      sandbox: Boolean(r.sandbox),
      createdAt: toDate(r.created_at),
    }));
  },

  /** The customer's document of one transaction (DESIGN rule 3: another customer's is not found). */
  /** The transaction of a settled payment (ADR 0088: its receipt goes with the payment's mail). */
  async paymentTransactionId(paymentId: string): Promise<number | null> {
    const [row] = await q.query<{ id: number }>(`SELECT id FROM transactions WHERE payment_id = $1 AND type = 'payment'`, [paymentId]);
    return row ? Number(row.id) : null;
  },

  async findForCustomer(customerId: number, transactionId: number): Promise<StoredDocument | null> {
    const [row] = await q.query<Record<string, unknown>>(
      `SELECT ${DOCUMENT_COLUMNS} FROM transaction_documents d LEFT JOIN transaction_documents r ON r.transaction_id = d.refers_to
        WHERE d.transaction_id = $1 AND d.customer_id = $2`,
      [transactionId, customerId],
    );
    return row ? toStored(row) : null;
  },

  /** The UTC years the customer has documents in, newest first. */
  async yearsForCustomer(customerId: number): Promise<number[]> {
    const rows = await q.query<{ year: number }>(
      `SELECT DISTINCT extract(year FROM d.issued_at AT TIME ZONE 'UTC')::int AS year
         FROM transaction_documents d WHERE d.customer_id = $1 ORDER BY year DESC`,
      [customerId],
    );
    return rows.map((r) => Number(r.year));
  },

  /** The customer's documents issued in [from, to), oldest first, at most `limit`. */
  async listForCustomer(customerId: number, from: Date, to: Date, limit: number): Promise<StoredDocument[]> {
    const rows = await q.query<Record<string, unknown>>(
      `SELECT ${DOCUMENT_COLUMNS} FROM transaction_documents d LEFT JOIN transaction_documents r ON r.transaction_id = d.refers_to
        WHERE d.customer_id = $1 AND d.issued_at >= $2 AND d.issued_at < $3
        ORDER BY d.issued_at, d.transaction_id LIMIT $4`,
      [customerId, from, to, limit],
    );
    return rows.map(toStored);
  },
});
