import { CUSTOMER_STATUS } from '@app/domain';
import type { Db, Queryable } from '../../db/client';
import { inKeyOrder } from '../../lib/batch';

export interface SessionClient {
  userAgent: string;
  ip: string;
}
export interface SessionRow {
  familyId: string;
  userAgent: string;
  ip: string;
  signedInAt: Date;
  lastSeenAt: Date;
}
/** A User-Agent header can be long; what names a device fits in far less. */
const clip = (value: string | undefined): string => (value ?? '').slice(0, 512);

/** Which of these access tokens' claims are live (createAuthRepo's liveAccesses). */
const liveAccessesIn = async (db: Db, claims: readonly { userId: number; sid: string | null }[]): Promise<boolean[]> => {
  const rows = await db.query<{ n: number }>(
    `SELECT k.n FROM unnest($1::int[], $2::text[]) WITH ORDINALITY AS k(user_id, sid, n)
     JOIN users u ON u.id = k.user_id
     WHERE u.status_id <> $3
       AND (k.sid IS NULL OR EXISTS (SELECT 1 FROM refresh_tokens t WHERE t.user_id = k.user_id AND t.family_id = k.sid AND t.revoked_at IS NULL))`,
    [claims.map((c) => c.userId), claims.map((c) => c.sid), CUSTOMER_STATUS.deactivated.id],
  );
  return inKeyOrder(claims, rows).map((row) => row !== undefined);
};

/**
 * The sessions' SQL (CONTRACT "Identity", ADR 0053, 0061): refresh tokens and their families, rotation,
 * reuse and logout, the signed-in devices, and the access tokens' liveness. Part of `createAuthRepo`.
 */
export const createAuthSessionsRepo = (db: Db) => ({
  insertRefreshToken: async (
    t: { userId: number; familyId: string; tokenHash: string; expiresAt: Date; now: Date; client?: SessionClient | undefined },
    tx: Queryable = db,
  ): Promise<void> => {
    await tx.query(
      'INSERT INTO refresh_tokens (user_id, family_id, token_hash, expires_at, created_at, user_agent, ip) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [t.userId, t.familyId, t.tokenHash, t.expiresAt, t.now, clip(t.client?.userAgent), clip(t.client?.ip)],
    );
  },

  /**
   * ADR 0053: an access token lives while its account is not deleted (status 4) and, when it names its
   * session, while that refresh-token family has a row not revoked (rotation leaves the family live;
   * logout, reuse detection, an ended session, a password change or reset, a deletion revoke it all).
   * Many tokens' claims in one query (ADR 0063: the checks of concurrent requests are batched), in order.
   */
  liveAccesses: (claims: readonly { userId: number; sid: string | null }[]): Promise<boolean[]> => liveAccessesIn(db, claims),

  /** The account's signed-in devices: the live (not rotated, not revoked, not expired) row of each family. */
  listSessions: async (userId: number, now: Date): Promise<SessionRow[]> => {
    const rows = await db.query<{ family_id: string; user_agent: string; ip: string; signed_in_at: Date; last_seen_at: Date }>(
      `SELECT t.family_id, t.user_agent, t.ip, t.created_at AS last_seen_at,
         (SELECT min(f.created_at) FROM refresh_tokens f WHERE f.user_id = $1 AND f.family_id = t.family_id) AS signed_in_at
       FROM refresh_tokens t
       WHERE t.user_id = $1 AND t.revoked_at IS NULL AND t.rotated_at IS NULL AND t.expires_at > $2
       ORDER BY t.created_at DESC, t.id DESC`,
      [userId, now],
    );
    return rows.map((r) => ({
      familyId: r.family_id,
      userAgent: r.user_agent,
      ip: r.ip,
      signedInAt: new Date(r.signed_in_at),
      lastSeenAt: new Date(r.last_seen_at),
    }));
  },

  /** Ends one session of the account; false when the account has no such live session (another's is a 404). */
  revokeSession: async ({ userId, familyId, now }: { userId: number; familyId: string; now: Date }): Promise<boolean> => {
    const rows = await db.query(
      'UPDATE refresh_tokens SET revoked_at = $3 WHERE user_id = $1 AND family_id = $2 AND revoked_at IS NULL RETURNING id',
      [userId, familyId, now],
    );
    return rows.length > 0;
  },

  /** Ends every session of the account but `keepFamilyId` (every one when null); the count of sessions ended. */
  revokeOtherSessions: async ({
    userId,
    keepFamilyId,
    now,
  }: {
    userId: number;
    keepFamilyId: string | null;
    now: Date;
  }): Promise<number> => {
    const rows = await db.query<{ family_id: string }>(
      `UPDATE refresh_tokens SET revoked_at = $3
       WHERE user_id = $1 AND revoked_at IS NULL AND ($2::text IS NULL OR family_id <> $2)
       RETURNING family_id`,
      [userId, keepFamilyId, now],
    );
    return new Set(rows.map((r) => r.family_id)).size;
  },

  /**
   * Rotates a live refresh token and mints its child in one transaction. The conditional UPDATE
   * takes the row lock, so of two concurrent refreshes of one token only one sees it live: a race
   * cannot mint two children. The child is derived from the token (ADR 0061), so a token rotated
   * after `replayAfter` whose child is still unused is the same rotation asked again (its answer was
   * lost): it answers that child once more and mints nothing. Null when the token is not live (unknown,
   * rotated earlier or with a used child, revoked, expired) or its account is deactivated.
   */
  rotateRefreshToken: async (r: {
    tokenHash: string;
    childHash: string;
    expiresAt: Date;
    now: Date;
    replayAfter: Date;
    client?: SessionClient | undefined;
  }): Promise<{ userId: number; role: number; familyId: string } | null> =>
    db.transaction(async (tx) => {
      // The account row first (shared): a mailbox proof or a reset, which lock it before revoking every
      // token, then either runs wholly before this rotation (the token is revoked: no child) or wholly
      // after it (the child is committed and revoked with the rest). No child escapes a revocation.
      await tx.query('SELECT u.id FROM users u JOIN refresh_tokens t ON t.user_id = u.id WHERE t.token_hash = $1 FOR SHARE OF u', [
        r.tokenHash,
      ]);
      const [rotated] = await tx.query<{ user_id: number; family_id: string; user_agent: string; ip: string }>(
        `UPDATE refresh_tokens SET rotated_at = $2
         WHERE token_hash = $1 AND rotated_at IS NULL AND revoked_at IS NULL AND expires_at > $2
         RETURNING user_id, family_id, user_agent, ip`,
        [r.tokenHash, r.now],
      );
      if (!rotated) {
        const [replayed] = await tx.query<{ user_id: number; family_id: string; role: number }>(
          `SELECT t.user_id, t.family_id, u.role FROM refresh_tokens t
           JOIN refresh_tokens c ON c.family_id = t.family_id AND c.token_hash = $2
           JOIN users u ON u.id = t.user_id
           WHERE t.token_hash = $1 AND t.rotated_at > $3 AND t.revoked_at IS NULL
             AND c.rotated_at IS NULL AND c.revoked_at IS NULL AND c.expires_at > $4 AND u.status_id <> $5`,
          [r.tokenHash, r.childHash, r.replayAfter, r.now, CUSTOMER_STATUS.deactivated.id],
        );
        return replayed ? { userId: replayed.user_id, role: replayed.role, familyId: replayed.family_id } : null;
      }
      const [user] = await tx.query<{ role: number; status_id: number }>('SELECT role, status_id FROM users WHERE id = $1', [
        rotated.user_id,
      ]);
      // A deactivated account keeps no session: the rotation is kept (the token is spent), no child.
      if (!user || user.status_id === CUSTOMER_STATUS.deactivated.id) return null;
      // The child records where the session was last seen from (the refresh's client), else keeps the family's.
      await tx.query(
        'INSERT INTO refresh_tokens (user_id, family_id, token_hash, expires_at, created_at, user_agent, ip) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [
          rotated.user_id,
          rotated.family_id,
          r.childHash,
          r.expiresAt,
          r.now,
          clip(r.client?.userAgent) || rotated.user_agent,
          clip(r.client?.ip) || rotated.ip,
        ],
      );
      return { userId: rotated.user_id, role: user.role, familyId: rotated.family_id };
    }),

  /**
   * CONTRACT "Identity": a rotated token presented again revokes its whole family. The family ended (its
   * account and id, ADR 0069) when it was such a reuse, else null.
   */
  revokeFamilyIfRotated: async (tokenHash: string, now: Date): Promise<{ userId: number; familyId: string } | null> => {
    const [row] = await db.query<{ user_id: number; family_id: string }>(
      `UPDATE refresh_tokens SET revoked_at = $2
       WHERE family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1 AND rotated_at IS NOT NULL)
         AND revoked_at IS NULL
       RETURNING user_id, family_id`,
      [tokenHash, now],
    );
    return row ? { userId: row.user_id, familyId: row.family_id } : null;
  },

  /** Logout: the token's family (the live token and its rotated ancestors). Idempotent; the family ended, or null. */
  revokeFamilyOf: async (tokenHash: string, now: Date): Promise<{ userId: number; familyId: string } | null> => {
    const [row] = await db.query<{ user_id: number; family_id: string }>(
      `UPDATE refresh_tokens SET revoked_at = $2
       WHERE family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1) AND revoked_at IS NULL
       RETURNING user_id, family_id`,
      [tokenHash, now],
    );
    return row ? { userId: row.user_id, familyId: row.family_id } : null;
  },
});
