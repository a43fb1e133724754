import type { Queryable } from '../../db/client';

/** The mail module's part of an account deletion (ADR 0052): every mail to the account's address, sent or queued, goes. */
export const eraseMailTo = async (tx: Queryable, { email }: { email: string }): Promise<void> => {
  await tx.query('DELETE FROM mail_outbox WHERE lower(to_address) = lower($1)', [email]);
};
