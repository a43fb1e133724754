import type { Queryable } from '../../db/client';

/** A code generated for one customer (from points or a referral). */
export interface NewCustomerCode {
  code: string;
  customerId: number;
  percent: number;
  source: 'loyalty' | 'referral';
  expiresAt: Date | null;
  now: Date;
}

/**
 * Every write to `discount_codes` another module makes, in the caller's transaction (`q`). The discounts
 * module owns the table (ADR 0077); the loyalty module generates codes from points and referrals through
 * these, and a refund voids an unused one (ADR 0072). A single-use code is marked used by the trigger of
 * migration 0011 when an order takes it.
 */
export const discountCodeWrites = (q: Queryable) => ({
  /** A customer's own single-use code (loyalty or referral); false when the code text is taken. */
  async insertCustomerCode(c: NewCustomerCode): Promise<boolean> {
    const rows = await q.query(
      `INSERT INTO discount_codes (code, percent, amount_cents, customer_id, source, single_use, expires_at, created_at)
       VALUES ($1, $2, 0, $3, $4, true, $5, $6) ON CONFLICT DO NOTHING RETURNING code`,
      [c.code, c.percent, c.customerId, c.source, c.expiresAt, c.now],
    );
    return rows.length > 0;
  },

  /** Voids the code while no order has taken it; false when an order took it first (ADR 0072). */
  async voidUnused({ code }: { code: string }): Promise<boolean> {
    const rows = await q.query(
      'UPDATE discount_codes SET active = false WHERE code = $1 AND used_order_id IS NULL AND active RETURNING code',
      [code],
    );
    return rows.length > 0;
  },
});

/** The discounts module's part of an account deletion (ADR 0052): the customer's own codes (loyalty, referral) can no longer be used by anyone. */
export const eraseCustomerCodes = async (tx: Queryable, { customerId }: { customerId: number }): Promise<void> => {
  await tx.query('UPDATE discount_codes SET active = false WHERE customer_id = $1', [customerId]);
};
