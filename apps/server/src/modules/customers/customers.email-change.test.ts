import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_MESSAGE,
  CUSTOMER_MESSAGE,
  CUSTOMER_STATUS,
  consentHistorySchema,
  customerSchema,
  EMAIL_CHANGE_TTL_SECONDS,
} from '@app/domain';
import { hashToken } from '../../lib/tokens';
import { buildTestApp, createTestClock, type TestApp } from '../../testing/build-test-app';
import { linkFromOutbox, sessionIdOf, sessionOf, signedUpCustomer, signIn, TEST_PASSWORD, type TestSession } from '../../testing/sessions';

/**
 * Issue 27 (ADR 0097): the email changes only through a one-time link mailed to the new address, used with
 * a session of the same account while the session that asked is live; the old address is told; tokens
 * never reach the log. And the consent history the privacy modal shows.
 */
let t: TestApp;
const clock = createTestClock();
const logLines: string[] = [];

const CHANGE_LINK = /\/profile\?changeEmail=([\w-]+)/;
const askChange = (s: TestSession, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/en/customers/customer/emails/change', headers: s.auth, payload });
const confirmChange = (s: TestSession, token: string | undefined) =>
  t.app.inject({ method: 'PUT', url: '/api/en/customers/customer/emails/change/confirm', headers: s.auth, payload: { token } });
const profile = (s: TestSession) => t.app.inject({ method: 'GET', url: '/api/en/customers/customer', headers: s.auth });
const emailOf = async (s: TestSession) => customerSchema.parse((await profile(s)).json()).email;
const outbox = async (to: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` })).json<{
    messages: { subject: string; text: string }[];
  }>().messages;
let seq = 0;
const freshAddress = (tag: string) => `${tag}-new-${Date.now().toString(36)}-${++seq}@example.com`;

beforeAll(async () => {
  t = await buildTestApp({ clock, env: { LOG_LEVEL: 'info' }, logStream: { write: (line) => void logLines.push(line) } });
});
afterAll(async () => {
  await t.close();
});

describe('POST …/customer/emails/change, then the link from the new address (ADR 0097)', () => {
  it('keeps the old email until the link is used; the old address is told twice; the new one then signs in', async () => {
    const c = await signedUpCustomer(t, { tag: 'chg' });
    const next = freshAddress('chg');
    const asked = await askChange(c.session, { email: `  ${next.toUpperCase()} `, password: TEST_PASSWORD });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ message: CUSTOMER_MESSAGE.emailChangeSent(next), email: next });
    // Until the link is used, nothing changes.
    expect(await emailOf(c.session)).toBe(c.email);
    const token = await linkFromOutbox(t, next, CHANGE_LINK);
    expect(token).toMatch(/^[\w-]{32,}$/);
    // Stored hashed, like every other emailed token.
    const stored = await t.db.query<{ token_hash: string; new_email: string }>(
      "SELECT token_hash, new_email FROM one_time_tokens WHERE user_id = $1 AND purpose = 'email_change'",
      [c.id],
    );
    expect(stored).toEqual([{ token_hash: hashToken(token ?? ''), new_email: next }]);
    const [told] = await outbox(c.email);
    expect(told?.subject).toBe('A change of your email was asked for');
    expect(told?.text).toContain(next);
    expect(told?.text).not.toContain(token);

    const confirmed = await confirmChange(c.session, token);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ email: next, emailConfirmed: true, message: CUSTOMER_MESSAGE.emailChanged(next) });
    expect(await emailOf(c.session)).toBe(next);
    expect((await outbox(c.email))[0]?.subject).toBe('Your email has been changed');

    // The new address signs in; the old one no longer does.
    await signIn(t, next);
    const old = await t.app.inject({
      method: 'POST',
      url: '/api/en/auth/jwt/sign_in',
      payload: { email: c.email, password: TEST_PASSWORD },
    });
    expect(old.statusCode).toBe(400);
    // Replayed: refused, and the email stays.
    const replay = await confirmChange(c.session, token);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ message: CUSTOMER_MESSAGE.emailChangeLinkInvalid });
    // No token of any mail reached the log.
    const log = logLines.join('\n');
    expect(log).toContain('email changed');
    expect(log).not.toContain(token);
    expect(log).not.toContain('changeEmail=');
  });

  it('proves the new mailbox of an account awaiting confirmation (3 becomes 1), and ends the old mailbox’s links', async () => {
    const c = await signedUpCustomer(t, { tag: 'chg-unconf', confirmed: false });
    const confirmLink = await linkFromOutbox(t, c.email, /\/profile\?confirmEmail=([\w-]+)/);
    const next = freshAddress('chg-unconf');
    expect((await askChange(c.session, { email: next, password: TEST_PASSWORD })).statusCode).toBe(202);
    expect((await confirmChange(c.session, await linkFromOutbox(t, next, CHANGE_LINK))).statusCode).toBe(200);
    expect(customerSchema.parse((await profile(c.session)).json()).status.id).toBe(CUSTOMER_STATUS.active.id);
    // The confirmation link mailed to the old address is spent with it.
    const old = await t.app.inject({ method: 'PUT', url: '/api/en/customers/customer/emails/confirm', payload: { token: confirmLink } });
    expect(old.statusCode).toBe(400);
  });

  it('refuses a bad address, the current one, and another account’s, each with a clear message; nothing mailed', async () => {
    const c = await signedUpCustomer(t, { tag: 'chg-bad' });
    const other = await signedUpCustomer(t, { tag: 'chg-other' });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ email: 'not-an-email', password: TEST_PASSWORD }, 422, AUTH_MESSAGE.invalidEmail],
      [{ email: c.email.toUpperCase(), password: TEST_PASSWORD }, 422, CUSTOMER_MESSAGE.emailChangeSame],
      [{ email: other.email, password: TEST_PASSWORD }, 422, CUSTOMER_MESSAGE.emailChangeTaken],
    ];
    for (const [payload, status, message] of cases) {
      const res = await askChange(c.session, payload);
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ message, errors: { email: [message] } });
    }
    expect((await askChange(c.session, {})).statusCode).toBe(422);
    expect((await outbox(other.email)).some((m) => m.subject.includes('change'))).toBe(false);
    expect(await emailOf(c.session)).toBe(c.email);
  });

  it('asks the password of an account that has one: missing or wrong is a 400 naming the field (never 401)', async () => {
    const c = await signedUpCustomer(t, { tag: 'chg-pass' });
    const next = freshAddress('chg-pass');
    const missing = await askChange(c.session, { email: next });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      message: CUSTOMER_MESSAGE.emailChangePasswordMissing,
      errors: { password: [CUSTOMER_MESSAGE.emailChangePasswordMissing] },
    });
    const wrong = await askChange(c.session, { email: next, password: 'not-my-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ errors: { password: [CUSTOMER_MESSAGE.emailChangeWrongPassword] } });
    expect(await outbox(next)).toEqual([]);
    // An account without a password (signs in by link) needs none.
    const linkOnly = await signedUpCustomer(t, { tag: 'chg-nopass', password: null });
    expect((await askChange(linkOnly.session, { email: freshAddress('chg-nopass') })).statusCode).toBe(202);
  });

  it('a forged token, another account’s session and an expired link change nothing; the newest link is the only one', async () => {
    const c = await signedUpCustomer(t, { tag: 'chg-abuse' });
    const stranger = await signedUpCustomer(t, { tag: 'chg-stranger' });
    const first = freshAddress('chg-abuse');
    const second = freshAddress('chg-abuse');
    expect((await askChange(c.session, { email: first, password: TEST_PASSWORD })).statusCode).toBe(202);
    const firstToken = await linkFromOutbox(t, first, CHANGE_LINK);
    expect((await askChange(c.session, { email: second, password: TEST_PASSWORD })).statusCode).toBe(202);
    const token = await linkFromOutbox(t, second, CHANGE_LINK);

    for (const [session, tok] of [
      [c.session, 'forged-token-forged-token-forged-token-00'],
      [c.session, firstToken],
      [stranger.session, token],
    ] as const) {
      const res = await confirmChange(session, tok);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: CUSTOMER_MESSAGE.emailChangeLinkInvalid });
    }
    expect(await emailOf(c.session)).toBe(c.email);
    expect(await emailOf(stranger.session)).toBe(stranger.email);
    // Without a session: 401, nothing spent.
    const anonymous = await t.app.inject({ method: 'PUT', url: '/api/en/customers/customer/emails/change/confirm', payload: { token } });
    expect(anonymous.statusCode).toBe(401);

    // Past its life: refused (the session renewed, as the app does).
    clock.advance(EMAIL_CHANGE_TTL_SECONDS * 1000 + 1000);
    try {
      const renewed = await t.app.inject({
        method: 'PUT',
        url: '/api/en/auth/jwt/refresh',
        headers: { authorization: `Bearer ${c.session.refreshToken}` },
      });
      expect(renewed.statusCode).toBe(200);
      const expired = await confirmChange(sessionOf(renewed.json()), token);
      expect(expired.statusCode).toBe(400);
      expect(await emailOf(sessionOf(renewed.json()))).toBe(c.email);
    } finally {
      clock.set(new Date());
    }
  });

  it('a signed-out session (the one that asked) cancels the change; its link no longer works from any session', async () => {
    const c = await signedUpCustomer(t, { tag: 'chg-revoked' });
    const next = freshAddress('chg-revoked');
    expect((await askChange(c.session, { email: next, password: TEST_PASSWORD })).statusCode).toBe(202);
    const token = await linkFromOutbox(t, next, CHANGE_LINK);
    const phone = await signIn(t, c.email);
    const askedFrom = await sessionIdOf(t, c.session, phone);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/en/customers/customer/sessions/${askedFrom}`, headers: phone.auth })).statusCode,
    ).toBe(200);
    // The revoked session itself: 401.
    expect((await confirmChange(c.session, token)).statusCode).toBe(401);
    // Another, live session of the account: the session that asked is gone, so the link is void.
    const res = await confirmChange(phone, token);
    expect(res.statusCode).toBe(400);
    expect(await emailOf(phone)).toBe(c.email);
  });

  it('a password change cancels a pending change', async () => {
    const c = await signedUpCustomer(t, { tag: 'chg-pw' });
    const next = freshAddress('chg-pw');
    expect((await askChange(c.session, { email: next, password: TEST_PASSWORD })).statusCode).toBe(202);
    const token = await linkFromOutbox(t, next, CHANGE_LINK);
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/password',
      headers: c.session.auth,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'another-pass-2' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await confirmChange(c.session, token)).statusCode).toBe(400);
    expect(await emailOf(c.session)).toBe(c.email);
  });

  it('the address taken by another account between the request and the link: 409, nothing changes', async () => {
    const c = await signedUpCustomer(t, { tag: 'chg-race' });
    const next = freshAddress('chg-race');
    expect((await askChange(c.session, { email: next, password: TEST_PASSWORD })).statusCode).toBe(202);
    const token = await linkFromOutbox(t, next, CHANGE_LINK);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/en/auth/jwt/sign_up',
      remoteAddress: '10.97.0.1',
      payload: { phone: '15551234567', email: next, password: TEST_PASSWORD, firstName: 'Bo', lastName: 'X', isEnabledNightCall: false },
    });
    expect(other.statusCode).toBe(200);
    const res = await confirmChange(c.session, token);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: CUSTOMER_MESSAGE.emailChangeTaken });
    expect(await emailOf(c.session)).toBe(c.email);
  });
});

describe('GET /api/en/customers/customer/consent-history (ADR 0097)', () => {
  const putPrivacy = (s: TestSession, id: number, flags: Record<string, boolean>) =>
    t.app.inject({ method: 'PUT', url: `/api/en/customers/${id}/privacy`, headers: s.auth, payload: flags });
  const history = (s: TestSession) => t.app.inject({ method: 'GET', url: '/api/en/customers/customer/consent-history', headers: s.auth });
  const signUpDefaults = {
    cookies_usages: true,
    personal_data: true,
    technical_data: true,
    location_usages: false,
    information_sharing: false,
    email_subscription: false,
  };

  it('lists each change, newest first, with its date and old → new; only the asker’s own', async () => {
    const c = await signedUpCustomer(t, { tag: 'consent' });
    const stranger = await signedUpCustomer(t, { tag: 'consent-stranger' });
    expect(consentHistorySchema.parse((await history(c.session)).json())).toEqual({ entries: [], total: 0 });
    const first = clock.now();
    expect((await putPrivacy(c.session, c.id, { ...signUpDefaults, location_usages: true })).statusCode).toBe(200);
    clock.advance(60_000);
    expect((await putPrivacy(c.session, c.id, { ...signUpDefaults, location_usages: false, cookies_usages: false })).statusCode).toBe(200);
    const res = await history(c.session);
    expect(res.statusCode).toBe(200);
    const body = consentHistorySchema.parse(res.json());
    expect(body.total).toBe(3);
    expect(body.entries.map(({ consent, previous, granted }) => ({ consent, previous, granted }))).toEqual([
      { consent: 'location_usages', previous: true, granted: false },
      { consent: 'cookies_usages', previous: true, granted: false },
      { consent: 'location_usages', previous: false, granted: true },
    ]);
    expect(body.entries[2]?.date).toBe(first.toISOString());
    expect(Date.parse(body.entries[0]?.date ?? '')).toBe(first.getTime() + 60_000);
    // Another customer sees only their own (none); without a token: 401.
    expect(consentHistorySchema.parse((await history(stranger.session)).json()).total).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: '/api/en/customers/customer/consent-history' })).statusCode).toBe(401);
  });
});
