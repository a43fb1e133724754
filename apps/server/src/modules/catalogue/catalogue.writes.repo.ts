import type { Queryable } from '../../db/client';

/** One category's price tables in cents, as an admin publishes them (ADR 0090). */
export interface PriceTableRows {
  siteCategory: number;
  rates: { workTypeId: number; levelId: number; urgencyHours: number; centsPerPage: number }[];
  extras: { key: string; kind: 'percent' | 'flat'; value: number }[];
  maxAmountDiscountCents: number;
}

/**
 * ADR 0090: the admin's writes to the price tables, in the caller's transaction (`q`), which also records
 * the audit entry. The catalogue module owns them (ADR 0077). A category's rows are replaced as a whole:
 * a rate left out is no longer offered for new quotes. Orders keep the price they stored.
 */
export const priceTableWrites = (q: Queryable) => ({
  async replaceCategory(t: PriceTableRows): Promise<void> {
    await q.query('DELETE FROM price_rates WHERE site_category = $1', [t.siteCategory]);
    if (t.rates.length > 0) {
      await q.query(
        `INSERT INTO price_rates (site_category, work_type_id, level_id, urgency_hours, cents_per_page)
         SELECT $1, * FROM unnest($2::int[], $3::int[], $4::int[], $5::int[])`,
        [
          t.siteCategory,
          t.rates.map((r) => r.workTypeId),
          t.rates.map((r) => r.levelId),
          t.rates.map((r) => r.urgencyHours),
          t.rates.map((r) => r.centsPerPage),
        ],
      );
    }
    await q.query('DELETE FROM price_extras WHERE site_category = $1', [t.siteCategory]);
    for (const e of t.extras) {
      await q.query('INSERT INTO price_extras (site_category, key, kind, value) VALUES ($1, $2, $3, $4)', [
        t.siteCategory,
        e.key,
        e.kind,
        e.value,
      ]);
    }
    await q.query(
      `INSERT INTO price_settings (site_category, max_amount_discount_cents) VALUES ($1, $2)
       ON CONFLICT (site_category) DO UPDATE SET max_amount_discount_cents = EXCLUDED.max_amount_discount_cents`,
      [t.siteCategory, t.maxAmountDiscountCents],
    );
  },
});
