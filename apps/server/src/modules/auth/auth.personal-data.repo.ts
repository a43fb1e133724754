import type { Queryable } from '../../db/client';

/**
 * The report's `acceptances` section (ADR 0085): the versions of the Terms and Privacy Policy accepted, when,
 * from where; one keyset batch after `afterId`. The deletion's part is in `eraseAccount`.
 */
export const acceptancesReport = (
  q: Queryable,
  { customerId, afterId, limit }: { customerId: number; afterId: number; limit: number },
): Promise<Record<string, unknown>[]> =>
  q.query(
    `SELECT a.id, a.terms_version AS "termsVersion", a.privacy_version AS "privacyVersion", a.context,
      a.ip, a.user_agent AS "userAgent", a.accepted_at AS "acceptedAt"
    FROM terms_acceptances a WHERE a.customer_id = $1 AND a.id > $2 ORDER BY a.id LIMIT $3`,
    [customerId, afterId, limit],
  );
