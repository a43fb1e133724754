import type { Queryable } from '../../db/client';

/** The account deletion's step (ADR 0052): the customer's notifications, choices and push subscriptions go. */
export const eraseNotifications = async (tx: Queryable, { customerId }: { customerId: number }): Promise<void> => {
  await tx.query('DELETE FROM notifications WHERE user_id = $1', [customerId]);
  await tx.query('DELETE FROM notification_preferences WHERE user_id = $1', [customerId]);
  await tx.query('DELETE FROM push_subscriptions WHERE user_id = $1', [customerId]);
};

/** The report's `notificationPreferences` section: the choices changed from the defaults (at most one row a type, one batch). */
export const notificationPreferencesReport = async (
  q: Queryable,
  { customerId, afterId, limit }: { customerId: number; afterId: number; limit: number },
): Promise<Record<string, unknown>[]> =>
  afterId > 0
    ? []
    : q.query(
        `SELECT row_number() OVER (ORDER BY type)::int AS id, type, email, push, updated_at AS "updatedAt"
           FROM notification_preferences WHERE user_id = $1 ORDER BY type LIMIT $2`,
        [customerId, limit],
      );

/** The report's `notifications` section: one keyset batch after `afterId`. */
export const notificationsReport = (
  q: Queryable,
  { customerId, afterId, limit }: { customerId: number; afterId: number; limit: number },
): Promise<Record<string, unknown>[]> =>
  q.query(
    `SELECT id::int AS id, type, order_id AS "orderId", title, body, created_at AS "createdAt", read_at AS "readAt"
       FROM notifications WHERE user_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
    [customerId, afterId, limit],
  );
