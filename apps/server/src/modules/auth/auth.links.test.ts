import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGE, CUSTOMER_STATUS, MAGIC_LINK_TTL_SECONDS, PASSWORD_RESET_TTL_SECONDS } from '@app/domain';
import { hashToken } from '../../lib/tokens';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

let t: TestApp;
let seq = 0;
const nextIp = (): string => `10.3.${Math.floor(++seq / 250)}.${seq % 250}`;
const uniqueEmail = (tag: string): string => `${tag}-${Date.now().toString(36)}-${++seq}@example.com`;

interface Tokens {
  accessToken: string;
  refreshToken: string;
}

const signUp = async (email = uniqueEmail('links'), password = 'secret-pass-1'): Promise<Tokens & { email: string }> => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/en/auth/jwt/sign_up',
    remoteAddress: nextIp(),
    payload: {
      phone: '1555123456',
      email,
      password,
      firstName: 'Grace',
      lastName: 'Hopper',
      isEnabledNightCall: false,
      ref_id: null,
      hashDevice: 'd',
    },
  });
  expect(res.statusCode).toBe(200);
  return { ...res.json<Tokens>(), email };
};
const latestMail = async (to: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` });
  const [mail] = res.json<{ messages: { subject: string; text: string; html: string }[] }>().messages;
  if (!mail) throw new Error(`no mail to ${to}`);
  return mail;
};
const tokenIn = (text: string, pattern: RegExp): string => {
  const token = pattern.exec(text)?.[1];
  if (!token) throw new Error(`no link matching ${pattern} in:\n${text}`);
  return token;
};
const statusOf = async (email: string) => {
  const [row] = await t.db.query<{ status_id: number; confirmed: boolean }>(
    'SELECT status_id, email_confirmed_at IS NOT NULL AS confirmed FROM users WHERE lower(email) = lower($1)',
    [email],
  );
  return row;
};
const requestMagicLink = (payload: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/magic_link', payload, remoteAddress: nextIp() });
const useMagicLink = (token: string) => t.app.inject({ method: 'GET', url: `/api/en/auth/magic_link/${token}`, remoteAddress: nextIp() });
const forgot = (payload: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/forgotpassword', payload, remoteAddress: nextIp() });
const reset = (payload: Record<string, string>) => t.app.inject({ method: 'PUT', url: '/api/en/auth/password/reset', payload });
const signIn = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/en/auth/jwt/sign_in', payload: { email, password, hashDevice: 'd' }, remoteAddress: nextIp() });

/** A multipart/form-data body with text fields only. */
const multipart = (fields: Record<string, string>) => {
  const boundary = `----test${++seq}`;
  const payload =
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') + `--${boundary}--\r\n`;
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
};

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/checkmail', () => {
  it("answers 'fail' for a registered email (any case) and 'success' for a free one", async () => {
    const { email } = await signUp();
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/checkmail',
      payload: { email: email.toUpperCase() },
      remoteAddress: nextIp(),
    });
    expect(taken.json()).toEqual({ status: 'fail' });
    const free = await t.app.inject({
      method: 'POST',
      url: '/api/checkmail',
      payload: { email: uniqueEmail('free') },
      remoteAddress: nextIp(),
    });
    expect(free.json()).toEqual({ status: 'success' });
  });

  it('accepts a urlencoded form', async () => {
    const { email } = await signUp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/checkmail',
      payload: `email=${encodeURIComponent(email)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress: nextIp(),
    });
    expect(res.json()).toEqual({ status: 'fail' });
  });

  it('answers 422 for an invalid email', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/checkmail', payload: { email: 'nope' }, remoteAddress: nextIp() });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email).toEqual([AUTH_MESSAGE.invalidEmail]);
  });
});

describe('magic link', () => {
  it('emails a /dashboard link by default that signs in once and confirms the email (ADR 0010)', async () => {
    const { email } = await signUp();
    const res = await requestMagicLink({ email });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: AUTH_MESSAGE.emailOnItsWay });
    const mail = await latestMail(email);
    expect(mail.text).toContain('expires in 12 hours');
    const token = tokenIn(mail.text, /http:\/\/localhost:3000\/dashboard\?magicLink=([\w-]+)/);
    expect((await statusOf(email))?.status_id).toBe(CUSTOMER_STATUS.awaitingConfirmation.id);

    const first = await useMagicLink(token);
    expect(first.statusCode).toBe(200);
    // Signed up with a password, proven from a browser without the sign-up session: the password is gone (ADR 0038).
    expect(first.json()).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      message: AUTH_MESSAGE.unprovenPasswordRemoved,
    });
    expect(await statusOf(email)).toEqual({ status_id: CUSTOMER_STATUS.active.id, confirmed: true });

    const second = await useMagicLink(token);
    expect(second.statusCode).toBe(404);
  });

  it("points the link at /order when target is 'order', from a multipart form", async () => {
    const { email } = await signUp();
    const form = multipart({ email, target: 'order' });
    const res = await t.app.inject({ method: 'POST', url: '/api/magic_link', ...form, remoteAddress: nextIp() });
    expect(res.statusCode).toBe(200);
    tokenIn((await latestMail(email)).text, /\/order\?magicLink=([\w-]+)/);
  });

  it('stores the token hashed', async () => {
    const { email } = await signUp();
    await requestMagicLink({ email });
    const token = tokenIn((await latestMail(email)).text, /magicLink=([\w-]+)/);
    expect(await t.db.query('SELECT 1 FROM one_time_tokens WHERE token_hash = $1', [token])).toHaveLength(0);
    expect(
      await t.db.query("SELECT 1 FROM one_time_tokens WHERE token_hash = $1 AND purpose = 'magic_link'", [hashToken(token)]),
    ).toHaveLength(1);
  });

  it('answers 404 for a link older than 12 hours', async () => {
    const { email } = await signUp();
    await requestMagicLink({ email });
    const token = tokenIn((await latestMail(email)).text, /magicLink=([\w-]+)/);
    t.clock.advance(MAGIC_LINK_TTL_SECONDS * 1000 + 1000);
    try {
      expect((await useMagicLink(token)).statusCode).toBe(404);
    } finally {
      t.clock.advance(-(MAGIC_LINK_TTL_SECONDS * 1000 + 1000));
    }
  });

  it('works up to the last second of its 12 hours', async () => {
    const { email } = await signUp();
    await requestMagicLink({ email });
    const token = tokenIn((await latestMail(email)).text, /magicLink=([\w-]+)/);
    t.clock.advance(MAGIC_LINK_TTL_SECONDS * 1000 - 1000);
    try {
      expect((await useMagicLink(token)).statusCode).toBe(200);
    } finally {
      t.clock.advance(-(MAGIC_LINK_TTL_SECONDS * 1000 - 1000));
    }
  });

  it('answers 404 for an unknown token', async () => {
    expect((await useMagicLink('unknown-token-value')).statusCode).toBe(404);
  });

  it('lets only one of two simultaneous uses of a link through', async () => {
    const { email } = await signUp();
    await requestMagicLink({ email });
    const token = tokenIn((await latestMail(email)).text, /magicLink=([\w-]+)/);
    const results = await Promise.all([useMagicLink(token), useMagicLink(token)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 404]);
  });

  it('answers 404 "Email doesn\'t exist on site" for an unknown email', async () => {
    const res = await requestMagicLink({ email: uniqueEmail('unknown') });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: AUTH_MESSAGE.emailNotOnSite });
  });

  it('answers 422 for an invalid email', async () => {
    const res = await requestMagicLink({ email: 'nope' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email).toEqual([AUTH_MESSAGE.emailMandatory]);
  });
});

describe('forgot password and reset', () => {
  it('answers 0, mails a one-time link, sets the new password and ends every session', async () => {
    const { email, refreshToken } = await signUp();
    const res = await forgot({ mail: email });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.body).toBe('0');

    const mail = await latestMail(email);
    expect(mail.text).toContain('expires in 12 hours');
    const token = tokenIn(mail.text, /http:\/\/localhost:3000\/reset-password\?token=([\w-]+)/);

    const done = await reset({ token, password: 'brand-new-pass' });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ message: AUTH_MESSAGE.passwordChanged });

    expect((await signIn(email, 'secret-pass-1')).statusCode).toBe(400);
    expect((await signIn(email, 'brand-new-pass')).statusCode).toBe(200);
    const oldSession = await t.app.inject({
      method: 'PUT',
      url: '/api/en/auth/jwt/refresh',
      headers: { authorization: `Bearer ${refreshToken}` },
    });
    expect(oldSession.statusCode).toBe(401);

    const again = await reset({ token, password: 'another-pass-1' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: AUTH_MESSAGE.resetLinkInvalid });
  });

  it('accepts the urlencoded form field mail', async () => {
    const { email } = await signUp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/forgotpassword',
      payload: `mail=${encodeURIComponent(email)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress: nextIp(),
    });
    expect(res.body).toBe('0');
  });

  it('answers 1 for an unknown email and sends nothing', async () => {
    const email = uniqueEmail('unknown');
    const res = await forgot({ mail: email });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('1');
    const outbox = await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(email)}` });
    expect(outbox.json().messages).toEqual([]);
  });

  it('answers 422 for an invalid email', async () => {
    const res = await forgot({ mail: 'nope' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.mail).toEqual([AUTH_MESSAGE.emailMandatory]);
  });

  it('refuses a reset link older than 12 hours', async () => {
    const { email } = await signUp();
    await forgot({ mail: email });
    const token = tokenIn((await latestMail(email)).text, /reset-password\?token=([\w-]+)/);
    t.clock.advance(PASSWORD_RESET_TTL_SECONDS * 1000 + 1000);
    try {
      const res = await reset({ token, password: 'brand-new-pass' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: AUTH_MESSAGE.resetLinkInvalid });
    } finally {
      t.clock.advance(-(PASSWORD_RESET_TTL_SECONDS * 1000 + 1000));
    }
    expect((await signIn(email, 'secret-pass-1')).statusCode).toBe(200);
  });

  it('refuses an unknown token and a too short password', async () => {
    expect((await reset({ token: 'unknown', password: 'brand-new-pass' })).statusCode).toBe(400);
    const short = await reset({ token: 'unknown', password: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.password).toEqual([AUTH_MESSAGE.passwordTooShort]);
  });

  it('a magic link token does not work as a reset token', async () => {
    const { email } = await signUp();
    await requestMagicLink({ email });
    const token = tokenIn((await latestMail(email)).text, /magicLink=([\w-]+)/);
    expect((await reset({ token, password: 'brand-new-pass' })).statusCode).toBe(400);
  });

  it('using one reset link voids the other outstanding ones', async () => {
    const { email } = await signUp();
    await forgot({ mail: email });
    const older = tokenIn((await latestMail(email)).text, /reset-password\?token=([\w-]+)/);
    await forgot({ mail: email });
    const newer = tokenIn((await latestMail(email)).text, /reset-password\?token=([\w-]+)/);
    expect(newer).not.toBe(older);
    expect((await reset({ token: newer, password: 'brand-new-pass' })).statusCode).toBe(200);
    expect((await reset({ token: older, password: 'other-new-pass' })).statusCode).toBe(400);
  });
});
