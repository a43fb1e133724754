import type { AnyNotificationType, NotificationItem, NotificationType } from '@app/domain';
import { notificationLink } from '@app/domain';
import type { Queryable } from '../../db/client';

export interface NotificationRow {
  id: number;
  userId: number;
  type: AnyNotificationType;
  orderId: number | null;
  title: string;
  body: string;
  data: Record<string, unknown>;
  createdAt: Date;
  readAt: Date | null;
}

/** A customer's notification (the mail job's rows). */
export type CustomerNotificationRow = NotificationRow & { type: NotificationType };

interface Raw {
  id: number | string;
  user_id: number;
  type: string;
  order_id: number | null;
  title: string;
  body: string;
  data: Record<string, unknown> | string | null;
  created_at: Date | string;
  read_at: Date | string | null;
}

const toRow = (r: Raw): NotificationRow => ({
  id: Number(r.id),
  userId: r.user_id,
  type: r.type as AnyNotificationType,
  orderId: r.order_id,
  title: r.title,
  body: r.body,
  data: r.data === null ? {} : typeof r.data === 'string' ? (JSON.parse(r.data) as Record<string, unknown>) : r.data,
  createdAt: new Date(r.created_at),
  readAt: r.read_at === null ? null : new Date(r.read_at),
});

export const toWire = (r: NotificationRow): NotificationItem => ({
  id: r.id,
  type: r.type,
  orderId: r.orderId,
  title: r.title,
  body: r.body,
  link: notificationLink(r.type, r.orderId, r.data),
  createdAt: r.createdAt.toISOString(),
  readAt: r.readAt ? r.readAt.toISOString() : null,
});

/** Browsers one user may subscribe (a new one beyond it replaces the oldest). */
export const PUSH_SUBSCRIPTIONS_MAX = 10;

/** ADR 0088: the first key of the mail job's advisory lock of one (user, order) group (the second its hash); "NTFM". */
const MAIL_GROUP_LOCK = 0x4e54464d;
/** Oldest due rows (through notifications_mail_due_idx) whose groups one claim looks at; the first not being claimed by another run is taken. */
const CLAIM_CANDIDATES = 50;
/** Claims tried when the group found was claimed by another run meanwhile. */
const CLAIM_TRIES = 5;

const COLUMNS = 'id, user_id, type, order_id, title, body, data, created_at, read_at';

/** The notifications module's tables: notifications, notification_preferences, push_subscriptions (ADR 0088). */
export const createNotificationsRepo = (q: Queryable) => ({
  /** A new notification; null when its dedupe key was already used (a reminder made once). */
  insert: async (n: {
    userId: number;
    type: AnyNotificationType;
    orderId: number | null;
    title: string;
    body: string;
    data: Record<string, unknown>;
    now: Date;
    mailState: 'none' | 'pending' | 'skipped';
    mailDueAt: Date | null;
    dedupeKey: string | null;
  }): Promise<NotificationRow | null> => {
    const [row] = await q.query<Raw>(
      `INSERT INTO notifications (user_id, type, order_id, title, body, data, created_at, mail_state, mail_due_at, dedupe_key)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10)
       ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
       RETURNING ${COLUMNS}`,
      [n.userId, n.type, n.orderId, n.title, n.body, JSON.stringify(n.data), n.now, n.mailState, n.mailDueAt, n.dedupeKey],
    );
    return row ? toRow(row) : null;
  },

  /** The due time of a mail already waiting for this user's order (the burst it joins), if any. */
  pendingDueAt: async ({ userId, orderId }: { userId: number; orderId: number | null }): Promise<Date | null> => {
    const [row] = await q.query<{ due: Date | string | null }>(
      `SELECT min(mail_due_at) AS due FROM notifications
        WHERE user_id = $1 AND order_id IS NOT DISTINCT FROM $2 AND mail_state = 'pending'`,
      [userId, orderId],
    );
    return row?.due ? new Date(row.due) : null;
  },

  find: async ({ userId, id }: { userId: number; id: number }): Promise<NotificationRow | null> => {
    const [row] = await q.query<Raw>(`SELECT ${COLUMNS} FROM notifications WHERE id = $1 AND user_id = $2`, [id, userId]);
    return row ? toRow(row) : null;
  },

  list: async ({ userId, limit, offset }: { userId: number; limit: number; offset: number }) => {
    const rows = await q.query<Raw>(`SELECT ${COLUMNS} FROM notifications WHERE user_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`, [
      userId,
      limit,
      offset,
    ]);
    const [count] = await q.query<{ total: number; unread: number }>(
      `SELECT count(*)::int AS total, (count(*) FILTER (WHERE read_at IS NULL))::int AS unread FROM notifications WHERE user_id = $1`,
      [userId],
    );
    return { rows: rows.map(toRow), total: count?.total ?? 0, unread: count?.unread ?? 0 };
  },

  unread: async (userId: number): Promise<number> => {
    const [row] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND read_at IS NULL', [
      userId,
    ]);
    return row?.n ?? 0;
  },

  /** How many of `ids` are this user's (the caller refuses the call when not all are). */
  ownedCount: async ({ userId, ids }: { userId: number; ids: number[] }): Promise<number> => {
    const [row] = await q.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND id = ANY($2::bigint[])',
      [userId, ids],
    );
    return row?.n ?? 0;
  },

  markRead: async ({ userId, ids, now }: { userId: number; ids: number[] | 'all'; now: Date }): Promise<number> => {
    const rows =
      ids === 'all'
        ? await q.query('UPDATE notifications SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL RETURNING id', [userId, now])
        : await q.query(
            'UPDATE notifications SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL AND id = ANY($3::bigint[]) RETURNING id',
            [userId, now, ids],
          );
    return rows.length;
  },

  preferences: async (userId: number) =>
    (
      await q.query<{ type: string; email: boolean; push: boolean; updated_at: Date | string }>(
        'SELECT type, email, push, updated_at FROM notification_preferences WHERE user_id = $1',
        [userId],
      )
    ).map((r) => ({ type: r.type, email: r.email, push: r.push, updatedAt: new Date(r.updated_at) })),

  setPreference: async (p: { userId: number; type: NotificationType; email: boolean; push: boolean; now: Date }): Promise<void> => {
    await q.query(
      `INSERT INTO notification_preferences (user_id, type, email, push, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, type) DO UPDATE SET email = EXCLUDED.email, push = EXCLUDED.push, updated_at = EXCLUDED.updated_at`,
      [p.userId, p.type, p.email, p.push, p.now],
    );
  },

  // --- the mail job (ADR 0088) ---

  /**
   * Claims one user's order whose first waiting mail is due: its pending rows, leased, oldest first. Empty when
   * nothing is due. The group is taken whole under a transaction-level advisory lock of its (user, order):
   * locking only its oldest row let another instance take the group's next row as its head in the same moment
   * and claim the rest, one burst then made two mails (seen in notifications.jobs.pg.test.ts). A group another
   * run is claiming right now is passed over; one it claimed just before this statement is empty here, and
   * the next due group is tried.
   */
  claimDueGroup: async ({ now, leaseUntil }: { now: Date; leaseUntil: Date }): Promise<CustomerNotificationRow[]> => {
    for (let tries = 0; tries < CLAIM_TRIES; tries += 1) {
      const [head] = await q.query<{ user_id: number; order_id: number | null }>(
        `WITH oldest AS MATERIALIZED (
           SELECT user_id, order_id, mail_due_at, id FROM notifications
            WHERE mail_state = 'pending' AND mail_due_at <= $1 AND (mail_claimed_until IS NULL OR mail_claimed_until < $1)
            ORDER BY mail_due_at, id LIMIT $3),
         due AS MATERIALIZED (
           SELECT user_id, order_id, min(mail_due_at) AS due, min(id) AS first FROM oldest
            GROUP BY user_id, order_id ORDER BY due, first)
         -- No ORDER BY here: the lock is tried on the groups in their order until one is got (LIMIT 1).
         SELECT user_id, order_id FROM due
          WHERE pg_try_advisory_xact_lock($2::int, hashtext(user_id::text || ':' || coalesce(order_id, 0)::text))
          LIMIT 1`,
        [now, MAIL_GROUP_LOCK, CLAIM_CANDIDATES],
      );
      if (!head) return [];
      const rows = await q.query<Raw>(
        `UPDATE notifications SET mail_claimed_until = $4
          WHERE id IN (SELECT id FROM notifications
                        WHERE user_id = $1 AND order_id IS NOT DISTINCT FROM $2 AND mail_state = 'pending'
                          AND (mail_claimed_until IS NULL OR mail_claimed_until < $3)
                        FOR UPDATE SKIP LOCKED)
          RETURNING ${COLUMNS}`,
        [head.user_id, head.order_id, now, leaseUntil],
      );
      // Only a customer's types are ever pending (staff notifications are the bell's only).
      if (rows.length > 0) return rows.map((r) => toRow(r) as CustomerNotificationRow).sort((a, b) => a.id - b.id);
    }
    return [];
  },

  settleMail: async ({ ids, state }: { ids: number[]; state: 'mailed' | 'skipped' }): Promise<void> => {
    if (ids.length === 0) return;
    await q.query(
      `UPDATE notifications SET mail_state = $2, mail_due_at = NULL, mail_claimed_until = NULL WHERE id = ANY($1::bigint[]) AND mail_state = 'pending'`,
      [ids, state],
    );
  },

  // --- what the job and notify read of other modules' tables (reads are free, ADR 0077) ---

  usersWithRole: async (role: number): Promise<number[]> =>
    (await q.query<{ id: number }>('SELECT id FROM users WHERE role = $1 ORDER BY id LIMIT 200', [role])).map((r) => r.id),
  orderTitle: async (orderId: number): Promise<string> =>
    (await q.query<{ title: string }>('SELECT title FROM orders WHERE id = $1', [orderId]))[0]?.title ?? '',
  orderStatus: async (orderId: number): Promise<number | null> =>
    (await q.query<{ status_id: number }>('SELECT status_id FROM orders WHERE id = $1', [orderId]))[0]?.status_id ?? null,
  mailbox: async (userId: number): Promise<{ email: string; firstName: string } | null> => {
    const [row] = await q.query<{ email: string; first_name: string }>('SELECT email, first_name FROM users WHERE id = $1', [userId]);
    return row ? { email: row.email, firstName: row.first_name } : null;
  },
  /** Locks the account while its preference changes (a deletion waits); false when it is gone. */
  lockUser: async (userId: number): Promise<boolean> => (await q.query('SELECT 1 FROM users WHERE id = $1 FOR SHARE', [userId])).length > 0,
  /** Whether a claimed group is still this run's (not taken over after its lease ran out). */
  stillClaimed: async ({ ids, leaseUntil }: { ids: number[]; leaseUntil: Date }): Promise<boolean> => {
    const [held] = await q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM notifications WHERE id = ANY($1::bigint[]) AND mail_state = 'pending' AND mail_claimed_until = $2`,
      [ids, leaseUntil],
    );
    return held?.n === ids.length;
  },
  /** Unpaid orders past the `index`-th reminder moment (`fraction` of their time) and before their deadline, not yet reminded. */
  duePaymentReminders: async ({
    now,
    fraction,
    index,
    unpaid,
    limit,
  }: {
    now: Date;
    fraction: number;
    index: number;
    unpaid: number;
    limit: number;
  }) =>
    (
      await q.query<{ id: number; customer_id: number; deadline: Date | string }>(
        `SELECT o.id, o.customer_id, o.deadline FROM orders o
          WHERE o.status_id = $1 AND o.deadline > $2
            AND o.created_at + (o.deadline - o.created_at) * $3::float8 <= $2
            AND NOT EXISTS (SELECT 1 FROM notifications n
                             WHERE n.dedupe_key = 'payment_reminder:' || o.id || ':' || $4::int || ':' || floor(extract(epoch FROM o.deadline))::bigint)
          ORDER BY o.id LIMIT $5`,
        [unpaid, now, fraction, index, limit],
      )
    ).map((r) => ({ orderId: r.id, customerId: r.customer_id, deadline: new Date(r.deadline) })),
  /** Orders in `statuses` whose deadline is within `withinMs`, not yet told. */
  dueDeadlineSoon: async ({ now, withinMs, statuses, limit }: { now: Date; withinMs: number; statuses: number[]; limit: number }) =>
    (
      await q.query<{ id: number; customer_id: number; deadline: Date | string }>(
        `SELECT o.id, o.customer_id, o.deadline FROM orders o
          WHERE o.status_id = ANY($1::int[]) AND o.deadline > $2 AND o.deadline <= $2::timestamptz + ($3::bigint * interval '1 millisecond')
            AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.dedupe_key = 'deadline_soon:' || o.id || ':' || floor(extract(epoch FROM o.deadline))::bigint)
          ORDER BY o.deadline LIMIT $4`,
        [statuses, now, withinMs, limit],
      )
    ).map((r) => ({ orderId: r.id, customerId: r.customer_id, deadline: new Date(r.deadline) })),

  // --- push ---

  addPushSubscription: async (s: { userId: number; endpoint: string; p256dh: string; auth: string; now: Date }): Promise<void> => {
    await q.query(
      `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (endpoint) DO UPDATE SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth`,
      [s.userId, s.endpoint, s.p256dh, s.auth, s.now],
    );
    // At most PUSH_SUBSCRIPTIONS_MAX browsers a user: the oldest go.
    await q.query(
      `DELETE FROM push_subscriptions WHERE user_id = $1 AND id NOT IN (
         SELECT id FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2)`,
      [s.userId, PUSH_SUBSCRIPTIONS_MAX],
    );
  },
  removePushSubscription: async ({ userId, endpoint }: { userId: number; endpoint: string }): Promise<void> => {
    await q.query('DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2', [userId, endpoint]);
  },
  dropPushEndpoint: async (endpoint: string): Promise<void> => {
    await q.query('DELETE FROM push_subscriptions WHERE endpoint = $1', [endpoint]);
  },
  pushSubscriptions: async (userId: number) =>
    q.query<{ endpoint: string; p256dh: string; auth: string }>(
      'SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = $1',
      [userId],
    ),
});
