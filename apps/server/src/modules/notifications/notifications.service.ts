import {
  DomainError,
  effectivePreferences,
  ERROR_CODE,
  isEmailLocked,
  isNotificationType,
  NOTIFICATION_MESSAGE,
  type NotificationList,
  type NotificationPreferences,
  type NotificationType,
} from '@app/domain';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { announceRead } from './notifications.notify';
import { createNotificationsRepo, toWire } from './notifications.repo';
import type { UnsubscribeTokens } from './notifications.unsubscribe';

export type UnsubscribeOutcome = 'unsubscribed' | 'invalid' | 'stale';

export const createNotificationsService = ({ db, clock, tokens }: { db: Db; clock: Clock; tokens: UnsubscribeTokens }) => {
  const repo = createNotificationsRepo(db);
  const preferencesOf = async (userId: number): Promise<NotificationPreferences> => effectivePreferences(await repo.preferences(userId));
  return {
    /** CONTRACT: the user's notifications, newest first, with the total and the unread count. */
    list: async ({ userId, page, limit }: { userId: number; page: number; limit: number }): Promise<NotificationList> => {
      const { rows, total, unread } = await repo.list({ userId, limit, offset: (page - 1) * limit });
      return { notifications: rows.map(toWire), total, unread };
    },

    /**
     * CONTRACT `PUT …/notifications/read { ids } | { all: true }`. Ids that are not all the user's: 404,
     * nothing changed (ids are not confirmed). The other tabs hear the new count.
     */
    markRead: async ({ userId, ids }: { userId: number; ids: number[] | 'all' }): Promise<{ unread: number }> => {
      const unread = await db.transaction(async (tx) => {
        const r = createNotificationsRepo(tx);
        if (ids !== 'all') {
          const distinct = [...new Set(ids)];
          if ((await r.ownedCount({ userId, ids: distinct })) !== distinct.length) throw notFound();
          await r.markRead({ userId, ids: distinct, now: clock.now() });
        } else await r.markRead({ userId, ids: 'all', now: clock.now() });
        const left = await r.unread(userId);
        if (tx.afterCommit) tx.afterCommit(() => announceRead({ userId }));
        return left;
      });
      return { unread };
    },

    preferences: preferencesOf,

    /** ADR 0088: a browser's push subscription (the same endpoint again replaces its keys). */
    subscribePush: async (s: { userId: number; endpoint: string; p256dh: string; auth: string }): Promise<void> =>
      repo.addPushSubscription({ ...s, now: clock.now() }),
    unsubscribePush: async (s: { userId: number; endpoint: string }): Promise<void> => repo.removePushSubscription(s),

    /** CONTRACT `PUT …/notification-preferences`: the types and channels sent change now; a locked type's mail stays on (422). */
    setPreferences: async ({
      userId,
      changes,
    }: {
      userId: number;
      changes: Record<string, { email?: boolean | undefined; push?: boolean | undefined }>;
    }): Promise<NotificationPreferences> => {
      for (const [type, change] of Object.entries(changes)) {
        if (!isNotificationType(type))
          throw new DomainError(ERROR_CODE.validation, NOTIFICATION_MESSAGE.unknownType, { [type]: [NOTIFICATION_MESSAGE.unknownType] });
        if (change.email === false && isEmailLocked(type))
          throw new DomainError(ERROR_CODE.validation, NOTIFICATION_MESSAGE.locked, { [type]: [NOTIFICATION_MESSAGE.locked] });
      }
      const now = clock.now();
      await db.transaction(async (tx) => {
        const r = createNotificationsRepo(tx);
        const current = effectivePreferences(await r.preferences(userId));
        for (const [type, change] of Object.entries(changes) as [NotificationType, { email?: boolean; push?: boolean }][]) {
          const next = { email: change.email ?? current[type].email, push: change.push ?? current[type].push };
          await r.setPreference({ userId, type, ...next, now });
        }
      });
      return preferencesOf(userId);
    },

    /**
     * ADR 0088: a one-click unsubscribe turns the token's type's mail off. Forged or expired: invalid; one
     * made before the customer last changed that type (a replay after turning it on again): stale, nothing
     * changes; the same link twice: unsubscribed again (nothing more changes).
     */
    unsubscribe: async (token: string): Promise<UnsubscribeOutcome> => {
      const now = clock.now();
      const claims = tokens.verify(token, now);
      if (!claims || isEmailLocked(claims.type)) return 'invalid';
      return db.transaction(async (tx) => {
        const r = createNotificationsRepo(tx);
        if (!(await r.lockUser(claims.userId))) return 'invalid';
        const row = (await r.preferences(claims.userId)).find((p) => p.type === claims.type);
        if (row && !row.email) return 'unsubscribed';
        if (row && row.updatedAt.getTime() > claims.issuedAt.getTime()) return 'stale';
        await r.setPreference({ userId: claims.userId, type: claims.type, email: false, push: row?.push ?? false, now });
        return 'unsubscribed';
      });
    },
  };
};
export type NotificationsService = ReturnType<typeof createNotificationsService>;
