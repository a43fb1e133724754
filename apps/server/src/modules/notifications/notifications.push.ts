import { createECDH } from 'node:crypto';
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
 * A VAPID key pair as `web-push` makes it (`generateVAPIDKeys`): a P-256 key, the public key the uncompressed
 * point (65 bytes), the private key its 32 bytes, both base64url; made with node:crypto, so a start loads
 * no push library (ADR 0058).
 */
const newVapidKeys = (): VapidKeys => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  // The private key's leading zero bytes, if any, are kept: always 32 bytes.
  const secret = ecdh.getPrivateKey();
  const privateKey = Buffer.concat([Buffer.alloc(32 - secret.length), secret]);
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: privateKey.toString('base64url') };
};

/**
 * ADR 0088: Web Push's VAPID keys: from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, or generated on first start (the
 * notifications module asks at registration, so a database has its pair from its first start, not from its
 * first notification) and kept in app_secrets like the JWT secret, so every instance signs with the same pair.
 */
export const resolveVapidKeys = async (config: Pick<Config, 'notifications'>, db: Db): Promise<VapidKeys> => {
  if (config.notifications.vapid) return config.notifications.vapid;
  const stored = await storedAppSecret(db, VAPID_SECRET, () => JSON.stringify(newVapidKeys()));
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
