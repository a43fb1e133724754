import { createHmac, timingSafeEqual } from 'node:crypto';
import { isNotificationType, type NotificationType } from '@app/domain';

/** An unsubscribe link lives this long (a mail read months later asks the preferences page instead). */
export const UNSUBSCRIBE_TOKEN_TTL_MS = 90 * 24 * 60 * 60_000;

/**
 * ADR 0088: the one-click unsubscribe token, `{userId}.{type}.{issuedAt base36}.{HMAC-SHA256}` signed with
 * an app secret kept like the JWT secret. It names what it turns off and when it was made: a forged one fails
 * the signature, and a replayed one changes nothing once the customer changed that type since it was made.
 */
export const createUnsubscribeTokens = (secret: string) => {
  const sign = (payload: string) => createHmac('sha256', secret).update(`unsubscribe:${payload}`).digest('base64url');
  return {
    issue: ({ userId, type, at }: { userId: number; type: NotificationType; at: Date }): string => {
      const payload = `${userId}.${type}.${at.getTime().toString(36)}`;
      return `${payload}.${sign(payload)}`;
    },
    /** The token's claims when its signature holds and it is not too old; null otherwise. */
    verify: (token: string, now: Date): { userId: number; type: NotificationType; issuedAt: Date } | null => {
      if (token.length > 200) return null;
      const parts = token.split('.');
      if (parts.length !== 4) return null;
      const [user, type, at, mac] = parts as [string, string, string, string];
      const expected = Buffer.from(sign(`${user}.${type}.${at}`));
      const given = Buffer.from(mac);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const userId = Number(user);
      const issuedAt = new Date(parseInt(at, 36));
      if (!Number.isSafeInteger(userId) || userId < 1 || !isNotificationType(type) || Number.isNaN(issuedAt.getTime())) return null;
      if (now.getTime() - issuedAt.getTime() > UNSUBSCRIBE_TOKEN_TTL_MS) return null;
      return { userId, type, issuedAt };
    },
  };
};
export type UnsubscribeTokens = ReturnType<typeof createUnsubscribeTokens>;
