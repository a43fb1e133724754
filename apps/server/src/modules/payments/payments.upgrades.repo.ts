import type { Price, UpgradeableOrder, UpgradeExtra } from '@app/domain';
import type { Queryable } from '../../db/client';

const toDate = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

/** The order an upgrade reads (ADR 0086), with what checkout needs of it. */
export interface UpgradeOrderRow extends UpgradeableOrder {
  id: number;
  uid: string;
  customerId: number;
  title: string;
  siteCategory: number;
}

export type UpgradeState = 'open' | 'applied' | 'superseded';

export interface UpgradeRow {
  id: string;
  orderId: number;
  customerId: number;
  state: UpgradeState;
  pages: number;
  urgencyHours: number;
  deadline: Date;
  extras: Record<UpgradeExtra, boolean>;
  basePriceCents: number;
  differenceCents: number;
  priceDelta: Price;
  createdAt: Date;
}

const ORDER_COLUMNS = `o.id, o.uid, o.customer_id, o.title, o.site_category, o.status_id, o.amount_due_cents, o.work_type_id, o.level_id,
  o.pages, o.spacing, o.urgency_hours, o.deadline, o.premium_writer, o.extra_quality_check, o.one_page_summary, o.originality_report,
  cardinality(o.preferred_writer_ids) > 0 AS preferred_writer, o.final_price_cents,
  EXISTS (SELECT 1 FROM order_deliveries d WHERE d.order_id = o.id) AS delivered`;

const toOrder = (r: Record<string, unknown>): UpgradeOrderRow => ({
  id: Number(r.id),
  uid: String(r.uid),
  customerId: Number(r.customer_id),
  title: String(r.title),
  siteCategory: Number(r.site_category),
  statusId: Number(r.status_id),
  delivered: Boolean(r.delivered),
  amountDueCents: Number(r.amount_due_cents),
  workType: Number(r.work_type_id),
  level: Number(r.level_id),
  pages: Number(r.pages),
  spacing: Number(r.spacing) === 1 ? 1 : 2,
  urgencyHours: Number(r.urgency_hours),
  deadline: toDate(r.deadline),
  premiumWriter: r.premium_writer === true,
  preferredWriter: r.preferred_writer === true,
  extraQualityCheck: r.extra_quality_check === true,
  originalityReport: r.originality_report === true,
  onePageSummary: r.one_page_summary === true,
  finalPriceCents: Number(r.final_price_cents),
});

const UPGRADE_COLUMNS = `id, order_id, customer_id, state, pages, urgency_hours, deadline, premium_writer, extra_quality_check,
  one_page_summary, originality_report, base_price_cents, difference_cents, price_delta, created_at`;

const toUpgrade = (r: Record<string, unknown>): UpgradeRow => ({
  id: String(r.id),
  orderId: Number(r.order_id),
  customerId: Number(r.customer_id),
  state: r.state as UpgradeState,
  pages: Number(r.pages),
  urgencyHours: Number(r.urgency_hours),
  deadline: toDate(r.deadline),
  extras: {
    premiumWriter: r.premium_writer === true,
    extraQualityCheck: r.extra_quality_check === true,
    onePageSummary: r.one_page_summary === true,
    originalityReport: r.originality_report === true,
  },
  basePriceCents: Number(r.base_price_cents),
  differenceCents: Number(r.difference_cents),
  priceDelta: (typeof r.price_delta === 'string' ? JSON.parse(r.price_delta) : r.price_delta) as Price,
  createdAt: toDate(r.created_at),
});

/** SQL of upgrades (ADR 0086); the payments module owns `order_upgrades` (ADR 0077). `q`: the database or a transaction. */
export const createUpgradesRepo = (q: Queryable) => ({
  /** The customer's order (the customer id in the WHERE: another customer's is a 404), locked when asked. */
  async customerOrder({
    customerId,
    orderId,
    lock,
  }: {
    customerId: number;
    orderId: number;
    lock: boolean;
  }): Promise<UpgradeOrderRow | null> {
    const [r] = await q.query<Record<string, unknown>>(
      `SELECT ${ORDER_COLUMNS} FROM orders o WHERE o.id = $1 AND o.customer_id = $2${lock ? ' FOR UPDATE OF o' : ''}`,
      [orderId, customerId],
    );
    return r ? toOrder(r) : null;
  },

  /** The order of an upgrade (checkout and settling read it, after the order's lock when in a transaction). */
  async order(orderId: number): Promise<UpgradeOrderRow | null> {
    const [r] = await q.query<Record<string, unknown>>(`SELECT ${ORDER_COLUMNS} FROM orders o WHERE o.id = $1`, [orderId]);
    return r ? toOrder(r) : null;
  },

  /** The order's open attempts that pay an upgrade, locked first (the callback's lock order: attempt, then order). */
  async lockOpenUpgradeAttempts(orderId: number): Promise<void> {
    await q.query(
      `SELECT id FROM payments WHERE order_id = $1 AND kind = 'upgrade' AND state IN ('created', 'pending') ORDER BY id FOR UPDATE`,
      [orderId],
    );
  },

  async find(id: string): Promise<UpgradeRow | null> {
    const [r] = await q.query<Record<string, unknown>>(`SELECT ${UPGRADE_COLUMNS} FROM order_upgrades WHERE id = $1`, [id]);
    return r ? toUpgrade(r) : null;
  },

  async lock(id: string): Promise<UpgradeRow | null> {
    const [r] = await q.query<Record<string, unknown>>(`SELECT ${UPGRADE_COLUMNS} FROM order_upgrades WHERE id = $1 FOR UPDATE`, [id]);
    return r ? toUpgrade(r) : null;
  },

  async openFor(orderId: number): Promise<UpgradeRow | null> {
    const [r] = await q.query<Record<string, unknown>>(
      `SELECT ${UPGRADE_COLUMNS} FROM order_upgrades WHERE order_id = $1 AND state = 'open' FOR UPDATE`,
      [orderId],
    );
    return r ? toUpgrade(r) : null;
  },

  /** A newer upgrade replaces the open one: it is superseded and its open attempts canceled (late money parks, ADR 0034). */
  async supersede({ id, now }: { id: string; now: Date }): Promise<void> {
    await q.query(`UPDATE order_upgrades SET state = 'superseded' WHERE id = $1 AND state = 'open'`, [id]);
    await q.query(`UPDATE payments SET state = 'canceled', updated_at = $2 WHERE upgrade_id = $1 AND state IN ('created', 'pending')`, [
      id,
      now,
    ]);
  },

  async insert(u: Omit<UpgradeRow, 'state'>): Promise<UpgradeRow> {
    const [r] = await q.query<Record<string, unknown>>(
      `INSERT INTO order_upgrades (id, order_id, customer_id, pages, urgency_hours, deadline, premium_writer, extra_quality_check,
         one_page_summary, originality_report, base_price_cents, difference_cents, price_delta, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14)
       RETURNING ${UPGRADE_COLUMNS}`,
      [
        u.id,
        u.orderId,
        u.customerId,
        u.pages,
        u.urgencyHours,
        u.deadline,
        u.extras.premiumWriter,
        u.extras.extraQualityCheck,
        u.extras.onePageSummary,
        u.extras.originalityReport,
        u.basePriceCents,
        u.differenceCents,
        JSON.stringify(u.priceDelta),
        u.createdAt,
      ],
    );
    if (!r) throw new Error('upgrade not stored');
    return toUpgrade(r);
  },

  /** Open → applied by this payment, once (false when it was not open). */
  async markApplied({ id, paymentId, now }: { id: string; paymentId: string; now: Date }): Promise<boolean> {
    const rows = await q.query(
      `UPDATE order_upgrades SET state = 'applied', payment_id = $2, applied_at = $3 WHERE id = $1 AND state = 'open' RETURNING id`,
      [id, paymentId, now],
    );
    return rows.length === 1;
  },
});
