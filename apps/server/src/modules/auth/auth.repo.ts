import { CUSTOMER_ROLE_IDS, CUSTOMER_STATUS } from '@app/domain';
import { isUniqueViolation, type Db } from '../../db/client';
import { createAuthSessionsRepo } from './auth.sessions.repo';

export type { SessionClient } from './auth.sessions.repo';

/** The account fields sign-in and token issuing need; never leaves the auth module with the hash. */
export interface AccountRow {
  id: number;
  role: number;
  email: string;
  firstName: string;
  statusId: number;
  passwordHash: string;
  /** ADR 0070: false for an account without a password its holder set (checkout without one, or removed). */
  passwordSet: boolean;
}

interface UserSqlRow {
  id: number;
  role: number;
  email: string;
  first_name: string;
  status_id: number;
  password_hash: string;
  password_set: boolean;
}

const toAccount = (r: UserSqlRow): AccountRow => ({
  id: r.id,
  role: r.role,
  email: r.email,
  firstName: r.first_name,
  statusId: r.status_id,
  passwordHash: r.password_hash,
  passwordSet: r.password_set,
});

const ACCOUNT_COLUMNS = 'id, role, email, first_name, status_id, password_hash, password_set';

export type OneTimePurpose = 'magic_link' | 'password_reset' | 'email_confirm' | 'account_delete' | 'email_change';

export interface NewUser {
  role: number;
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  phone: string;
  statusId: number;
  enabledNightCalls: boolean;
  referrerId: number | null;
  hashDevice: string;
  ipClient: string;
  /** True when the password was chosen by someone who has not proven the mailbox yet (ADR 0038). */
  passwordUnproven: boolean;
  /** False when the server set a random password (a checkout without one, ADR 0070). */
  passwordSet: boolean;
  now: Date;
}

/** Where a session was signed in or refreshed from (ADR 0053). */

/** A password hash no password verifies against (the verifier answers false for a malformed hash). */
export const NO_PASSWORD_HASH = '!no-password';

/** Accounts, refresh tokens and one-time tokens: the only SQL of the auth module. */
export const createAuthRepo = (db: Db) => ({
  // The sessions' SQL: auth.sessions.repo.ts.
  ...createAuthSessionsRepo(db),

  /** Emails compare case-insensitively (users_email_lower_key). */
  findAccountByEmail: async (email: string): Promise<AccountRow | null> => {
    const [row] = await db.query<UserSqlRow>(`SELECT ${ACCOUNT_COLUMNS} FROM users WHERE lower(email) = lower($1)`, [email]);
    return row ? toAccount(row) : null;
  },

  findAccountById: async (id: number): Promise<AccountRow | null> => {
    const [row] = await db.query<UserSqlRow>(`SELECT ${ACCOUNT_COLUMNS} FROM users WHERE id = $1`, [id]);
    return row ? toAccount(row) : null;
  },

  emailExists: async (email: string): Promise<boolean> => {
    const rows = await db.query('SELECT 1 FROM users WHERE lower(email) = lower($1)', [email]);
    return rows.length > 0;
  },

  /** A referrer must be an existing customer (roles 1, 2). */
  customerExists: async (id: number): Promise<boolean> => {
    const rows = await db.query('SELECT 1 FROM users WHERE id = $1 AND role = ANY($2::int[])', [id, CUSTOMER_ROLE_IDS]);
    return rows.length > 0;
  },

  /** Null when the email is taken (also when a concurrent sign-up won the unique index). */
  insertUser: async (u: NewUser): Promise<number | null> => {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO users (role, email, password_hash, first_name, last_name, phone, status_id, enabled_night_calls,
         referrer_id, hash_device, ip_client, created_at, updated_at, password_unproven, password_set)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13, $14)
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [
        u.role,
        u.email,
        u.passwordHash,
        u.firstName,
        u.lastName,
        u.phone,
        u.statusId,
        u.enabledNightCalls,
        u.referrerId,
        u.hashDevice,
        u.ipClient,
        u.now,
        u.passwordUnproven,
        u.passwordSet,
      ],
    );
    return row?.id ?? null;
  },

  setHashDevice: async (userId: number, hashDevice: string): Promise<void> => {
    await db.query('UPDATE users SET hash_device = $2 WHERE id = $1', [userId, hashDevice]);
  },

  /**
   * A proof of the mailbox (magic link or confirmation mail) for an account, in one transaction (ADR 0038).
   * Marks the email confirmed; an account awaiting confirmation (3) becomes active (1). On the account's
   * first proof, from a request holding no session of the account (`sameSession` false), every refresh
   * token is revoked and a password chosen before the proof is removed: whoever set it had not shown
   * the mailbox. With a session of the account, the session's holder proved the mailbox: all is kept.
   */
  proveMailbox: async (p: {
    userId: number;
    sameSession: boolean;
    now: Date;
  }): Promise<{ passwordRemoved: boolean; sessionsEnded: boolean }> =>
    db.transaction(async (tx) => {
      const [row] = await tx.query<{ confirmed: boolean; password_unproven: boolean }>(
        'SELECT email_confirmed_at IS NOT NULL AS confirmed, password_unproven FROM users WHERE id = $1 FOR UPDATE',
        [p.userId],
      );
      if (!row) return { passwordRemoved: false, sessionsEnded: false };
      await tx.query(
        `UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, $2),
           status_id = CASE WHEN status_id = $3 THEN $4 ELSE status_id END, updated_at = $2
         WHERE id = $1`,
        [p.userId, p.now, CUSTOMER_STATUS.awaitingConfirmation.id, CUSTOMER_STATUS.active.id],
      );
      if (row.confirmed) return { passwordRemoved: false, sessionsEnded: false };
      if (p.sameSession) {
        await tx.query('UPDATE users SET password_unproven = false WHERE id = $1', [p.userId]);
        return { passwordRemoved: false, sessionsEnded: false };
      }
      await tx.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [p.userId, p.now]);
      if (!row.password_unproven) return { passwordRemoved: false, sessionsEnded: true };
      await tx.query('UPDATE users SET password_hash = $2, password_unproven = false, password_set = false WHERE id = $1', [
        p.userId,
        NO_PASSWORD_HASH,
      ]);
      return { passwordRemoved: true, sessionsEnded: true };
    }),

  /**
   * Password reset in one transaction: spend the token, set the password (proven: it came through the
   * mailbox), end every session and every other reset link. Null when the token is unknown, used or
   * expired, or the account is deactivated (nothing changes then).
   */
  resetPassword: async (r: { tokenHash: string; passwordHash: string; now: Date }): Promise<number | null> =>
    db.transaction(async (tx) => {
      const [token] = await tx.query<{ user_id: number }>(
        `UPDATE one_time_tokens SET used_at = $2
         WHERE token_hash = $1 AND purpose = 'password_reset' AND used_at IS NULL AND expires_at > $2
         RETURNING user_id`,
        [r.tokenHash, r.now],
      );
      if (!token) return null;
      const [user] = await tx.query<{ id: number }>(
        `UPDATE users SET password_hash = $2, password_unproven = false, password_set = true, updated_at = $3
         WHERE id = $1 AND status_id <> $4 RETURNING id`,
        [token.user_id, r.passwordHash, r.now, CUSTOMER_STATUS.deactivated.id],
      );
      if (!user) return null;
      await tx.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [user.id, r.now]);
      await tx.query(
        `UPDATE one_time_tokens SET used_at = $2 WHERE user_id = $1 AND purpose IN ('password_reset', 'email_change') AND used_at IS NULL`,
        [user.id, r.now],
      );
      return user.id;
    }),

  isEmailConfirmed: async (userId: number): Promise<boolean> => {
    const [row] = await db.query<{ confirmed: boolean }>('SELECT email_confirmed_at IS NOT NULL AS confirmed FROM users WHERE id = $1', [
      userId,
    ]);
    return row?.confirmed ?? false;
  },

  /**
   * Password change in one transaction: the account row locked, the hash replaced only when it is still the
   * one the current password was checked against (a concurrent change wins once), every other session
   * ended. False when the account changed meanwhile, is deleted, or is gone.
   */
  changePassword: async (c: {
    userId: number;
    expectedHash: string;
    passwordHash: string;
    keepFamilyId: string | null;
    now: Date;
  }): Promise<boolean> =>
    db.transaction(async (tx) => {
      const [user] = await tx.query<{ id: number }>(
        `UPDATE users SET password_hash = $3, password_unproven = false, password_set = true, updated_at = $4
         WHERE id = $1 AND password_hash = $2 AND status_id <> $5 RETURNING id`,
        [c.userId, c.expectedHash, c.passwordHash, c.now, CUSTOMER_STATUS.deactivated.id],
      );
      if (!user) return false;
      await tx.query(
        `UPDATE refresh_tokens SET revoked_at = $3
         WHERE user_id = $1 AND revoked_at IS NULL AND ($2::text IS NULL OR family_id <> $2)`,
        [c.userId, c.keepFamilyId, c.now],
      );
      await tx.query(
        `UPDATE one_time_tokens SET used_at = $2 WHERE user_id = $1 AND purpose IN ('password_reset', 'email_change') AND used_at IS NULL`,
        [c.userId, c.now],
      );
      return true;
    }),

  insertOneTimeToken: async (t: {
    userId: number;
    purpose: OneTimePurpose;
    tokenHash: string;
    expiresAt: Date;
    now: Date;
  }): Promise<void> => {
    await db.query('INSERT INTO one_time_tokens (user_id, purpose, token_hash, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)', [
      t.userId,
      t.purpose,
      t.tokenHash,
      t.expiresAt,
      t.now,
    ]);
  },

  /** Spends every unused token of the account for `purpose` (a new one replaces them). */
  spendOneTimeTokens: async (t: { userId: number; purpose: OneTimePurpose; now: Date }): Promise<void> => {
    await db.query('UPDATE one_time_tokens SET used_at = $3 WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL', [
      t.userId,
      t.purpose,
      t.now,
    ]);
  },

  /**
   * A token that only its own account may spend (ADR 0070: the deletion link works with a session of the
   * account that asked for it). Another account's attempt spends nothing. True when it was spent now.
   */
  consumeOwnOneTimeToken: async (t: { userId: number; purpose: OneTimePurpose; tokenHash: string; now: Date }): Promise<boolean> => {
    const rows = await db.query(
      `UPDATE one_time_tokens SET used_at = $4
       WHERE token_hash = $1 AND purpose = $2 AND user_id = $3 AND used_at IS NULL AND expires_at > $4
       RETURNING id`,
      [t.tokenHash, t.purpose, t.userId, t.now],
    );
    return rows.length > 0;
  },

  /**
   * ADR 0097: a pending email change. Older pending changes of the account are spent (the newest link is
   * the only one that works); the row keeps the new address and the session that asked.
   */
  insertEmailChange: async (t: { userId: number; tokenHash: string; newEmail: string; familyId: string; expiresAt: Date; now: Date }) =>
    db.transaction(async (tx) => {
      await tx.query(`UPDATE one_time_tokens SET used_at = $2 WHERE user_id = $1 AND purpose = 'email_change' AND used_at IS NULL`, [
        t.userId,
        t.now,
      ]);
      await tx.query(
        `INSERT INTO one_time_tokens (user_id, purpose, token_hash, expires_at, created_at, new_email, family_id)
         VALUES ($1, 'email_change', $2, $3, $4, $5, $6)`,
        [t.userId, t.tokenHash, t.expiresAt, t.now, t.newEmail, t.familyId],
      );
    }),

  /**
   * ADR 0097: the email change, in one transaction. The token is spent only by its own account, unused, not
   * expired, and while the session that asked is live; the new address must still be free. Then the email
   * is set and proven (status 3 becomes 1), and every link mailed to the old address stops working. The
   * answer says what happened; anything but 'changed' changes nothing (the token stays as it was).
   */
  changeEmail: async (c: {
    userId: number;
    tokenHash: string;
    now: Date;
  }): Promise<{ result: 'changed'; oldEmail: string; newEmail: string; firstName: string } | { result: 'invalid' | 'taken' }> => {
    try {
      return await db.transaction(async (tx) => {
        const [token] = await tx.query<{ new_email: string; family_id: string }>(
          `UPDATE one_time_tokens SET used_at = $3
           WHERE token_hash = $1 AND purpose = 'email_change' AND user_id = $2 AND used_at IS NULL AND expires_at > $3
           RETURNING new_email, family_id`,
          [c.tokenHash, c.userId, c.now],
        );
        if (!token) return { result: 'invalid' as const };
        const live = await tx.query(
          'SELECT 1 FROM refresh_tokens WHERE user_id = $1 AND family_id = $2 AND revoked_at IS NULL AND expires_at > $3 LIMIT 1',
          [c.userId, token.family_id, c.now],
        );
        if (live.length === 0) throw new EmailChangeRefused('invalid');
        const [user] = await tx.query<{ email: string; first_name: string }>(
          'SELECT email, first_name FROM users WHERE id = $1 AND status_id <> $2 FOR UPDATE',
          [c.userId, CUSTOMER_STATUS.deactivated.id],
        );
        if (!user) throw new EmailChangeRefused('invalid');
        const taken = await tx.query('SELECT 1 FROM users WHERE lower(email) = lower($1) AND id <> $2', [token.new_email, c.userId]);
        if (taken.length > 0) throw new EmailChangeRefused('taken');
        await tx.query(
          `UPDATE users SET email = $2, email_confirmed_at = $3, password_unproven = false, updated_at = $3,
             status_id = CASE WHEN status_id = $4 THEN $5 ELSE status_id END
           WHERE id = $1`,
          [c.userId, token.new_email, c.now, CUSTOMER_STATUS.awaitingConfirmation.id, CUSTOMER_STATUS.active.id],
        );
        // Links mailed to the old address (sign-in, reset, confirmation, deletion) stop with it.
        await tx.query('UPDATE one_time_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL', [c.userId, c.now]);
        return { result: 'changed' as const, oldEmail: user.email, newEmail: token.new_email, firstName: user.first_name };
      });
    } catch (error) {
      if (error instanceof EmailChangeRefused) return { result: error.result };
      // Two accounts racing for one address: the unique index on lower(email) lets one through.
      if (isUniqueViolation(error)) return { result: 'taken' };
      throw error;
    }
  },

  /** Single use by construction: only the first UPDATE finds used_at still null. Null when unknown, used or expired. */
  consumeOneTimeToken: async (t: { purpose: OneTimePurpose; tokenHash: string; now: Date }): Promise<number | null> => {
    const [row] = await db.query<{ user_id: number }>(
      `UPDATE one_time_tokens SET used_at = $3
       WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
       RETURNING user_id`,
      [t.tokenHash, t.purpose, t.now],
    );
    return row?.user_id ?? null;
  },
});
export type AuthRepo = ReturnType<typeof createAuthRepo>;

/** Rolls the email change's transaction back (the token stays unspent) and says why. */
class EmailChangeRefused extends Error {
  constructor(readonly result: 'invalid' | 'taken') {
    super(result);
  }
}
