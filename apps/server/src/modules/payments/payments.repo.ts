import {
  MANUAL_PAYMENT_PROVIDER,
  type MoneyProvider,
  type PaymentKind,
  type OrderCharge,
  type PaymentEventStatus,
  type PaymentState,
  type PaymentSystem,
} from '@app/domain';
import type { Queryable } from '../../db/client';
import { storedAppSecret } from '../../db/app-secrets';
import type { Actor } from '../../lib/actor';
import { orderWrites } from '../orders';

export interface PaymentRow {
  id: string;
  orderId: number;
  customerId: number;
  /** A provider, or `manual`: a payment support recorded by hand (ADR 0071). */
  provider: MoneyProvider;
  amountCents: number;
  currency: string;
  state: PaymentState;
  providerRef: string | null;
  sandbox: boolean;
  createdAt: Date;
  /** what it pays (ADR 0034, 0086) */
  kind: PaymentKind;
  /** the upgrade it pays (kind `upgrade`, ADR 0086) */
  upgradeId: string | null;
}

/** What checkout needs of the order a uid names. */
export interface PayableOrder {
  id: number;
  uid: string;
  customerId: number;
  title: string;
  statusId: number;
  siteCategory: number;
  workTypeId: number;
  finalPriceCents: number;
  /** ADR 0034: the difference a forced edit of a paid order left to pay. */
  amountDueCents: number;
}

const toDate = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const PAYMENT_COLUMNS =
  'id, order_id, customer_id, provider, amount_cents, currency, state, provider_ref, sandbox, created_at, kind, upgrade_id';
const toPayment = (r: Record<string, unknown>): PaymentRow => ({
  id: String(r.id),
  orderId: Number(r.order_id),
  customerId: Number(r.customer_id),
  provider: r.provider as MoneyProvider,
  amountCents: Number(r.amount_cents),
  currency: String(r.currency),
  state: r.state as PaymentState,
  providerRef: r.provider_ref === null || r.provider_ref === undefined ? null : String(r.provider_ref),
  sandbox: Boolean(r.sandbox),
  createdAt: toDate(r.created_at),
  kind: (r.kind ?? 'full') as PaymentKind,
  upgradeId: r.upgrade_id === null || r.upgrade_id === undefined ? null : String(r.upgrade_id),
});

/** SQL of payment attempts and their events; `q` is the database or an open transaction. */
export const createPaymentsRepo = (q: Queryable) => ({
  /** The order a payment URL's uid names (the uid is the capability: random, at least 16 characters). */
  async findOrderByUid(uid: string): Promise<PayableOrder | null> {
    const [r] = await q.query<Record<string, unknown>>(
      `SELECT id, uid, customer_id, title, status_id, site_category, work_type_id, final_price_cents, amount_due_cents FROM orders WHERE uid = $1`,
      [uid],
    );
    if (!r) return null;
    return {
      id: Number(r.id),
      uid: String(r.uid),
      customerId: Number(r.customer_id),
      title: String(r.title),
      statusId: Number(r.status_id),
      siteCategory: Number(r.site_category),
      workTypeId: Number(r.work_type_id),
      finalPriceCents: Number(r.final_price_cents),
      amountDueCents: Number(r.amount_due_cents),
    };
  },

  async orderTitle(orderId: number): Promise<{ id: number; uid: string; title: string } | null> {
    const [r] = await q.query<{ id: number; uid: string; title: string }>('SELECT id, uid, title FROM orders WHERE id = $1', [orderId]);
    return r ?? null;
  },

  /** settings.payments_rules of the site (CONTRACT "Orders and catalogues"). */
  async paymentsRules(): Promise<Record<string, Record<string, string[]>>> {
    const [r] = await q.query<{ rules: Record<string, Record<string, string[]>> | null }>(
      `SELECT settings->'payments_rules' AS rules FROM site_settings ORDER BY id_site LIMIT 1`,
    );
    return r?.rules ?? {};
  },

  /**
   * A new attempt for what the order asks now (ADR 0034: its whole price, or the difference due); the
   * order is marked pending while the buyer is at the provider (ADR 0024).
   */
  async insertAttempt(a: {
    id: string;
    order: PayableOrder;
    charge: OrderCharge;
    provider: PaymentSystem;
    currency: string;
    sandbox: boolean;
    hashDevice: string;
    now: Date;
    /** ADR 0086: the upgrade this attempt pays (its charge is the upgrade's; the paid order is not marked pending) */
    upgradeId?: string;
  }): Promise<PaymentRow> {
    const [r] = await q.query<Record<string, unknown>>(
      `INSERT INTO payments (id, order_id, customer_id, provider, amount_cents, currency, sandbox, hash_device, created_at, updated_at, kind, upgrade_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10, $11)
       RETURNING ${PAYMENT_COLUMNS}`,
      [
        a.id,
        a.order.id,
        a.order.customerId,
        a.provider,
        a.charge.amountCents,
        a.currency,
        a.sandbox,
        a.hashDevice,
        a.now,
        a.charge.kind,
        a.upgradeId ?? null,
      ],
    );
    if (a.upgradeId === undefined) await orderWrites(q).markPendingWhenPayable({ orderId: a.order.id, now: a.now });
    if (!r) throw new Error('payment attempt not stored');
    return toPayment(r);
  },

  /**
   * ADR 0071: a payment support records by hand (provider `manual`, its reference in `provider_ref`), for
   * what the order asks now; settled right after in the same transaction. Null when the reference was
   * already recorded (the (provider, provider_ref) unique index).
   */
  async insertManualAttempt(a: {
    id: string;
    orderId: number;
    customerId: number;
    charge: OrderCharge;
    currency: string;
    reference: string;
    recordedBy: number;
    now: Date;
  }): Promise<PaymentRow | null> {
    const [r] = await q.query<Record<string, unknown>>(
      `INSERT INTO payments (id, order_id, customer_id, provider, amount_cents, currency, sandbox, provider_ref, recorded_by, created_at, updated_at, kind)
       VALUES ($1, $2, $3, $4, $5, $6, false, $7, $8, $9, $9, $10)
       ON CONFLICT (provider, provider_ref) WHERE provider_ref IS NOT NULL DO NOTHING
       RETURNING ${PAYMENT_COLUMNS}`,
      [
        a.id,
        a.orderId,
        a.customerId,
        MANUAL_PAYMENT_PROVIDER,
        a.charge.amountCents,
        a.currency,
        a.reference,
        a.recordedBy,
        a.now,
        a.charge.kind,
      ],
    );
    return r ? toPayment(r) : null;
  },

  async setProviderRef(id: string, providerRef: string): Promise<void> {
    await q.query('UPDATE payments SET provider_ref = $2 WHERE id = $1', [id, providerRef]);
  },

  async find(id: string): Promise<PaymentRow | null> {
    const [r] = await q.query<Record<string, unknown>>(`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE id = $1`, [id]);
    return r ? toPayment(r) : null;
  },

  /** The attempt, locked until the end of the transaction so two callbacks apply one after the other. */
  async lock(id: string, provider: MoneyProvider): Promise<PaymentRow | null> {
    const [r] = await q.query<Record<string, unknown>>(
      `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE id = $1 AND provider = $2 FOR UPDATE`,
      [id, provider],
    );
    return r ? toPayment(r) : null;
  },

  /** Stores a provider event once; false when this event id was seen before. */
  async insertEvent(e: {
    provider: MoneyProvider;
    eventId: string;
    paymentId: string;
    status: PaymentEventStatus;
    applied: boolean;
    now: Date;
  }) {
    const rows = await q.query(
      `INSERT INTO payment_events (provider, event_id, payment_id, status, applied, received_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (provider, event_id) DO NOTHING RETURNING event_id`,
      [e.provider, e.eventId, e.paymentId, e.status, e.applied, e.now],
    );
    return rows.length === 1;
  },

  /** Moves the attempt from `from` to `to`; false when another writer moved it first. */
  async moveState({ id, from, to, now }: { id: string; from: PaymentState; to: PaymentState; now: Date }): Promise<boolean> {
    const rows = await q.query('UPDATE payments SET state = $3, updated_at = $4 WHERE id = $1 AND state = $2 RETURNING id', [
      id,
      from,
      to,
      now,
    ]);
    return rows.length === 1;
  },

  /** Unpaid → paid, once, with its history entry (the orders module's move, ADR 0054, 0071). */
  async markOrderPaid(move: { orderId: number; now: Date; actor: Actor | null }): Promise<boolean> {
    return orderWrites(q).markPaid(move);
  },

  async setOrderPending(change: { orderId: number; pending: boolean; now: Date }): Promise<void> {
    await orderWrites(q).setPending(change);
  },

  /** The customer's order (404 otherwise) with its attempts, newest first (DESIGN rule 3). */
  async orderPayments(customerId: number, orderId: number): Promise<{ pending: boolean; attempts: PaymentRow[] } | null> {
    const [order] = await q.query<{ pending: boolean }>('SELECT pending FROM orders WHERE id = $1 AND customer_id = $2', [
      orderId,
      customerId,
    ]);
    if (!order) return null;
    const rows = await q.query<Record<string, unknown>>(
      `SELECT ${PAYMENT_COLUMNS} FROM payments WHERE order_id = $1 AND customer_id = $2 ORDER BY created_at DESC, id DESC`,
      [orderId, customerId],
    );
    return { pending: Boolean(order.pending), attempts: rows.map(toPayment) };
  },

  /** A named secret, generated once and shared by every instance (the sandbox's provider keys; db/ owns the table, ADR 0077). */
  ensureSecret: (name: string, generate: () => string): Promise<string> => storedAppSecret(q, name, generate),
});
export type PaymentsRepo = ReturnType<typeof createPaymentsRepo>;
