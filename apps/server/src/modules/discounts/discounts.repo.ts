import type { StoredDiscount } from '@app/domain';
import type { Db } from '../../db/client';

interface DiscountRow {
  code: string;
  percent: number;
  amount_cents: number;
  is_top_writer_discount: boolean;
}
const toStored = (r: DiscountRow): StoredDiscount => ({
  code: r.code,
  percent: r.percent,
  amountCents: r.amount_cents,
  isTopWriterDiscount: r.is_top_writer_discount,
});

/** Discount codes: public ones (customer_id NULL) and codes owned by one customer. */
export const createDiscountsRepo = (db: Db) => ({
  /** An active code the caller may use: a public one, or one of their own. Codes match case-insensitively. */
  findUsable: async ({ code, customerId }: { code: string; customerId: number | null }): Promise<StoredDiscount | null> => {
    const [row] = await db.query<DiscountRow>(
      `SELECT code, percent, amount_cents, is_top_writer_discount FROM discount_codes
       WHERE lower(code) = lower($1) AND active AND (customer_id IS NULL OR customer_id = $2)`,
      [code, customerId],
    );
    return row ? toStored(row) : null;
  },
  /** The customer's own active codes, newest first. */
  listOwn: async ({ customerId }: { customerId: number }): Promise<StoredDiscount[]> =>
    (
      await db.query<DiscountRow>(
        `SELECT code, percent, amount_cents, is_top_writer_discount FROM discount_codes
         WHERE customer_id = $1 AND active
         ORDER BY created_at DESC, code`,
        [customerId],
      )
    ).map(toStored),
});
export type DiscountsRepo = ReturnType<typeof createDiscountsRepo>;
