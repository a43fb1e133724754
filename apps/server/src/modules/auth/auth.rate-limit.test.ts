import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { AUTH_RATE_LIMIT_PER_MINUTE } from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

let t: TestApp;
let seq = 0;
// Unique addresses and emails per test: every bucket starts empty.
const nextIp = (): string => `10.4.${Math.floor(++seq / 250)}.${seq % 250}`;
const uniqueEmail = (tag: string): string => `${tag}-${Date.now().toString(36)}-${++seq}@example.com`;

type Inject = (ip: string, email: string) => Promise<LightMyRequestResponse>;

/** CONTRACT "Errors and access": each endpoint its own bucket. */
const endpoints: Record<string, Inject> = {
  'sign-in': (ip, email) =>
    t.app.inject({
      method: 'POST',
      url: '/api/en/auth/jwt/sign_in',
      remoteAddress: ip,
      payload: { email, password: 'wrong-pass-1', hashDevice: 'd' },
    }),
  'sign-up': (ip, email) =>
    t.app.inject({
      method: 'POST',
      url: '/api/en/auth/jwt/sign_up',
      remoteAddress: ip,
      payload: {
        phone: '1555123456',
        email,
        password: 'secret-pass-1',
        firstName: 'Rate',
        lastName: 'Limit',
        isEnabledNightCall: false,
        ref_id: null,
        hashDevice: 'd',
      },
    }),
  checkmail: (ip, email) => t.app.inject({ method: 'POST', url: '/api/checkmail', remoteAddress: ip, payload: { email } }),
  'magic link request': (ip, email) => t.app.inject({ method: 'POST', url: '/api/magic_link', remoteAddress: ip, payload: { email } }),
  'magic link sign-in': (ip) => t.app.inject({ method: 'GET', url: `/api/en/auth/magic_link/unknown-${++seq}`, remoteAddress: ip }),
  'forgot password': (ip, email) => t.app.inject({ method: 'POST', url: '/forgotpassword', remoteAddress: ip, payload: { mail: email } }),
};

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('auth rate limits: 10 a minute per IP', () => {
  for (const [name, call] of Object.entries(endpoints)) {
    it(`${name}: the 11th request from one address answers 429 with Retry-After`, async () => {
      const ip = nextIp();
      for (let i = 0; i < AUTH_RATE_LIMIT_PER_MINUTE; i++) {
        const res = await call(ip, uniqueEmail(name.replace(/\W/g, '')));
        expect(res.statusCode, `request ${i + 1}`).not.toBe(429);
      }
      const blocked = await call(ip, uniqueEmail(name.replace(/\W/g, '')));
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.json()).toEqual({ message: expect.any(String) });
    });
  }

  it('keeps each endpoint in its own bucket', async () => {
    const ip = nextIp();
    for (let i = 0; i <= AUTH_RATE_LIMIT_PER_MINUTE; i++) await endpoints.checkmail?.(ip, uniqueEmail('bucket'));
    expect((await endpoints.checkmail?.(ip, uniqueEmail('bucket')))?.statusCode).toBe(429);
    expect((await endpoints['forgot password']?.(ip, uniqueEmail('bucket')))?.statusCode).not.toBe(429);
    expect((await endpoints['sign-in']?.(ip, uniqueEmail('bucket')))?.statusCode).not.toBe(429);
  });
});

describe('auth rate limits: 10 a minute per email', () => {
  it('sign-in: the 11th attempt on one email from changing addresses answers 429', async () => {
    const email = uniqueEmail('target');
    for (let i = 0; i < AUTH_RATE_LIMIT_PER_MINUTE; i++) {
      expect((await endpoints['sign-in']?.(nextIp(), email))?.statusCode).toBe(400);
    }
    const blocked = await endpoints['sign-in']?.(nextIp(), email.toUpperCase());
    expect(blocked?.statusCode).toBe(429);
    expect(blocked?.headers['retry-after']).toBeDefined();
  });

  it('forgot password counts the form field mail as the email', async () => {
    const email = uniqueEmail('forgot');
    for (let i = 0; i < AUTH_RATE_LIMIT_PER_MINUTE; i++) await endpoints['forgot password']?.(nextIp(), email);
    expect((await endpoints['forgot password']?.(nextIp(), email))?.statusCode).toBe(429);
  });
});

describe('confirmation resend rate limit', () => {
  it('the 11th resend in a minute answers 429', async () => {
    const email = uniqueEmail('resend');
    const signUp = await endpoints['sign-up']?.(nextIp(), email);
    const accessToken = signUp?.json<{ accessToken: string }>().accessToken;
    const ip = nextIp();
    const resend = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/en/customers/customer/emails/resend',
        remoteAddress: ip,
        headers: { authorization: `Bearer ${accessToken}` },
      });
    for (let i = 0; i < AUTH_RATE_LIMIT_PER_MINUTE; i++) expect((await resend()).statusCode).toBe(200);
    const blocked = await resend();
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });
});
