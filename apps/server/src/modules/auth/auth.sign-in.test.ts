import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGE, CUSTOMER_STATUS, NO_PASSWORD_NEEDED, ROLE } from '@app/domain';
import { hashPassword } from '../../lib/password';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

let t: TestApp;
let seq = 0;
// Each request its own address so the per-IP rate-limit buckets never interfere between tests.
const nextIp = (): string => `10.1.${Math.floor(++seq / 250)}.${seq % 250}`;
const uniqueEmail = (tag: string): string => `${tag}-${Date.now().toString(36)}-${++seq}@example.com`;

const signUpBody = (overrides: Record<string, unknown> = {}) => ({
  phone: '15551234567',
  email: uniqueEmail('signup'),
  password: 'secret-pass-1',
  firstName: 'Ada',
  isEnabledNightCall: true,
  lastName: 'Lovelace',
  ref_id: null,
  hashDevice: 'device-hash-1',
  ...overrides,
});

const signUp = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/en/auth/jwt/sign_up', payload, remoteAddress: nextIp() });
const signIn = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/en/auth/jwt/sign_in', payload, remoteAddress: nextIp() });
const outbox = async (to: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` })).json<{
    messages: { subject: string; text: string; html: string }[];
  }>().messages;
const userRow = async (email: string) => {
  const [row] = await t.db.query<{
    id: number;
    status_id: number;
    role: number;
    hash_device: string;
    referrer_id: number | null;
    password_hash: string;
    enabled_night_calls: boolean;
    phone: string;
  }>(
    'SELECT id, status_id, role, hash_device, referrer_id, password_hash, enabled_night_calls, phone FROM users WHERE lower(email) = lower($1)',
    [email],
  );
  if (!row) throw new Error(`no user ${email}`);
  return row;
};
const insertAccount = async (a: { email: string; password: string; role: number; statusId: number }) => {
  await t.db.query('INSERT INTO users (role, email, password_hash, first_name, status_id) VALUES ($1, $2, $3, $4, $5)', [
    a.role,
    a.email,
    await hashPassword(a.password),
    'Staff',
    a.statusId,
  ]);
};

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/en/auth/jwt/sign_up', () => {
  it('creates a customer awaiting confirmation and answers a token pair', async () => {
    const body = signUpBody();
    const res = await signUp(body);
    expect(res.statusCode).toBe(200);
    const tokens = res.json<{ accessToken: string; refreshToken: string }>();
    expect(tokens.accessToken.split('.')).toHaveLength(3);
    expect(tokens.refreshToken.length).toBeGreaterThanOrEqual(40);
    const row = await userRow(body.email);
    expect(row.status_id).toBe(CUSTOMER_STATUS.awaitingConfirmation.id);
    expect(row.role).toBe(ROLE.customer);
    expect(row.hash_device).toBe('device-hash-1');
    expect(row.enabled_night_calls).toBe(true);
    expect(row.password_hash).not.toContain('secret-pass-1');
  });

  it('mails a confirmation link to {origin}/profile?confirmEmail=', async () => {
    const body = signUpBody();
    await signUp(body);
    const [mail] = await outbox(body.email);
    expect(mail?.text).toMatch(/http:\/\/localhost:3000\/profile\?confirmEmail=[\w-]{40,}/);
    expect(mail?.html).toMatch(/href="http:\/\/localhost:3000\/profile\?confirmEmail=[\w-]{40,}"/);
    expect(mail?.text).toContain('expires');
    expect(mail?.text).not.toContain('magicLink');
  });

  it('without a password sets a random one and mails a magic link to /order that signs in', async () => {
    const body = signUpBody({ password: undefined });
    const res = await signUp(body);
    expect(res.statusCode).toBe(200);
    const [mail] = await outbox(body.email);
    const token = /\/order\?magicLink=([\w-]+)/.exec(mail?.text ?? '')?.[1];
    expect(token).toBeDefined();
    // Issue 27: the same line as at checkout on how to come back without a password.
    expect(mail?.text).toContain(NO_PASSWORD_NEEDED);
    const magic = await t.app.inject({ method: 'GET', url: `/api/en/auth/magic_link/${token}`, remoteAddress: nextIp() });
    expect(magic.statusCode).toBe(200);
    expect(magic.json()).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String) });
  });

  it('answers 422 errors.firstName for an invalid name', async () => {
    const res = await signUp(signUpBody({ firstName: '<b>' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.firstName).toEqual([AUTH_MESSAGE.invalidName]);
  });

  it('answers 422 errors.email for an invalid email', async () => {
    const res = await signUp(signUpBody({ email: 'not-an-email' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ email: [AUTH_MESSAGE.invalidEmailSignup] });
  });

  it('reports both the name and the email when both are invalid', async () => {
    const res = await signUp(signUpBody({ email: 'x@', firstName: '' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ firstName: [AUTH_MESSAGE.invalidName], email: [AUTH_MESSAGE.invalidEmailSignup] });
  });

  it('refuses a registered email, whatever its case, with the SPEC message', async () => {
    const body = signUpBody();
    expect((await signUp(body)).statusCode).toBe(200);
    const res = await signUp(signUpBody({ email: body.email.toUpperCase() }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ email: [AUTH_MESSAGE.emailRegistered] });
  });

  it('lets only one of two simultaneous sign-ups of one email through', async () => {
    const body = signUpBody();
    const results = await Promise.all([signUp(body), signUp(body)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422]);
  });

  it('refuses a chosen password shorter than the minimum', async () => {
    const res = await signUp(signUpBody({ password: 'short' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.password).toEqual([AUTH_MESSAGE.passwordTooShort]);
  });

  it('stores the referrer when ref_id names an existing customer and ignores it otherwise', async () => {
    const referrer = signUpBody();
    await signUp(referrer);
    const { id: referrerId } = await userRow(referrer.email);

    const referred = signUpBody({ ref_id: String(referrerId) });
    expect((await signUp(referred)).statusCode).toBe(200);
    expect((await userRow(referred.email)).referrer_id).toBe(referrerId);

    const unknownRef = signUpBody({ ref_id: 99_999_999 });
    expect((await signUp(unknownRef)).statusCode).toBe(200);
    expect((await userRow(unknownRef.email)).referrer_id).toBeNull();

    const garbageRef = signUpBody({ ref_id: 'abc' });
    expect((await signUp(garbageRef)).statusCode).toBe(200);
    expect((await userRow(garbageRef.email)).referrer_id).toBeNull();
  });

  it('keeps the phone as digits only', async () => {
    const body = signUpBody({ phone: '+1 (555) 123-4567' });
    await signUp(body);
    expect((await userRow(body.email)).phone).toBe('15551234567');
  });
});

describe('POST /api/en/auth/jwt/sign_in', () => {
  it('signs a customer in with the right password, email compared case-insensitively', async () => {
    const body = signUpBody();
    await signUp(body);
    const res = await signIn({ email: body.email.toUpperCase(), password: body.password, hashDevice: 'device-2' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String) });
    expect((await userRow(body.email)).hash_device).toBe('device-2');
  });

  it('signs the seeded demo customer in (CONTRACT "Demo data")', async () => {
    const res = await signIn({ email: 'demo@example.com', password: 'demo12345', hashDevice: 'x' });
    expect(res.statusCode).toBe(200);
  });

  it('answers 400 with a message, never 401, for a wrong password', async () => {
    const body = signUpBody();
    await signUp(body);
    const res = await signIn({ email: body.email, password: 'wrong-password', hashDevice: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: AUTH_MESSAGE.wrongCredentials });
  });

  it('answers the same 400 for an unknown email', async () => {
    const res = await signIn({ email: uniqueEmail('nobody'), password: 'whatever-1', hashDevice: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: AUTH_MESSAGE.wrongCredentials });
  });

  it('answers 422 when the password is missing', async () => {
    const res = await signIn({ email: uniqueEmail('nopass'), hashDevice: 'x' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.password).toBeDefined();
  });

  it('refuses a deactivated account even with the right password', async () => {
    const email = uniqueEmail('deactivated');
    await insertAccount({ email, password: 'right-password', role: ROLE.customer, statusId: CUSTOMER_STATUS.deactivated.id });
    const res = await signIn({ email, password: 'right-password', hashDevice: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: AUTH_MESSAGE.wrongCredentials });
  });

  it('signs writers and support in through the same endpoint, with their role in the token', async () => {
    for (const role of [ROLE.writer, ROLE.support]) {
      const email = uniqueEmail(`staff${role}`);
      await insertAccount({ email, password: 'staff-password', role, statusId: CUSTOMER_STATUS.active.id });
      const res = await signIn({ email, password: 'staff-password', hashDevice: 'x' });
      expect(res.statusCode).toBe(200);
      const claims = await t.app.inject({
        method: 'GET',
        url: '/api/staff/me',
        headers: { authorization: `Bearer ${res.json().accessToken}` },
      });
      expect(claims.json()).toMatchObject({ email, role });
    }
  });

  it('never answers the password hash or the password', async () => {
    const body = signUpBody();
    await signUp(body);
    const res = await signIn({ email: body.email, password: body.password, hashDevice: 'x' });
    expect(res.body).not.toContain('argon2');
    expect(res.body).not.toContain(body.password);
  });
});
