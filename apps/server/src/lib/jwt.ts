import { createSecretKey } from 'node:crypto';
import type * as Jose from 'jose';
import { ACCESS_TOKEN_TTL_SECONDS } from '@app/domain';
import type { Clock } from './clock';

/** Access tokens: HS256 pinned, `typ` "access", exp checked (ADR 0007). */
const ALGORITHM = 'HS256';
const ACCESS_TYPE = 'access';
const ISSUER = 'writing-service';

export interface AccessClaims {
  userId: number;
  role: number;
  /** The session (refresh-token family, ADR 0007) the token was issued to; every token the server issues has one (ADR 0053). */
  sid?: string | undefined;
}

export interface AccessTokens {
  sign(claims: AccessClaims): Promise<string>;
  /** Returns the claims, or null for a missing, malformed, forged, expired or wrong-type token. */
  verify(token: string): Promise<AccessClaims | null>;
  /**
   * Whether the account and session of claims that verified earlier are still live (ADR 0053): an open
   * chat socket asks it again every sweep (ADR 0069). Without a liveness check, always true.
   */
  isLive(claims: LiveClaims): Promise<boolean>;
}

/** What the liveness check reads of a token's claims: its account and its session. */
export type LiveClaims = Pick<AccessClaims, 'userId' | 'sid'>;

// jose is loaded at the first sign or verify, not at start (ADR 0058).
let joseModule: Promise<typeof Jose> | undefined;
const jose = () => (joseModule ??= import('jose'));

/** Verified tokens kept for their remaining life, so a busy client's token is checked once. */
const VERIFIED_CACHE_MAX = 10_000;

export const createAccessTokens = (secret: string, clock: Clock): AccessTokens => {
  // A KeyObject is imported once; jose would import raw bytes again on every verify.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const verified = new Map<string, { claims: AccessClaims; expiresAtMs: number }>();
  const remember = (token: string, claims: AccessClaims, expSeconds: number) => {
    if (verified.size >= VERIFIED_CACHE_MAX) {
      const oldest = verified.keys().next().value;
      if (oldest !== undefined) verified.delete(oldest);
    }
    verified.set(token, { claims, expiresAtMs: expSeconds * 1000 });
  };
  return {
    sign: async ({ userId, role, sid }) => {
      const now = Math.floor(clock.now().getTime() / 1000);
      const { SignJWT } = await jose();
      return new SignJWT({ role, typ: ACCESS_TYPE, ...(sid ? { sid } : {}) })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(String(userId))
        .setIssuer(ISSUER)
        .setIssuedAt(now)
        .setExpirationTime(now + ACCESS_TOKEN_TTL_SECONDS)
        .sign(key);
    },
    verify: async (token) => {
      const hit = verified.get(token);
      if (hit) {
        // The signature was checked when it was stored; the expiry is checked against the clock each time.
        if (clock.now().getTime() < hit.expiresAtMs) return hit.claims;
        verified.delete(token);
        return null;
      }
      const { jwtVerify, errors: joseErrors } = await jose();
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          currentDate: clock.now(),
        });
        const userId = Number(payload.sub);
        if (payload.typ !== ACCESS_TYPE || !Number.isSafeInteger(userId) || typeof payload.role !== 'number') {
          return null;
        }
        const claims: AccessClaims = { userId, role: payload.role, ...(typeof payload.sid === 'string' ? { sid: payload.sid } : {}) };
        if (typeof payload.exp === 'number') remember(token, claims, payload.exp);
        return claims;
      } catch (error) {
        if (error instanceof joseErrors.JOSEError) return null;
        throw error;
      }
    },
    isLive: async () => true,
  };
};

/**
 * ADR 0053: an access token is good only while its account is not deleted and its session (refresh-token
 * family) is not ended. `isLive` asks the database on every verify, after the signature (cached) and the
 * expiry: a deletion, a password change, a logout or an ended session stops the access tokens at once,
 * on every instance. A chat socket is checked when it opens (verify), closed by the "sessions ended"
 * wake-up the auth module publishes, and asks `isLive` again every sweep (ADR 0069).
 */
export const withLiveness = (tokens: AccessTokens, isLive: (claims: LiveClaims) => Promise<boolean>): AccessTokens => ({
  sign: (claims) => tokens.sign(claims),
  verify: async (token) => {
    const claims = await tokens.verify(token);
    return claims && (await isLive(claims)) ? claims : null;
  },
  isLive,
});
