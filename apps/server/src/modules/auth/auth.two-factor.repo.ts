import type { Queryable } from '../../db/client';

// ADR 0090: the two-factor columns of `users` (the auth module owns the table).

export interface TwoFactorRow {
  role: number;
  email: string;
  totp_secret_enc: string | null;
  totp_pending_enc: string | null;
  totp_enabled_at: Date | null;
  totp_last_step: string | number | null;
}

/** The two-factor state of an account. */
export const row = async (q: Queryable, userId: number): Promise<TwoFactorRow | null> =>
  (
    await q.query<TwoFactorRow>(
      'SELECT role, email, totp_secret_enc, totp_pending_enc, totp_enabled_at, totp_last_step FROM users WHERE id = $1',
      [userId],
    )
  )[0] ?? null;

/** Marks `step` used, once: a second sign-in with the same code (or an older one) is refused. */
export const spend = async (q: Queryable, userId: number, step: number): Promise<boolean> =>
  (
    await q.query('UPDATE users SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id', [
      userId,
      step,
    ])
  ).length > 0;

export const setPending = async (q: Queryable, { userId, pendingEnc }: { userId: number; pendingEnc: string }): Promise<void> => {
  await q.query('UPDATE users SET totp_pending_enc = $2 WHERE id = $1', [userId, pendingEnc]);
};

/** The waiting secret becomes the account's; the step of the first code is spent. */
export const turnOn = async (q: Queryable, { userId, now, step }: { userId: number; now: Date; step: number }): Promise<void> => {
  await q.query(
    `UPDATE users SET totp_secret_enc = totp_pending_enc, totp_pending_enc = NULL, totp_enabled_at = $2, totp_last_step = $3
     WHERE id = $1`,
    [userId, now, step],
  );
};
