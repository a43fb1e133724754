import { CUSTOMER_STATUS, normalizeEmail, STAFF_ROLE_IDS, type AdminStaff } from '@app/domain';
import type { Queryable } from '../../db/client';
import { NO_PASSWORD_HASH } from './auth.repo';

const ACTIVE = CUSTOMER_STATUS.active.id;
const DEACTIVATED = CUSTOMER_STATUS.deactivated.id;

/** A staff account as the audit log records it: no password, no secret. */
export interface StaffAuditState {
  id: number;
  role: number;
  email: string;
  active: boolean;
  twoFactor: boolean;
}

const STAFF_COLUMNS = `id, role, first_name AS "firstName", last_name AS "lastName", email, status_id <> ${DEACTIVATED} AS active,
  totp_enabled_at IS NOT NULL AS "twoFactor"`;

/**
 * ADR 0090: the admin's writes to staff accounts, in the caller's transaction (`q`), which also records
 * the audit entry. The auth module owns `users` and `refresh_tokens` (ADR 0077). Only staff rows (3, 6, 7)
 * are touched; a customer's id reads as no account.
 */
export const staffAccountWrites = (q: Queryable) => ({
  list: async (): Promise<AdminStaff[]> =>
    q.query<AdminStaff>(`SELECT ${STAFF_COLUMNS} FROM users WHERE role = ANY($1::int[]) ORDER BY role DESC, id`, [STAFF_ROLE_IDS]),

  /** The account locked for a change, or null when no staff account has the id. */
  lock: async (userId: number): Promise<StaffAuditState | null> =>
    (
      await q.query<StaffAuditState>(
        `SELECT id, role, email, status_id <> ${DEACTIVATED} AS active, totp_enabled_at IS NOT NULL AS "twoFactor"
         FROM users WHERE id = $1 AND role = ANY($2::int[]) FOR UPDATE`,
        [userId, STAFF_ROLE_IDS],
      )
    )[0] ?? null,

  /** A new staff account without a usable password (its holder sets one from the emailed link); null when the email is taken. */
  insert: async (a: { role: number; email: string; firstName: string; lastName: string; now: Date }): Promise<number | null> => {
    const [row] = await q.query<{ id: number }>(
      `INSERT INTO users (role, email, password_hash, password_set, first_name, last_name, status_id, email_confirmed_at, created_at, updated_at)
       VALUES ($1, $2, $3, false, $4, $5, $6, $7, $7, $7)
       ON CONFLICT ((lower(email))) DO NOTHING RETURNING id`,
      [a.role, normalizeEmail(a.email), NO_PASSWORD_HASH, a.firstName, a.lastName, ACTIVE, a.now],
    );
    return row?.id ?? null;
  },

  /**
   * Suspends the account: it can no longer sign in (deactivated), and every session ends now: its refresh
   * tokens are revoked and its access tokens fail the liveness check (ADR 0053) on their next request.
   */
  suspend: async ({ userId, now }: { userId: number; now: Date }): Promise<void> => {
    await q.query('UPDATE users SET status_id = $2, updated_at = $3 WHERE id = $1', [userId, DEACTIVATED, now]);
    await q.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, now]);
  },

  /** Turns a suspended account back on (it signs in again; its old sessions stay ended). */
  reactivate: async ({ userId, now }: { userId: number; now: Date }): Promise<void> => {
    await q.query('UPDATE users SET status_id = $2, updated_at = $3 WHERE id = $1', [userId, ACTIVE, now]);
  },

  /** A reset: the password stops working and every session ends; the holder sets a new one from the emailed link. */
  clearPassword: async ({ userId, now }: { userId: number; now: Date }): Promise<void> => {
    await q.query('UPDATE users SET password_hash = $2, password_set = false, updated_at = $3 WHERE id = $1', [
      userId,
      NO_PASSWORD_HASH,
      now,
    ]);
    await q.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [userId, now]);
  },
});
