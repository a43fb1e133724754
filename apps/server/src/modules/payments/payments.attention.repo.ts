import type { PaymentAttentionOutcome, PaymentAttentionReason, PaymentSystem } from '@app/domain';
import type { Queryable } from '../../db/client';

const toDate = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

export interface PaymentAttentionRow {
  paymentId: string;
  orderId: number;
  customerId: number;
  customerEmail: string;
  provider: PaymentSystem;
  amountCents: number;
  currency: string;
  state: 'created' | 'pending';
  reason: PaymentAttentionReason;
  checks: number;
  sandbox: boolean;
  createdAt: Date;
  since: Date;
}

/** SQL of support's queue of stale attempts (ADR 0058). */
export const createAttentionRepo = (q: Queryable) => ({
  /**
   * Attempts the reconciliation job flagged, not yet resolved by support, and still open (one that a
   * late callback settled leaves the queue by itself), oldest flag first; a work queue, capped at 500.
   */
  async list(): Promise<PaymentAttentionRow[]> {
    const rows = await q.query<Record<string, unknown>>(
      `SELECT p.id, p.order_id, p.customer_id, c.email, p.provider, p.amount_cents, p.currency, p.state,
              COALESCE(p.support_reason, 'still_open') AS reason, p.reconcile_checks, p.sandbox, p.created_at, p.support_since
         FROM payments p JOIN users c ON c.id = p.customer_id
        WHERE p.support_since IS NOT NULL AND p.support_resolved_at IS NULL AND p.state IN ('created', 'pending')
        ORDER BY p.support_since, p.id LIMIT 500`,
    );
    return rows.map((r) => ({
      paymentId: String(r.id),
      orderId: Number(r.order_id),
      customerId: Number(r.customer_id),
      customerEmail: String(r.email),
      provider: r.provider as PaymentSystem,
      amountCents: Number(r.amount_cents),
      currency: String(r.currency),
      state: r.state as 'created' | 'pending',
      reason: r.reason as PaymentAttentionReason,
      checks: Number(r.reconcile_checks),
      sandbox: Boolean(r.sandbox),
      createdAt: toDate(r.created_at),
      since: toDate(r.support_since),
    }));
  },

  /** Locks a flagged, unresolved attempt; null when there is none (unknown, not flagged, resolved). */
  async lockFlagged(paymentId: string): Promise<{ id: string; provider: PaymentSystem; orderId: number; state: string } | null> {
    const [r] = await q.query<Record<string, unknown>>(
      `SELECT id, provider, order_id, state FROM payments
        WHERE id = $1 AND support_since IS NOT NULL AND support_resolved_at IS NULL FOR UPDATE`,
      [paymentId],
    );
    return r ? { id: String(r.id), provider: r.provider as PaymentSystem, orderId: Number(r.order_id), state: String(r.state) } : null;
  },

  async markResolved(e: { paymentId: string; outcome: PaymentAttentionOutcome; staffId: number; now: Date }): Promise<void> {
    await q.query(
      `UPDATE payments SET support_resolved_at = $2, support_resolved_by = $3, support_outcome = $4, updated_at = $2
        WHERE id = $1 AND support_resolved_at IS NULL`,
      [e.paymentId, e.now, e.staffId, e.outcome],
    );
  },
});
