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

  /** ADR 0090: a public code an admin creates; null when the code text is taken. */
  async insertPublicCode(c: PublicCodeFields & { now: Date }): Promise<PublicCodeRow | null> {
    const [row] = await q.query<PublicCodeRow>(
      `INSERT INTO discount_codes (code, percent, amount_cents, first_order_only, per_customer_limit, total_limit, starts_at, expires_at,
         is_top_writer_discount, active, source, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'public', $11, $11)
       ON CONFLICT DO NOTHING RETURNING ${PUBLIC_CODE_COLUMNS}`,
      [
        c.code,
        c.percent,
        c.amountCents,
        c.firstOrderOnly,
        c.perCustomerLimit,
        c.totalLimit,
        c.startsAt,
        c.endsAt,
        c.isTopWriterDiscount,
        c.active,
        c.now,
      ],
    );
    return row ?? null;
  },
  /** ADR 0090: a public code locked for an edit (customers' own codes are not an admin's to edit). */
  async lockPublicCode(id: number): Promise<PublicCodeRow | null> {
    const [row] = await q.query<PublicCodeRow>(
      `SELECT ${PUBLIC_CODE_COLUMNS} FROM discount_codes WHERE id = $1 AND customer_id IS NULL AND source = 'public' FOR UPDATE`,
      [id],
    );
    return row ?? null;
  },
  /**
   * ADR 0090: an admin's edit, made from `version`: another save in between bumped it, and the edit
   * changes nothing (null), which the service answers with 409.
   */
  async updatePublicCode(c: PublicCodeFields & { id: number; version: number; now: Date }): Promise<PublicCodeRow | null> {
    const [row] = await q.query<PublicCodeRow>(
      `UPDATE discount_codes SET code = $3, percent = $4, amount_cents = $5, first_order_only = $6, per_customer_limit = $7,
         total_limit = $8, starts_at = $9, expires_at = $10, is_top_writer_discount = $11, active = $12, version = version + 1, updated_at = $13
       WHERE id = $1 AND version = $2 AND customer_id IS NULL AND source = 'public'
       RETURNING ${PUBLIC_CODE_COLUMNS}`,
      [
        c.id,
        c.version,
        c.code,
        c.percent,
        c.amountCents,
        c.firstOrderOnly,
        c.perCustomerLimit,
        c.totalLimit,
        c.startsAt,
        c.endsAt,
        c.isTopWriterDiscount,
        c.active,
        c.now,
      ],
    );
    return row ?? null;
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

/** ADR 0090: a public code as an admin sets it (cents inside; end is `expires_at`). */
export interface PublicCodeFields {
  code: string;
  percent: number;
  amountCents: number;
  firstOrderOnly: boolean;
  perCustomerLimit: number | null;
  totalLimit: number | null;
  startsAt: Date | null;
  endsAt: Date | null;
  isTopWriterDiscount: boolean;
  active: boolean;
}

export interface PublicCodeRow {
  id: number;
  code: string;
  percent: number;
  amount_cents: number;
  first_order_only: boolean;
  per_customer_limit: number | null;
  total_limit: number | null;
  starts_at: Date | null;
  expires_at: Date | null;
  is_top_writer_discount: boolean;
  active: boolean;
  version: number;
  updated_at: Date;
}
export const PUBLIC_CODE_COLUMNS = `id, code, percent, amount_cents, first_order_only, per_customer_limit, total_limit, starts_at, expires_at,
  is_top_writer_discount, active, version, updated_at`;

/** The discounts module's part of an account deletion (ADR 0052): the customer's own codes (loyalty, referral) can no longer be used by anyone. */
export const eraseCustomerCodes = async (tx: Queryable, { customerId }: { customerId: number }): Promise<void> => {
  await tx.query('UPDATE discount_codes SET active = false WHERE customer_id = $1', [customerId]);
};
