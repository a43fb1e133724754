import { ROLE } from '@app/domain';
import { createAccessTokens } from '../lib/jwt';
import type { TestApp } from './build-test-app';

/** A confirmed customer inserted straight into the test database, with a valid access token. */
export const insertCustomer = async (t: TestApp, email: string): Promise<{ id: number; token: string }> => {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id) VALUES (1, $1, 'x', 1) RETURNING id`,
    [email],
  );
  if (!row) throw new Error(`could not insert ${email}`);
  const token = await createAccessTokens(t.config.jwtSecret ?? '', t.clock).sign({ userId: row.id, role: ROLE.customer });
  return { id: row.id, token };
};
