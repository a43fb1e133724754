import type { Queryable } from '../../db/client';

/**
 * The loyalty module's part of an account deletion (ADR 0052): referrals and the points ledger are books
 * (nothing cascades: ON DELETE RESTRICT); the device hash goes.
 */
export const eraseCustomerReferrals = async (tx: Queryable, { customerId }: { customerId: number }): Promise<void> => {
  await tx.query(`UPDATE referrals SET hash_device = '' WHERE referred_id = $1`, [customerId]);
};

/**
 * The report's `referrals` section (migration 0011): the ones this customer brought (never those marked as
 * fraud, which are support's), and the one that brought this customer (without the referrer's code: it is theirs).
 */
export const referralsReport = (
  q: Queryable,
  { customerId, afterId, limit }: { customerId: number; afterId: number; limit: number },
): Promise<Record<string, unknown>[]> =>
  q.query(
    `SELECT r.id, CASE WHEN r.referrer_id = $1 THEN 'referrer' ELSE 'referred' END AS role,
      CASE WHEN r.referrer_id = $1 THEN r.discount_code END AS "discountCode", r.created_at AS "dateCreated"
    FROM referrals r WHERE ((r.referrer_id = $1 AND r.fraud IS NULL) OR r.referred_id = $1) AND r.id > $2 ORDER BY r.id LIMIT $3`,
    [customerId, afterId, limit],
  );

/** The report's `pointsLedger` section (migration 0011): every entry, the balance is their sum. */
export const pointsLedgerReport = (
  q: Queryable,
  { customerId, afterId, limit }: { customerId: number; afterId: number; limit: number },
): Promise<Record<string, unknown>[]> =>
  q.query(
    `SELECT l.id, l.kind, l.points, l.order_id AS "orderId", l.discount_code AS "discountCode", l.created_at AS "dateCreated"
    FROM loyalty_points_ledger l WHERE l.customer_id = $1 AND l.id > $2 ORDER BY l.id LIMIT $3`,
    [customerId, afterId, limit],
  );
