import { ORDER_STATUS, type DiscountLimits, type StoredDiscount } from '@app/domain';
import type { Db, Queryable } from '../../db/client';
import { PUBLIC_CODE_COLUMNS, type PublicCodeRow } from './discounts.writes.repo';

interface DiscountRow {
  code: string;
  percent: number;
  amount_cents: number;
  is_top_writer_discount: boolean;
}
interface LimitedDiscountRow extends DiscountRow {
  first_order_only: boolean;
  per_customer_limit: number | null;
  total_limit: number | null;
  starts_at: Date | null;
  expires_at: Date | null;
}
/** ADR 0090: a code with the limits an admin set on it. */
export type LimitedDiscount = StoredDiscount & { limits: DiscountLimits };
const hasLimits = (l: DiscountLimits): boolean =>
  l.firstOrderOnly || l.perCustomerLimit !== null || l.totalLimit !== null || l.startsAt !== null || l.endsAt !== null;
export { hasLimits };
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
  }): Promise<LimitedDiscount | null> => {
    const [row] = await db.query<LimitedDiscountRow>(
      `SELECT code, percent, amount_cents, is_top_writer_discount, first_order_only, per_customer_limit, total_limit, starts_at, expires_at
       FROM discount_codes
       WHERE lower(code) = lower($1) AND active AND (customer_id IS NULL OR customer_id = $2) AND ${usable('$3', '$4')}`,
      [code, customerId, now, orderId ?? null],
    );
    return row
      ? {
          ...toStored(row),
          limits: {
            firstOrderOnly: row.first_order_only,
            perCustomerLimit: row.per_customer_limit,
            totalLimit: row.total_limit,
            startsAt: row.starts_at,
            endsAt: row.expires_at,
          },
        }
      : null;
  },
  /**
   * ADR 0090: what a code's limits count: orders placed with it and not canceled (the order being edited
   * left out), the customer's own among them, and the customer's other orders.
   */
  usage: async ({
    code,
    customerId,
    orderId,
  }: {
    code: string;
    customerId: number | null;
    orderId?: number | undefined;
  }): Promise<{ totalUses: number; customerUses: number | null; customerOrders: number | null }> => {
    const [row] = await db.query<{ total_uses: number; customer_uses: number; customer_orders: number }>(
      `SELECT
         (SELECT count(*)::int FROM orders WHERE lower(discount_code) = lower($1) AND status_id <> $4 AND id <> $3) AS total_uses,
         (SELECT count(*)::int FROM orders WHERE customer_id = $2 AND lower(discount_code) = lower($1) AND status_id <> $4 AND id <> $3) AS customer_uses,
         (SELECT count(*)::int FROM orders WHERE customer_id = $2 AND status_id <> $4 AND id <> $3) AS customer_orders`,
      [code, customerId ?? 0, orderId ?? 0, ORDER_STATUS.canceled],
    );
    return {
      totalUses: row?.total_uses ?? 0,
      customerUses: customerId === null ? null : (row?.customer_uses ?? 0),
      customerOrders: customerId === null ? null : (row?.customer_orders ?? 0),
    };
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

/** ADR 0090: public codes with their uses (orders placed with them, not canceled) and revenue (cents the kept orders paid). */
export const publicCodesWithUsage = async (
  db: Queryable,
  { id, keptMoney }: { id: number | null; keptMoney: readonly number[] },
): Promise<(PublicCodeRow & { uses: number; revenue_cents: string })[]> =>
  db.query<PublicCodeRow & { uses: number; revenue_cents: string }>(
    `SELECT ${PUBLIC_CODE_COLUMNS.split(',')
      .map((c) => `d.${c.trim()}`)
      .join(', ')},
       (SELECT count(*)::int FROM orders o WHERE lower(o.discount_code) = lower(d.code) AND o.status_id <> $2) AS uses,
       (SELECT COALESCE(sum(o.final_price_cents), 0) FROM orders o
         WHERE lower(o.discount_code) = lower(d.code) AND o.status_id = ANY($3::int[])) AS revenue_cents
     FROM discount_codes d
     WHERE d.customer_id IS NULL AND d.source = 'public' AND ($1::integer IS NULL OR d.id = $1)
     ORDER BY d.created_at DESC, d.id DESC`,
    [id, ORDER_STATUS.canceled, keptMoney],
  );
