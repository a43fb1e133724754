import { CUSTOMER_STATUS, normalizeEmail } from '@app/domain';
import type { Queryable } from '../client';

export interface NewAccount {
  role: number;
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  confirmedAt: Date;
}

/**
 * Inserts an active account with a confirmed email (demo accounts, staff accounts made by `npm run ops`).
 * Returns the new id, or null when the email is taken: an existing account is never overwritten.
 */
export const insertAccount = async (q: Queryable, account: NewAccount): Promise<number | null> => {
  const [row] = await q.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, first_name, last_name, status_id, email_confirmed_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $7)
     ON CONFLICT ((lower(email))) DO NOTHING
     RETURNING id`,
    [
      account.role,
      normalizeEmail(account.email),
      account.passwordHash,
      account.firstName,
      account.lastName,
      CUSTOMER_STATUS.active.id,
      account.confirmedAt,
    ],
  );
  return row?.id ?? null;
};

export const findAccountId = async (q: Queryable, email: string): Promise<number | null> => {
  const [row] = await q.query<{ id: number }>('SELECT id FROM users WHERE lower(email) = $1', [normalizeEmail(email)]);
  return row?.id ?? null;
};
