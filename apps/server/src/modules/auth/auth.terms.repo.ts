import { TERMS_USER_AGENT_MAX_LENGTH, type TermsAcceptanceContext } from '@app/domain';
import type { Db } from '../../db/client';

/** SQL of the terms acceptances (ADR 0085); the customer id is in every WHERE. */
export const createTermsRepo = (db: Db) => ({
  /** One row per acceptance of a pair of versions: a second click (or a racing one) adds none. */
  async insert(a: {
    customerId: number;
    termsVersion: string;
    privacyVersion: string;
    context: TermsAcceptanceContext;
    ip: string;
    userAgent: string;
    now: Date;
  }): Promise<void> {
    await db.query(
      `INSERT INTO terms_acceptances (customer_id, terms_version, privacy_version, context, ip, user_agent, accepted_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (customer_id, terms_version, privacy_version) DO NOTHING`,
      [a.customerId, a.termsVersion, a.privacyVersion, a.context, a.ip, a.userAgent.slice(0, TERMS_USER_AGENT_MAX_LENGTH), a.now],
    );
  },

  /** The customer's last acceptance, and whether any names both given versions. */
  async latest(customerId: number, termsVersion: string, privacyVersion: string): Promise<{ acceptedAt: Date | null; current: boolean }> {
    const [row] = await db.query<{ accepted_at: Date | string | null; current: boolean | null }>(
      `SELECT max(accepted_at) AS accepted_at, bool_or(terms_version = $2 AND privacy_version = $3) AS current
         FROM terms_acceptances WHERE customer_id = $1`,
      [customerId, termsVersion, privacyVersion],
    );
    const at = row?.accepted_at ?? null;
    return { acceptedAt: at === null ? null : new Date(at), current: row?.current === true };
  },
});
