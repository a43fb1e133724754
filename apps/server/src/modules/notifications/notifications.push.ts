import { effectivePreferences, isStaffNotificationType } from '@app/domain';
import type { Config } from '../../config';
import { storedAppSecret } from '../../db/app-secrets';
import type { Db } from '../../db/client';
import type { Logger } from '../../lib/logger';
import { createNotificationsRepo, toWire } from './notifications.repo';

const VAPID_SECRET = 'vapid_keys';
/** A push waits at most a day at the push service for a browser that is offline. */
const PUSH_TTL_SECONDS = 24 * 60 * 60;

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * ADR 0088: Web Push's VAPID keys: from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, or generated on first start and
 * kept in app_secrets like the JWT secret, so every instance signs with the same pair. `web-push` is loaded
 * only when keys must be made (ADR 0058: nothing heavy at start).
 */
export const resolveVapidKeys = async (config: Pick<Config, 'notifications'>, db: Db): Promise<VapidKeys> => {
  if (config.notifications.vapid) return config.notifications.vapid;
  const { default: webpush } = await import('web-push');
  const stored = await storedAppSecret(db, VAPID_SECRET, () => JSON.stringify(webpush.generateVAPIDKeys()));
  return JSON.parse(stored) as VapidKeys;
};

/**
 * Pushes a committed notification to the user's browsers when its type's push is on (called once, by the
 * instance that made it, after the commit: never on the request's path). A subscription the push service
 * says is gone (404, 410) is dropped. Best effort: a push lost in a crash is not sent again (the bell and
 * the mail still tell).
 */
export const createPushSender = ({ db, keys, subject, log }: { db: Db; keys: VapidKeys; subject: string; log: Logger }) => ({
  publicKey: keys.publicKey,
  send: async ({ userId, notificationId }: { userId: number; notificationId: number }): Promise<number> => {
    const repo = createNotificationsRepo(db);
    const row = await repo.find({ userId, id: notificationId });
    if (!row) return 0;
    const prefs = effectivePreferences(await repo.preferences(userId));
    if (isStaffNotificationType(row.type) || !prefs[row.type].push) return 0;
    const subscriptions = await repo.pushSubscriptions(userId);
    if (subscriptions.length === 0) return 0;
    const { default: webpush } = await import('web-push');
    const item = toWire(row);
    const payload = JSON.stringify({ title: item.title, body: item.body, link: item.link ?? '/dashboard', id: item.id });
    let sent = 0;
    for (const s of subscriptions) {
      try {
        await webpush.sendNotification({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, payload, {
          TTL: PUSH_TTL_SECONDS,
          vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
          timeout: 10_000,
        });
        sent += 1;
      } catch (error) {
        const status = (error as { statusCode?: number }).statusCode;
        if (status === 404 || status === 410) await repo.dropPushEndpoint(s.endpoint);
        // The endpoint is a capability URL: the log names the user and the status only.
        else log.warn({ userId, status: status ?? null }, 'notifications: a push was not accepted');
      }
    }
    return sent;
  },
});
export type PushSender = ReturnType<typeof createPushSender>;
