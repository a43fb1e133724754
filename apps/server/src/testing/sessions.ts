import { randomBytes } from 'node:crypto';
import { sessionListSchema } from '@app/domain';
import { hashPassword } from '../lib/password';
import type { TestApp } from './build-test-app';

/**
 * Real sessions for the tests of ended sessions (ADR 0053, 0069): accounts signed up and signed in through
 * the HTTP routes, so each access token names its refresh-token family (`sid`) as in production.
 */
export interface TestSession {
  accessToken: string;
  refreshToken: string;
  auth: { authorization: string };
}

export const TEST_PASSWORD = 'secret-pass-1';
const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

// Each call from its own address: the sign-in limit (10 a minute per IP) never trips.
let ipSeq = 0;
const nextIp = (): string => {
  ipSeq += 1;
  return `10.69.${Math.floor(ipSeq / 250) % 250}.${ipSeq % 250}`;
};

export const sessionOf = (tokens: { accessToken: string; refreshToken: string }): TestSession => ({
  accessToken: tokens.accessToken,
  refreshToken: tokens.refreshToken,
  auth: { authorization: `Bearer ${tokens.accessToken}` },
});

/** A new session (a device) of the account, through `POST /api/en/auth/jwt/sign_in`. */
export const signIn = async (t: Pick<TestApp, 'app'>, email: string, password = TEST_PASSWORD): Promise<TestSession> => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/en/auth/jwt/sign_in',
    remoteAddress: nextIp(),
    headers: { 'user-agent': CHROME_WINDOWS },
    payload: { email, password, hashDevice: 'd' },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in of ${email} answered ${res.statusCode}: ${res.body}`);
  return sessionOf(res.json());
};

/** The newest mail the outbox holds for `to` whose text matches `link`: the first group of the match. */
export const linkFromOutbox = async (t: Pick<TestApp, 'app'>, to: string, link: RegExp): Promise<string | undefined> => {
  const res = await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` });
  const messages = res.json<{ messages: { text: string }[] }>().messages;
  // The outbox answers the newest first.
  for (const message of messages) {
    const found = link.exec(message.text)?.[1];
    if (found) return found;
  }
  return undefined;
};

/**
 * A customer signed up through the API with a password (or without one: `password: null`), the email
 * confirmed from the sign-up's session. `session` is the sign-up's session.
 */
export const signedUpCustomer = async (
  t: Pick<TestApp, 'app'>,
  { tag, password = TEST_PASSWORD, confirmed = true }: { tag: string; password?: string | null; confirmed?: boolean },
): Promise<{ id: number; email: string; session: TestSession }> => {
  const email = `${tag}-${randomBytes(5).toString('hex')}@example.com`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/en/auth/jwt/sign_up',
    remoteAddress: nextIp(),
    headers: { 'user-agent': CHROME_WINDOWS },
    payload: {
      phone: '15551234567',
      email,
      ...(password === null ? {} : { password }),
      firstName: 'Ada',
      lastName: 'Lovelace',
      isEnabledNightCall: false,
      ref_id: null,
      hashDevice: 'd',
    },
  });
  if (res.statusCode !== 200) throw new Error(`sign-up answered ${res.statusCode}: ${res.body}`);
  const session = sessionOf(res.json());
  const me = await t.app.inject({ method: 'GET', url: '/api/en/customers/customer', headers: session.auth });
  const { id } = me.json<{ id: number }>();
  if (confirmed) {
    const token = await linkFromOutbox(t, email, /\/profile\?confirmEmail=([\w-]+)/);
    const confirm = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/emails/confirm',
      headers: session.auth,
      payload: { token },
    });
    if (confirm.statusCode !== 200) throw new Error(`confirmation answered ${confirm.statusCode}: ${confirm.body}`);
  }
  return { id, email, session };
};

/** A writer or support member with a password, inserted, then signed in through the API. */
export const signedInStaff = async (
  t: Pick<TestApp, 'app' | 'db'>,
  { role, tag }: { role: number; tag: string },
): Promise<{ id: number; email: string; session: TestSession }> => {
  const email = `${tag}-${randomBytes(5).toString('hex')}@example.com`;
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, first_name, status_id) VALUES ($1, $2, $3, 'Staff', 1) RETURNING id`,
    [role, email, await hashPassword(TEST_PASSWORD)],
  );
  if (!row) throw new Error(`could not insert ${email}`);
  return { id: row.id, email, session: await signIn(t, email) };
};

/** The id of a session (refresh-token family) as the devices list shows it, asked with another session of the account. */
export const sessionIdOf = async (t: Pick<TestApp, 'app'>, target: TestSession, askWith: TestSession): Promise<string> => {
  const list = async (s: TestSession) =>
    sessionListSchema.parse((await t.app.inject({ method: 'GET', url: '/api/en/customers/customer/sessions', headers: s.auth })).json())
      .sessions;
  const id = (await list(target)).find((s) => s.current)?.id;
  if (!id || !(await list(askWith)).some((s) => s.id === id)) throw new Error('no such session');
  return id;
};
