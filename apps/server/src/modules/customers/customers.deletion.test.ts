import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DELETION_ATTEMPTS, CUSTOMER_MESSAGE, CUSTOMER_STATUS } from '@app/domain';
import { hashToken } from '../../lib/tokens';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { linkFromOutbox, signedUpCustomer, signIn, TEST_PASSWORD, type TestSession } from '../../testing/sessions';

/**
 * ADR 0070: deleting the account asks for a proof. An account with a password sends it (missing or wrong:
 * 400 naming the field, never 401); one without is mailed a link that deletes once, only with a session
 * of the same account. Attempts are limited per account.
 */
let t: TestApp;

const DELETION_LINK = /\/profile\?deleteAccount=([\w-]+)/;
const deactivate = (s: TestSession, payload?: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/en/customers/customer/deactivate',
    headers: s.auth,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
const confirmDeletion = (s: TestSession, token: string | undefined) =>
  t.app.inject({ method: 'PUT', url: '/api/en/customers/customer/deactivate/confirm', headers: s.auth, payload: { token } });
const profile = (s: TestSession) => t.app.inject({ method: 'GET', url: '/api/en/customers/customer', headers: s.auth });
const statusOf = async (id: number) =>
  (await t.db.query<{ status_id: number }>('SELECT status_id FROM users WHERE id = $1', [id]))[0]?.status_id;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('PUT /api/en/customers/customer/deactivate with a password', () => {
  it('tells the profile that the account has a password (not a sign-in by link only)', async () => {
    const c = await signedUpCustomer(t, { tag: 'del-has' });
    expect((await profile(c.session)).json()).toMatchObject({ signInByLinkOnly: false });
  });

  it('refuses a deletion without the password: 400 naming the field, nothing changes', async () => {
    const c = await signedUpCustomer(t, { tag: 'del-none' });
    for (const res of [await deactivate(c.session), await deactivate(c.session, {}), await deactivate(c.session, { password: '' })]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: CUSTOMER_MESSAGE.deletionPasswordMissing,
        errors: { password: [CUSTOMER_MESSAGE.deletionPasswordMissing] },
      });
    }
    expect((await profile(c.session)).statusCode).toBe(200);
    expect(await statusOf(c.id)).toBe(CUSTOMER_STATUS.active.id);
  });

  it('refuses a wrong password with 400 (never 401) and a clear message; the session and the account stay', async () => {
    const c = await signedUpCustomer(t, { tag: 'del-wrong' });
    const res = await deactivate(c.session, { password: 'not-my-password' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: CUSTOMER_MESSAGE.deletionWrongPassword,
      errors: { password: [CUSTOMER_MESSAGE.deletionWrongPassword] },
    });
    expect((await profile(c.session)).statusCode).toBe(200);
    expect(await statusOf(c.id)).toBe(CUSTOMER_STATUS.active.id);
    await signIn(t, c.email);
  });

  it('deletes with the right password', async () => {
    const c = await signedUpCustomer(t, { tag: 'del-right' });
    const res = await deactivate(c.session, { password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: CUSTOMER_MESSAGE.accountDeleted });
    expect(await statusOf(c.id)).toBe(CUSTOMER_STATUS.deactivated.id);
    expect((await profile(c.session)).statusCode).toBe(401);
  });

  it(`limits the attempts to ${ACCOUNT_DELETION_ATTEMPTS.max} per account: past it 429 with Retry-After, even with the right password`, async () => {
    const c = await signedUpCustomer(t, { tag: 'del-limit' });
    const other = await signedUpCustomer(t, { tag: 'del-limit-other' });
    for (let i = 0; i < ACCOUNT_DELETION_ATTEMPTS.max; i += 1) {
      expect((await deactivate(c.session, { password: `guess-${i}` })).statusCode).toBe(400);
    }
    const limited = await deactivate(c.session, { password: TEST_PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: CUSTOMER_MESSAGE.deletionTooManyAttempts });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await statusOf(c.id)).toBe(CUSTOMER_STATUS.active.id);
    // Another account's attempts are its own.
    expect((await deactivate(other.session, { password: 'wrong-one' })).statusCode).toBe(400);
  });
});

describe('ADR 0070: an account without a password confirms its deletion through a mailed link', () => {
  it('mails a link instead of deleting (202); the link deletes once, and only with a session of the account', async () => {
    const c = await signedUpCustomer(t, { tag: 'del-link', password: null });
    const intruder = await signedUpCustomer(t, { tag: 'del-intruder' });
    expect((await profile(c.session)).json()).toMatchObject({ signInByLinkOnly: true });

    const asked = await deactivate(c.session, {});
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ message: CUSTOMER_MESSAGE.deletionLinkSent, confirmByEmail: true });
    expect(await statusOf(c.id)).toBe(CUSTOMER_STATUS.active.id);
    const token = await linkFromOutbox(t, c.email, DELETION_LINK);
    expect(token).toBeTruthy();
    // Stored hashed, like every other emailed token.
    expect(await t.db.query(`SELECT token_hash FROM one_time_tokens WHERE user_id = $1 AND purpose = 'account_delete'`, [c.id])).toEqual([
      { token_hash: hashToken(token ?? '') },
    ]);

    // Another customer's session cannot use it: refused, neither account touched, the link still good.
    const stolen = await confirmDeletion(intruder.session, token);
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json()).toEqual({ message: CUSTOMER_MESSAGE.deletionLinkInvalid });
    expect(await statusOf(c.id)).toBe(CUSTOMER_STATUS.active.id);
    expect(await statusOf(intruder.id)).toBe(CUSTOMER_STATUS.active.id);

    const used = await confirmDeletion(c.session, token);
    expect(used.statusCode).toBe(200);
    expect(used.json()).toEqual({ message: CUSTOMER_MESSAGE.accountDeleted });
    expect(await statusOf(c.id)).toBe(CUSTOMER_STATUS.deactivated.id);
    expect((await profile(c.session)).statusCode).toBe(401);

    // A replay does nothing: the session is gone, and so is the token.
    expect((await confirmDeletion(c.session, token)).statusCode).toBe(401);
    expect(await t.db.query(`SELECT 1 FROM one_time_tokens WHERE user_id = $1`, [c.id])).toEqual([]);
    expect((await confirmDeletion(intruder.session, token)).statusCode).toBe(400);
    expect(await statusOf(intruder.id)).toBe(CUSTOMER_STATUS.active.id);
  });

  it('a new link spends the older one, and a link is good for an hour only', async () => {
    const c = await signedUpCustomer(t, { tag: 'del-relink', password: null });
    expect((await deactivate(c.session, {})).statusCode).toBe(202);
    const first = await linkFromOutbox(t, c.email, DELETION_LINK);
    expect((await deactivate(c.session)).statusCode).toBe(202);
    const second = await linkFromOutbox(t, c.email, DELETION_LINK);
    expect(second).not.toBe(first);
    expect((await confirmDeletion(c.session, first)).statusCode).toBe(400);
    t.clock.advance(61 * 60_000);
    try {
      // The access token is 15 minutes old by then: a fresh session, as the customer would have.
      const res = await confirmDeletion(await freshSession(c.session), second);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: CUSTOMER_MESSAGE.deletionLinkInvalid });
    } finally {
      t.clock.advance(-61 * 60_000);
    }
    expect(await statusOf(c.id)).toBe(CUSTOMER_STATUS.active.id);
  });

  it('still needs a confirmed email (SPEC §6): no link is mailed before', async () => {
    const c = await signedUpCustomer(t, { tag: 'del-unconfirmed', password: null, confirmed: false });
    const res = await deactivate(c.session, {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: CUSTOMER_MESSAGE.emailNotConfirmed });
    expect(await linkFromOutbox(t, c.email, DELETION_LINK)).toBeUndefined();
  });
});

/** The session refreshed (a new access token of the same session, as the web app does on a 401). */
const freshSession = async (s: TestSession): Promise<TestSession> => {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/en/auth/jwt/refresh',
    headers: { authorization: `Bearer ${s.refreshToken}` },
  });
  expect(res.statusCode).toBe(200);
  const tokens = res.json<{ accessToken: string; refreshToken: string }>();
  return { ...tokens, auth: { authorization: `Bearer ${tokens.accessToken}` } };
};
