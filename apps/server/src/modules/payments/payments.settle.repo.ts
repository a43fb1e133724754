import type { MoneyProvider, OrderCharge, PaymentKind, PaymentSystem, UnappliedReason } from '@app/domain';
import type { Queryable } from '../../db/client';
import type { Actor } from '../../lib/actor';
import { orderWrites } from '../orders';

const toDate = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

/** What settling a payment needs of its order, read under a row lock. */
export interface ChargeableOrder {
  id: number;
  customerId: number;
  statusId: number;
  finalPriceCents: number;
  amountDueCents: number;
}

export interface UnappliedPaymentRow {
  paymentId: string;
  orderId: number;
  customerId: number;
  customerEmail: string;
  provider: PaymentSystem;
  amountCents: number;
  currency: string;
  reason: UnappliedReason;
  receivedAt: Date;
}

export interface RefundClaimRow {
  id: number;
  orderId: number;
  customerId: number;
  customerEmail: string;
  amountCents: number;
  currency: string;
  createdAt: Date;
}

/** SQL of the money rules (ADR 0034, 0035); `q` is the database or an open transaction. */
export const createSettleRepo = (q: Queryable) => ({
  /** The order, locked until the end of the transaction (after its attempt: the callback's lock order). */
  async lockOrder(orderId: number): Promise<ChargeableOrder | null> {
    const [r] = await q.query<Record<string, unknown>>(
      'SELECT id, customer_id, status_id, final_price_cents, amount_due_cents FROM orders WHERE id = $1 FOR UPDATE',
      [orderId],
    );
    if (!r) return null;
    return {
      id: Number(r.id),
      customerId: Number(r.customer_id),
      statusId: Number(r.status_id),
      finalPriceCents: Number(r.final_price_cents),
      amountDueCents: Number(r.amount_due_cents),
    };
  },

  async attemptKind(paymentId: string): Promise<PaymentKind> {
    const [r] = await q.query<{ kind: PaymentKind }>('SELECT kind FROM payments WHERE id = $1', [paymentId]);
    return r?.kind ?? 'full';
  },

  async setAttemptKind(paymentId: string, kind: PaymentKind): Promise<void> {
    await q.query('UPDATE payments SET kind = $2 WHERE id = $1', [paymentId, kind]);
  },

  /** The order's open attempts, locked before the order is (the callback's lock order: attempt, then order). */
  async lockOpenAttempts(orderId: number): Promise<void> {
    await q.query(`SELECT id FROM payments WHERE order_id = $1 AND state IN ('created', 'pending') ORDER BY id FOR UPDATE`, [orderId]);
  },

  /** An edit cancels the order's open attempts that no longer ask what the order asks (all, when it asks nothing). */
  async cancelStaleAttempts({ orderId, charge, now }: { orderId: number; charge: OrderCharge | null; now: Date }): Promise<string[]> {
    const rows = await q.query<{ id: string }>(
      `UPDATE payments SET state = 'canceled', updated_at = $2
        WHERE order_id = $1 AND state IN ('created', 'pending') AND NOT (kind IS NOT DISTINCT FROM $3 AND amount_cents IS NOT DISTINCT FROM $4)
        RETURNING id`,
      [orderId, now, charge?.kind ?? null, charge?.amountCents ?? null],
    );
    return rows.map((r) => r.id);
  },

  /** The order's `pending` flag follows whether any attempt of its own price is still open (an upgrade's attempt leaves it, ADR 0086). */
  async refreshPending(orderId: number, now: Date): Promise<void> {
    const [row] = await q.query<{ open: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM payments WHERE order_id = $1 AND state IN ('created', 'pending') AND kind <> 'upgrade') AS open`,
      [orderId],
    );
    await orderWrites(q).setPending({ orderId, pending: row?.open === true, now });
  },

  /** Money that did not settle its order, once per attempt. */
  async insertUnapplied(u: {
    paymentId: string;
    orderId: number;
    customerId: number;
    provider: MoneyProvider;
    eventId: string;
    amountCents: number;
    currency: string;
    reason: UnappliedReason;
    now: Date;
  }): Promise<void> {
    await q.query(
      `INSERT INTO unapplied_payments (payment_id, order_id, customer_id, provider, event_id, amount_cents, currency, reason, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (payment_id) DO NOTHING`,
      [u.paymentId, u.orderId, u.customerId, u.provider, u.eventId, u.amountCents, u.currency, u.reason, u.now],
    );
  },

  /** A paid difference: the amount due is cleared and the order is paid again (modified → paid; the orders module's move). */
  async markDifferencePaid(move: { orderId: number; amountCents: number; now: Date; actor: Actor | null }): Promise<boolean> {
    return orderWrites(q).markDifferencePaid(move);
  },

  async openRefundClaimCents(orderId: number): Promise<number> {
    const [r] = await q.query<{ amount_cents: number }>(`SELECT amount_cents FROM refund_claims WHERE order_id = $1 AND state = 'open'`, [
      orderId,
    ]);
    return r ? Number(r.amount_cents) : 0;
  },

  async setAmountDue(change: { orderId: number; cents: number; now: Date }): Promise<void> {
    await orderWrites(q).setAmountDue(change);
  },

  /** The order's one open refund claim gets this amount; 0 withdraws it. */
  async setRefundClaim(c: { orderId: number; customerId: number; amountCents: number; currency: string; now: Date }): Promise<void> {
    if (c.amountCents <= 0) {
      await q.query(`UPDATE refund_claims SET state = 'withdrawn', updated_at = $2 WHERE order_id = $1 AND state = 'open'`, [
        c.orderId,
        c.now,
      ]);
      return;
    }
    const updated = await q.query(
      `UPDATE refund_claims SET amount_cents = $2, updated_at = $3 WHERE order_id = $1 AND state = 'open' RETURNING id`,
      [c.orderId, c.amountCents, c.now],
    );
    if (updated.length > 0) return;
    await q.query(
      `INSERT INTO refund_claims (order_id, customer_id, amount_cents, currency, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)`,
      [c.orderId, c.customerId, c.amountCents, c.currency, c.now],
    );
  },

  /** ADR 0089: an open unapplied payment, locked (after its attempt and its order). */
  async lockUnapplied(
    paymentId: string,
  ): Promise<{ paymentId: string; orderId: number; provider: PaymentSystem; amountCents: number; currency: string } | null> {
    const [r] = await q.query<Record<string, unknown>>(
      'SELECT payment_id, order_id, provider, amount_cents, currency FROM unapplied_payments WHERE payment_id = $1 AND resolved_at IS NULL FOR UPDATE',
      [paymentId],
    );
    if (!r) return null;
    return {
      paymentId: String(r.payment_id),
      orderId: Number(r.order_id),
      provider: r.provider as PaymentSystem,
      amountCents: Number(r.amount_cents),
      currency: String(r.currency),
    };
  },

  /** ADR 0089: support dealt with it: applied to its order, or refunded; by whom and when. */
  async resolveUnapplied(r: { paymentId: string; resolution: 'applied' | 'refunded'; staffId: number; now: Date }): Promise<void> {
    await q.query('UPDATE unapplied_payments SET resolved_at = $2, resolution = $3, resolved_by = $4 WHERE payment_id = $1', [
      r.paymentId,
      r.now,
      r.resolution,
      r.staffId,
    ]);
  },

  /** The order page's flags (the customer id in the WHERE: DESIGN rule 3). */
  async orderMoney(customerId: number, orderId: number): Promise<{ amountDueCents: number; unapplied: boolean } | null> {
    const [r] = await q.query<{ amount_due_cents: number; unapplied: boolean }>(
      `SELECT o.amount_due_cents,
              EXISTS (SELECT 1 FROM unapplied_payments u WHERE u.order_id = o.id AND u.resolved_at IS NULL) AS unapplied
         FROM orders o WHERE o.id = $1 AND o.customer_id = $2`,
      [orderId, customerId],
    );
    return r ? { amountDueCents: Number(r.amount_due_cents), unapplied: Boolean(r.unapplied) } : null;
  },

  /** Support's queue of money that did not settle its order, oldest first. */
  async listUnapplied(): Promise<UnappliedPaymentRow[]> {
    const rows = await q.query<Record<string, unknown>>(
      `SELECT u.payment_id, u.order_id, u.customer_id, c.email, u.provider, u.amount_cents, u.currency, u.reason, u.received_at
         FROM unapplied_payments u JOIN users c ON c.id = u.customer_id
        WHERE u.resolved_at IS NULL ORDER BY u.received_at, u.payment_id LIMIT 500`,
    );
    return rows.map((r) => ({
      paymentId: String(r.payment_id),
      orderId: Number(r.order_id),
      customerId: Number(r.customer_id),
      customerEmail: String(r.email),
      provider: r.provider as PaymentSystem,
      amountCents: Number(r.amount_cents),
      currency: String(r.currency),
      reason: r.reason as UnappliedReason,
      receivedAt: toDate(r.received_at),
    }));
  },

  /** Support's queue of open refund claims (forced edits that lowered a paid price), oldest first. */
  async listRefundClaims(): Promise<RefundClaimRow[]> {
    const rows = await q.query<Record<string, unknown>>(
      `SELECT r.id, r.order_id, r.customer_id, c.email, r.amount_cents, r.currency, r.created_at
         FROM refund_claims r JOIN users c ON c.id = r.customer_id
        WHERE r.state = 'open' ORDER BY r.created_at, r.id LIMIT 500`,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      orderId: Number(r.order_id),
      customerId: Number(r.customer_id),
      customerEmail: String(r.email),
      amountCents: Number(r.amount_cents),
      currency: String(r.currency),
      createdAt: toDate(r.created_at),
    }));
  },

  /** The open claim, locked, with the provider of the order's latest settled payment (the refund goes back there). */
  /** The order a claim is about (read before the locks). */
  async claimOrder(claimId: number): Promise<number | null> {
    const [r] = await q.query<{ order_id: number }>('SELECT order_id FROM refund_claims WHERE id = $1', [claimId]);
    return r ? Number(r.order_id) : null;
  },

  async lockOpenClaim(
    claimId: number,
  ): Promise<{ id: number; orderId: number; amountCents: number; currency: string; provider: MoneyProvider | null } | null> {
    const [r] = await q.query<Record<string, unknown>>(
      `SELECT r.id, r.order_id, r.amount_cents, r.currency,
              (SELECT p.provider FROM payments p WHERE p.order_id = r.order_id AND p.state = 'paid' ORDER BY p.created_at DESC LIMIT 1) AS provider
         FROM refund_claims r WHERE r.id = $1 AND r.state = 'open' FOR UPDATE OF r`,
      [claimId],
    );
    if (!r) return null;
    return {
      id: Number(r.id),
      orderId: Number(r.order_id),
      amountCents: Number(r.amount_cents),
      currency: String(r.currency),
      provider: r.provider === null || r.provider === undefined ? null : (r.provider as MoneyProvider),
    };
  },

  async closeClaim({ claimId, transactionId, now }: { claimId: number; transactionId: number; now: Date }): Promise<void> {
    await q.query(`UPDATE refund_claims SET state = 'refunded', transaction_id = $2, updated_at = $3 WHERE id = $1`, [
      claimId,
      transactionId,
      now,
    ]);
  },
});
