import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGE } from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

/**
 * ADR 0038, pre-registration takeover: an attacker signs up with the victim's email and a password of
 * his own. Once the victim proves the mailbox (magic link or confirmation mail) from a browser that
 * holds no session of the account, the attacker's password and refresh tokens stop working (ADR 0038).
 */
let t: TestApp;
let seq = 0;
const nextIp = (): string => `10.8.${Math.floor(++seq / 250)}.${seq % 250}`;
const uniqueEmail = (tag: string): string => `${tag}-${Date.now().toString(36)}-${++seq}@example.com`;

interface Tokens {
  accessToken: string;
  refreshToken: string;
}

const signUp = async (email: string, password?: string): Promise<Tokens> => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/en/auth/jwt/sign_up',
    remoteAddress: nextIp(),
    payload: {
      phone: '1555123456',
      email,
      ...(password ? { password } : {}),
      firstName: 'Mallory',
      lastName: '',
      isEnabledNightCall: false,
      ref_id: null,
    },
  });
  expect(res.statusCode).toBe(200);
  return res.json<Tokens>();
};
const mails = async (to: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` });
  return res.json<{ messages: { subject: string; text: string }[] }>().messages;
};
const tokenIn = async (to: string, pattern: RegExp): Promise<string> => {
  for (const mail of await mails(to)) {
    const token = pattern.exec(mail.text)?.[1];
    if (token) return token;
  }
  throw new Error(`no link matching ${pattern} to ${to}`);
};
const signIn = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/en/auth/jwt/sign_in', payload: { email, password }, remoteAddress: nextIp() });
const refresh = (refreshToken: string) =>
  t.app.inject({ method: 'PUT', url: '/api/en/auth/jwt/refresh', headers: { authorization: `Bearer ${refreshToken}` } });
const requestMagicLink = (email: string) =>
  t.app.inject({ method: 'POST', url: '/api/magic_link', payload: { email, target: 'order' }, remoteAddress: nextIp() });
const useMagicLink = (token: string, accessToken?: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/en/auth/magic_link/${token}`,
    remoteAddress: nextIp(),
    ...(accessToken ? { headers: { authorization: `Bearer ${accessToken}` } } : {}),
  });
const confirm = (token: string, accessToken?: string) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/en/customers/customer/emails/confirm',
    payload: { token },
    ...(accessToken ? { headers: { authorization: `Bearer ${accessToken}` } } : {}),
  });
const CONFIRM = /\/profile\?confirmEmail=([\w-]+)/;
const MAGIC = /\?magicLink=([\w-]+)/;
const RESET = /\/reset-password\?token=([\w-]+)/;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('pre-registration takeover', () => {
  it("the victim's magic link (the wizard's 'already registered' path) ends the attacker's password and sessions", async () => {
    const victim = uniqueEmail('victim');
    const attacker = await signUp(victim, 'attacker-pass-1');
    expect((await requestMagicLink(victim)).statusCode).toBe(200);
    const victimSession = await useMagicLink(await tokenIn(victim, MAGIC));
    expect(victimSession.statusCode).toBe(200);

    expect((await signIn(victim, 'attacker-pass-1')).json()).toEqual({ message: AUTH_MESSAGE.wrongCredentials });
    expect((await refresh(attacker.refreshToken)).statusCode).toBe(401);
    // The victim's own new session works, and the victim is told and offered a way to set a password.
    expect((await refresh(victimSession.json<Tokens>().refreshToken)).statusCode).toBe(200);
    expect(victimSession.json<{ message?: string }>().message).toBe(AUTH_MESSAGE.unprovenPasswordRemoved);
    const notice = (await mails(victim)).find((m) => m.text.includes(AUTH_MESSAGE.unprovenPasswordRemoved));
    expect(notice?.text).toMatch(RESET);
  });

  it("the victim's click on the confirmation mail in another browser ends the attacker's password and sessions", async () => {
    const victim = uniqueEmail('victim');
    const attacker = await signUp(victim, 'attacker-pass-2');
    const res = await confirm(await tokenIn(victim, CONFIRM));
    expect(res.statusCode).toBe(200);
    expect((await signIn(victim, 'attacker-pass-2')).statusCode).toBe(400);
    expect((await refresh(attacker.refreshToken)).statusCode).toBe(401);
    // Told how to set a password: the mail carries the reset flow's link, and it works.
    const resetToken = await tokenIn(victim, RESET);
    const reset = await t.app.inject({
      method: 'PUT',
      url: '/api/en/auth/password/reset',
      payload: { token: resetToken, password: 'victim-pass-1' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await signIn(victim, 'victim-pass-1')).statusCode).toBe(200);
  });

  it('an attacker who signed up without a password loses his sign-up session too', async () => {
    const victim = uniqueEmail('victim');
    const attacker = await signUp(victim);
    expect((await useMagicLink(await tokenIn(victim, MAGIC))).statusCode).toBe(200);
    expect((await refresh(attacker.refreshToken)).statusCode).toBe(401);
  });
});

describe('the ordinary flows keep working', () => {
  it('a customer who signs up with a password and confirms in the same browser keeps the password and the session', async () => {
    const email = uniqueEmail('same');
    const session = await signUp(email, 'own-pass-1');
    expect((await confirm(await tokenIn(email, CONFIRM), session.accessToken)).statusCode).toBe(200);
    expect((await signIn(email, 'own-pass-1')).statusCode).toBe(200);
    expect((await refresh(session.refreshToken)).statusCode).toBe(200);
    expect((await mails(email)).some((m) => m.text.includes(AUTH_MESSAGE.unprovenPasswordRemoved))).toBe(false);
  });

  it('a magic link opened in the sign-up browser keeps the chosen password', async () => {
    const email = uniqueEmail('same-ml');
    const session = await signUp(email, 'own-pass-2');
    await requestMagicLink(email);
    const res = await useMagicLink(await tokenIn(email, MAGIC), session.accessToken);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ message?: string }>().message).toBeUndefined();
    expect((await signIn(email, 'own-pass-2')).statusCode).toBe(200);
  });

  it('a checkout customer without a password signs in by magic link elsewhere, then sets a password', async () => {
    const email = uniqueEmail('nopass');
    await signUp(email);
    const res = await useMagicLink(await tokenIn(email, MAGIC));
    expect(res.statusCode).toBe(200);
    // Nothing of his was removed: no notice.
    expect(res.json<{ message?: string }>().message).toBeUndefined();
    expect((await t.app.inject({ method: 'POST', url: '/forgotpassword', payload: { mail: email }, remoteAddress: nextIp() })).body).toBe(
      '0',
    );
    const reset = await t.app.inject({
      method: 'PUT',
      url: '/api/en/auth/password/reset',
      payload: { token: await tokenIn(email, RESET), password: 'chosen-later-1' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await signIn(email, 'chosen-later-1')).statusCode).toBe(200);
  });

  it('once the mailbox is proven, a later magic link elsewhere signs out nobody', async () => {
    const email = uniqueEmail('later');
    const session = await signUp(email, 'own-pass-3');
    await confirm(await tokenIn(email, CONFIRM), session.accessToken);
    await requestMagicLink(email);
    expect((await useMagicLink(await tokenIn(email, MAGIC))).statusCode).toBe(200);
    expect((await signIn(email, 'own-pass-3')).statusCode).toBe(200);
    expect((await refresh(session.refreshToken)).statusCode).toBe(200);
  });
});

describe('password reset is one transaction', () => {
  it('of two reset links used at once, exactly one sets the password, and it is the one that works', async () => {
    const email = uniqueEmail('reset-race');
    const session = await signUp(email, 'first-pass-1');
    await confirm(await tokenIn(email, CONFIRM), session.accessToken);
    const forgot = () => t.app.inject({ method: 'POST', url: '/forgotpassword', payload: { mail: email }, remoteAddress: nextIp() });
    await forgot();
    await forgot();
    const tokens: string[] = [];
    for (const mail of await mails(email)) {
      const token = RESET.exec(mail.text)?.[1];
      if (token) tokens.push(token);
    }
    expect(tokens).toHaveLength(2);
    const passwords = ['race-pass-a1', 'race-pass-b2'];
    const results = await Promise.all(
      tokens.map((token, i) =>
        t.app.inject({ method: 'PUT', url: '/api/en/auth/password/reset', payload: { token, password: passwords[i] } }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 400]);
    const winner = passwords[results.findIndex((r) => r.statusCode === 200)] ?? '';
    const loser = passwords.find((p) => p !== winner) ?? '';
    expect((await signIn(email, winner)).statusCode).toBe(200);
    expect((await signIn(email, loser)).statusCode).toBe(400);
    expect((await refresh(session.refreshToken)).statusCode).toBe(401);
  });
});
