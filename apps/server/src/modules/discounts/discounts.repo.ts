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

/**
 * ADR 0050: a single-use code no order has taken (or taken by the order being edited, $4), and
 * a code not past its expiry.
 */
const usable = (now: string, orderId: string) =>
  `(NOT single_use OR used_order_id IS NULL OR used_order_id = ${orderId}::integer) AND (expires_at IS NULL OR expires_at > ${now}::timestamptz)`;

/** Discount codes: public ones (customer_id NULL) and codes owned by one customer. */
export const createDiscountsRepo = (db: Db) => ({
  /** An active code the caller may use: a public one, or one of their own. Codes match case-insensitively. */
  findUsable: async ({
    code,
    customerId,
    orderId,
    now,
  }: {
    code: string;
    customerId: number | null;
    orderId?: number | undefined;
    now: Date;
  }): Promise<StoredDiscount | null> => {
    const [row] = await db.query<DiscountRow>(
      `SELECT code, percent, amount_cents, is_top_writer_discount FROM discount_codes
       WHERE lower(code) = lower($1) AND active AND (customer_id IS NULL OR customer_id = $2) AND ${usable('$3', '$4')}`,
      [code, customerId, now, orderId ?? null],
    );
    return row ? toStored(row) : null;
  },
  /** The customer's own active codes, newest first. */
  listOwn: async ({ customerId, now }: { customerId: number; now: Date }): Promise<StoredDiscount[]> =>
    (
      await db.query<DiscountRow>(
        `SELECT code, percent, amount_cents, is_top_writer_discount FROM discount_codes
         WHERE customer_id = $1 AND active AND ${usable('$2', '$3')}
         ORDER BY created_at DESC, code`,
        [customerId, now, null],
      )
    ).map(toStored),
});
export type DiscountsRepo = ReturnType<typeof createDiscountsRepo>;
