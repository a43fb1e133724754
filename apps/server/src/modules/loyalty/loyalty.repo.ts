import { LEDGER_KIND, PAID_ORDER_STATUSES, type LedgerKind } from '@app/domain';
import type { Queryable } from '../../db/client';
import { discountCodeWrites, type NewCustomerCode } from '../discounts';

export interface CodeRow {
  code: string;
  source: 'loyalty' | 'referral';
  percent: number;
  createdAt: Date;
  expiresAt: Date | null;
  usedAt: Date | null;
  usedOrderId: number | null;
  /** False once voided (ADR 0072) or its account deleted. */
  active: boolean;
}
interface RawCode {
  code: string;
  source: string;
  percent: number;
  created_at: Date | string;
  expires_at: Date | string | null;
  used_at: Date | string | null;
  used_order_id: number | null;
  active?: boolean;
}
const date = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));
const toCode = (r: RawCode): CodeRow => ({
  code: r.code,
  source: r.source === 'referral' ? 'referral' : 'loyalty',
  percent: r.percent,
  createdAt: new Date(r.created_at),
  expiresAt: date(r.expires_at),
  usedAt: date(r.used_at),
  usedOrderId: r.used_order_id,
  active: r.active ?? true,
});
const CODE_COLUMNS = 'dc.code, dc.source, dc.percent, dc.created_at, dc.expires_at, dc.used_at, dc.used_order_id, dc.active';

export interface LedgerRow {
  id: number;
  kind: LedgerKind;
  points: number;
  orderId: number | null;
  code: string | null;
  createdAt: Date;
}

export interface ReferralRow {
  id: number;
  firstName: string;
  email: string;
  createdAt: Date;
  hasOrder: boolean;
  hasPaidOrder: boolean;
  discount: CodeRow | null;
}
interface RawReferral extends Partial<RawCode> {
  id: number;
  first_name: string;
  email: string;
  referral_created_at: Date | string;
  has_order: boolean;
  has_paid_order: boolean;
}
const toReferral = (r: RawReferral): ReferralRow => ({
  id: r.id,
  firstName: r.first_name,
  email: r.email,
  createdAt: new Date(r.referral_created_at),
  hasOrder: r.has_order,
  hasPaidOrder: r.has_paid_order,
  discount:
    r.code === null || r.code === undefined
      ? null
      : toCode({
          code: r.code,
          source: r.source ?? 'referral',
          percent: r.percent ?? 0,
          created_at: r.created_at ?? new Date(0),
          expires_at: r.expires_at ?? null,
          used_at: r.used_at ?? null,
          used_order_id: r.used_order_id ?? null,
          active: r.active ?? true,
        }),
});
const PAID = `(${PAID_ORDER_STATUSES.join(', ')})`;
const REFERRAL_SELECT = `
  SELECT r.id, u.first_name, u.email, r.created_at AS referral_created_at,
    EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = r.referred_id) AS has_order,
    EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = r.referred_id AND o.status_id IN ${PAID}) AS has_paid_order,
    ${CODE_COLUMNS}
  FROM referrals r
  JOIN users u ON u.id = r.referred_id
  LEFT JOIN discount_codes dc ON dc.code = r.discount_code`;

/**
 * Loyalty points, generated codes and referrals (ADR 0050, 0051). Every customer query carries the customer id
 * in its WHERE (DESIGN rule 3): another customer's referral is not found.
 */
export const createLoyaltyRepo = (q: Queryable) => ({
  /** Serialises one customer's generations (PostgreSQL; PGlite has one connection anyway). */
  lockCustomer: async (customerId: number): Promise<boolean> =>
    (await q.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [customerId])).length > 0,

  /** The balance: the ledger's sum, never a counter. */
  balance: async (customerId: number): Promise<number> => {
    const [row] = await q.query<{ points: number | string }>(
      'SELECT COALESCE(SUM(points), 0) AS points FROM loyalty_points_ledger WHERE customer_id = $1',
      [customerId],
    );
    return Number(row?.points ?? 0);
  },

  ledger: async (customerId: number, limit: number): Promise<LedgerRow[]> =>
    (
      await q.query<{
        id: number | string;
        kind: LedgerKind;
        points: number;
        order_id: number | null;
        discount_code: string | null;
        created_at: Date | string;
      }>(
        `SELECT id, kind, points, order_id, discount_code, created_at FROM loyalty_points_ledger
         WHERE customer_id = $1 ORDER BY id DESC LIMIT $2`,
        [customerId, limit],
      )
    ).map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      points: r.points,
      orderId: r.order_id,
      code: r.discount_code,
      createdAt: new Date(r.created_at),
    })),

  /** One entry; false when its key is already in the ledger (a repeat adds nothing). */
  insertEntry: async (e: {
    customerId: number;
    kind: LedgerKind;
    points: number;
    key: string;
    orderId?: number | null;
    paymentId?: string | null;
    code?: string | null;
    now: Date;
  }): Promise<boolean> =>
    (
      await q.query(
        `INSERT INTO loyalty_points_ledger (customer_id, kind, points, entry_key, order_id, payment_id, discount_code, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (entry_key) DO NOTHING RETURNING id`,
        [e.customerId, e.kind, e.points, e.key, e.orderId ?? null, e.paymentId ?? null, e.code ?? null, e.now],
      )
    ).length > 0,

  /** What an order's payments earned: the customer and the points (0 when none). */
  earnedForOrder: async (orderId: number): Promise<{ customerId: number; points: number } | null> => {
    const [row] = await q.query<{ customer_id: number; points: number | string }>(
      `SELECT customer_id, SUM(points) AS points FROM loyalty_points_ledger WHERE order_id = $1 AND kind = 'earned' GROUP BY customer_id`,
      [orderId],
    );
    return row ? { customerId: row.customer_id, points: Number(row.points) } : null;
  },

  /** The smallest maxAmountDiscount of the site's categories: what a code takes off at most, anywhere. */
  maxAmountDiscountCents: async (): Promise<number> => {
    const [row] = await q.query<{ cents: number | null }>('SELECT MIN(max_amount_discount_cents) AS cents FROM price_settings');
    return Number(row?.cents ?? 0);
  },

  /** A loyalty or referral code of the customer's own; the discounts module writes it (ADR 0077). */
  insertCode: (c: NewCustomerCode): Promise<boolean> => discountCodeWrites(q).insertCustomerCode(c),

  /** The customer's loyalty code no order has taken yet (a voided one is no longer open, ADR 0072). */
  openLoyaltyCode: async (customerId: number): Promise<CodeRow | null> => {
    const [row] = await q.query<RawCode>(
      `SELECT ${CODE_COLUMNS} FROM discount_codes dc
       WHERE dc.customer_id = $1 AND dc.source = 'loyalty' AND dc.used_order_id IS NULL AND dc.active`,
      [customerId],
    );
    return row ? toCode(row) : null;
  },

  /** ADR 0072: the points the customer's open loyalty code cost (its redeemed entry), with the code. */
  openLoyaltyCodeCost: async (customerId: number): Promise<{ code: string; points: number } | null> => {
    const [row] = await q.query<{ code: string; points: number | string }>(
      `SELECT dc.code, -l.points AS points FROM discount_codes dc
         JOIN loyalty_points_ledger l ON l.discount_code = dc.code AND l.kind = $2
       WHERE dc.customer_id = $1 AND dc.source = 'loyalty' AND dc.used_order_id IS NULL AND dc.active`,
      [customerId, LEDGER_KIND.redeemed],
    );
    return row ? { code: row.code, points: Number(row.points) } : null;
  },

  /** ADR 0072: voids the code while no order has taken it; false when an order took it first (the discounts module's write). */
  voidUnusedCode: (code: string): Promise<boolean> => discountCodeWrites(q).voidUnused({ code }),

  /** ADR 0072: the points refunds of the order took back so far (a positive number). */
  takenBackForOrder: async (orderId: number): Promise<number> => {
    const [row] = await q.query<{ points: number | string | null }>(
      'SELECT -COALESCE(SUM(points), 0) AS points FROM loyalty_points_ledger WHERE order_id = $1 AND kind = $2',
      [orderId, LEDGER_KIND.reversed],
    );
    return Number(row?.points ?? 0);
  },

  /** Every loyalty and referral code of the customer, newest first. */
  generatedCodes: async (customerId: number): Promise<CodeRow[]> =>
    (
      await q.query<RawCode>(
        `SELECT ${CODE_COLUMNS} FROM discount_codes dc
         WHERE dc.customer_id = $1 AND dc.source IN ('loyalty', 'referral') ORDER BY dc.created_at DESC, dc.code LIMIT 200`,
        [customerId],
      )
    ).map(toCode),

  insertReferral: async (r: {
    referrerId: number;
    referredId: number;
    hashDevice: string;
    fraud: string | null;
    now: Date;
  }): Promise<void> => {
    await q.query(
      `INSERT INTO referrals (referrer_id, referred_id, hash_device, fraud, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (referred_id) DO NOTHING`,
      [r.referrerId, r.referredId, r.hashDevice, r.fraud, r.now],
    );
  },

  /** The referrer's own referrers, nearest first (users.referrer_id), at most 50 up. */
  referrerChain: async (userId: number): Promise<number[]> =>
    (
      await q.query<{ id: number }>(
        `WITH RECURSIVE chain (id, depth) AS (
           SELECT referrer_id, 1 FROM users WHERE id = $1 AND referrer_id IS NOT NULL
           UNION ALL
           SELECT u.referrer_id, c.depth + 1 FROM users u JOIN chain c ON u.id = c.id WHERE u.referrer_id IS NOT NULL AND c.depth < 50
         ) SELECT id FROM chain ORDER BY depth`,
        [userId],
      )
    ).map((r) => r.id),

  /** Device hashes an account signed up or signed in with. */
  devicesOf: async (userId: number): Promise<string[]> =>
    (
      await q.query<{ d: string }>(
        `SELECT hash_device AS d FROM users WHERE id = $1 AND hash_device <> ''
         UNION SELECT hash_device FROM referrals WHERE referred_id = $1 AND hash_device <> ''`,
        [userId],
      )
    ).map((r) => r.d),

  /** The device hash when another account than userId has used it, so [] or [hash]. */
  deviceUsedByOthers: async (hash: string, userId: number): Promise<string[]> =>
    hash === ''
      ? []
      : (
          await q.query<{ d: string }>(
            `SELECT $1::text AS d WHERE EXISTS (SELECT 1 FROM users WHERE hash_device = $1 AND id <> $2)
               OR EXISTS (SELECT 1 FROM referrals WHERE hash_device = $1 AND referred_id <> $2)`,
            [hash, userId],
          )
        ).map((r) => r.d),

  /** The referrer's counted referrals (fraud left out), newest first. */
  referrals: async (referrerId: number): Promise<ReferralRow[]> =>
    (
      await q.query<RawReferral>(`${REFERRAL_SELECT} WHERE r.referrer_id = $1 AND r.fraud IS NULL ORDER BY r.id DESC LIMIT 1000`, [
        referrerId,
      ])
    ).map(toReferral),

  /**
   * Locks one of the referrer's counted referrals (generation); false for anyone else's. A statement of
   * its own: the reads after it see what a transaction that held the lock before wrote (READ COMMITTED).
   */
  lockReferral: async ({ referrerId, id }: { referrerId: number; id: number }): Promise<boolean> =>
    (await q.query('SELECT id FROM referrals WHERE id = $1 AND referrer_id = $2 AND fraud IS NULL FOR UPDATE', [id, referrerId])).length >
    0,

  /** One of the referrer's counted referrals; null for anyone else's. */
  referral: async ({ referrerId, id }: { referrerId: number; id: number }): Promise<ReferralRow | null> => {
    const [row] = await q.query<RawReferral>(`${REFERRAL_SELECT} WHERE r.id = $1 AND r.referrer_id = $2 AND r.fraud IS NULL`, [
      id,
      referrerId,
    ]);
    return row ? toReferral(row) : null;
  },

  /** Sets the referral's code once; false when it already had one. */
  setReferralCode: async ({ referrerId, id, code }: { referrerId: number; id: number; code: string }): Promise<boolean> =>
    (
      await q.query('UPDATE referrals SET discount_code = $3 WHERE id = $1 AND referrer_id = $2 AND discount_code IS NULL RETURNING id', [
        id,
        referrerId,
        code,
      ])
    ).length > 0,
});
