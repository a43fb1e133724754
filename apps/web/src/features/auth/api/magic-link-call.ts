import { AUTH_MESSAGE } from '@app/domain/auth/rules';
import { apiFetch } from '@/lib/api-client';
import { storeTokens, tokenPairSchema } from './tokens';

/** A notice the server adds when the link removed a password chosen before the mailbox was proven (ADR 0038). */
const noticeOf = (data: unknown): string | null =>
  typeof data === 'object' && data !== null && 'message' in data && typeof data.message === 'string' ? data.message : null;

/**
 * CONTRACT "Identity": GET /api/en/auth/magic_link/{token} returns the tokens, once; 404 when spent.
 * A stored access token goes along (auth: false still sends one): it shows the link was opened in the
 * browser of the account's session, which keeps that session and its password (ADR 0038).
 */
export const magicLinkSignIn = async (token: string): Promise<{ notice: string | null; signedIn: string }> => {
  const data = await apiFetch(`/api/en/auth/magic_link/${encodeURIComponent(token)}`, { auth: false });
  storeTokens(tokenPairSchema.parse(data));
  return { notice: noticeOf(data), signedIn: SIGNED_IN_BY_LINK };
};

/** Issue 27: what the startup says once a link signed the customer in (here, not in the entry chunk). */
const SIGNED_IN_BY_LINK = "You're signed in";

/** SPEC §8: what the startup says for a spent or unknown link. */
export const MAGIC_LINK_INVALID = AUTH_MESSAGE.resetLinkInvalid;
