import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGE, CUSTOMER_MESSAGE, CUSTOMER_STATUS, EMAIL_CONFIRM_TTL_SECONDS, ROLE, customerSchema } from '@app/domain';
import { hashPassword } from '../../lib/password';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

let t: TestApp;
let seq = 0;
const nextIp = (): string => `10.5.${Math.floor(++seq / 250)}.${seq % 250}`;

const signUp = async () => {
  const email = `customer-${Date.now().toString(36)}-${++seq}@example.com`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/en/auth/jwt/sign_up',
    remoteAddress: nextIp(),
    payload: {
      phone: '15551234567',
      email,
      password: 'secret-pass-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      isEnabledNightCall: true,
      ref_id: null,
      hashDevice: 'd',
    },
  });
  expect(res.statusCode).toBe(200);
  const { accessToken } = res.json<{ accessToken: string }>();
  return { email, auth: { authorization: `Bearer ${accessToken}` } };
};
const confirmTokenFor = async (email: string): Promise<string> => {
  const res = await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(email)}` });
  const [mail] = res.json<{ messages: { text: string }[] }>().messages;
  const token = /\/profile\?confirmEmail=([\w-]+)/.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`no confirmation link for ${email}`);
  return token;
};
const validUpdate = {
  enabledFacebookMessenger: true,
  enabledNewsletters: true,
  enabledNightCalls: false,
  firstName: 'Augusta',
  lastName: 'King',
  phone: '447700900123',
};

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/en/customers/customer', () => {
  it('answers the SPEC §3 profile of the signed-in customer', async () => {
    const { email, auth } = await signUp();
    const res = await t.app.inject({ method: 'GET', url: '/api/en/customers/customer', headers: auth });
    expect(res.statusCode).toBe(200);
    const customer = customerSchema.parse(res.json());
    expect(customer).toMatchObject({
      email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '15551234567',
      role: ROLE.customer,
      status: CUSTOMER_STATUS.awaitingConfirmation,
      enabledNightCalls: true,
      emailConfirmed: false,
      facebookData: {
        fbMessengerAppId: null,
        fbPageId: null,
        ref: 'profile',
        userRef: expect.stringMatching(/^customer-\d+$/),
        isChecked: false,
      },
    });
    expect(res.body).not.toMatch(/password|argon2/i);
  });

  it('answers 401 without a token and "Access Token is missing"', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/en/customers/customer' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Access Token is missing' });
  });

  it('answers 404 to a staff token (customer-only route)', async () => {
    const email = `writer-${++seq}-${Date.now().toString(36)}@example.com`;
    await t.db.query('INSERT INTO users (role, email, password_hash, first_name, status_id) VALUES ($1, $2, $3, $4, 1)', [
      ROLE.writer,
      email,
      await hashPassword('writer-pass-1'),
      'Wendy',
    ]);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/en/auth/jwt/sign_in',
      remoteAddress: nextIp(),
      payload: { email, password: 'writer-pass-1', hashDevice: 'd' },
    });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/en/customers/customer',
      headers: { authorization: `Bearer ${signIn.json().accessToken}` },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('PUT /api/en/customers/customer', () => {
  it('updates name, phone and preferences and answers the updated customer', async () => {
    const { auth } = await signUp();
    const res = await t.app.inject({ method: 'PUT', url: '/api/en/customers/customer', headers: auth, payload: validUpdate });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject(validUpdate);
    const again = await t.app.inject({ method: 'GET', url: '/api/en/customers/customer', headers: auth });
    expect(again.json()).toMatchObject(validUpdate);
  });

  it('accepts an empty phone', async () => {
    const { auth } = await signUp();
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer',
      headers: auth,
      payload: { ...validUpdate, phone: '' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().phone).toBe('');
  });

  it.each([
    ['letters', '555-CALL'],
    ['a plus sign', '+15551234567'],
    ['22 digits', '1234567890123456789012'],
  ])('answers 422 errors.phone for a phone with %s', async (_label, phone) => {
    const { auth } = await signUp();
    const res = await t.app.inject({ method: 'PUT', url: '/api/en/customers/customer', headers: auth, payload: { ...validUpdate, phone } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.phone).toHaveLength(1);
  });

  it('accepts exactly 21 digits', async () => {
    const { auth } = await signUp();
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer',
      headers: auth,
      payload: { ...validUpdate, phone: '123456789012345678901' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers 422 errors.firstName for an invalid name', async () => {
    const { auth } = await signUp();
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer',
      headers: auth,
      payload: { ...validUpdate, firstName: '<script>' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.firstName).toEqual([AUTH_MESSAGE.invalidName]);
  });

  it('answers 422 when a field is missing', async () => {
    const { auth } = await signUp();
    const { enabledNewsletters: _omitted, ...partial } = validUpdate;
    const res = await t.app.inject({ method: 'PUT', url: '/api/en/customers/customer', headers: auth, payload: partial });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.enabledNewsletters).toBeDefined();
  });

  it('cannot change the email or the status through the body', async () => {
    const { email, auth } = await signUp();
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer',
      headers: auth,
      payload: { ...validUpdate, email: 'other@example.com', status: { id: 1 } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email, status: CUSTOMER_STATUS.awaitingConfirmation });
  });
});

describe('email confirmation', () => {
  it('confirms the email with the token from the sign-up mail: status 3 becomes 1', async () => {
    const { email, auth } = await signUp();
    const token = await confirmTokenFor(email);
    // From the browser holding the session (the app sends its access token): the session stays (ADR 0038).
    const res = await t.app.inject({ method: 'PUT', url: '/api/en/customers/customer/emails/confirm', headers: auth, payload: { token } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email, emailConfirmed: true, status: CUSTOMER_STATUS.active });
    const profile = await t.app.inject({ method: 'GET', url: '/api/en/customers/customer', headers: auth });
    expect(profile.json()).toMatchObject({ emailConfirmed: true, status: CUSTOMER_STATUS.active });
  });

  it('a first confirmation from another browser ends the sessions, access tokens included (ADR 0038, ADR 0053)', async () => {
    const { email, auth } = await signUp();
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/emails/confirm',
      payload: { token: await confirmTokenFor(email) },
    });
    expect(res.statusCode).toBe(200);
    const profile = await t.app.inject({ method: 'GET', url: '/api/en/customers/customer', headers: auth });
    expect(profile.statusCode).toBe(401);
  });

  it('answers 400 with a message for a used, unknown or expired token', async () => {
    const { email } = await signUp();
    const token = await confirmTokenFor(email);
    const confirm = (tok: string) =>
      t.app.inject({ method: 'PUT', url: '/api/en/customers/customer/emails/confirm', payload: { token: tok } });
    expect((await confirm(token)).statusCode).toBe(200);
    const used = await confirm(token);
    expect(used.statusCode).toBe(400);
    expect(used.json()).toEqual({ message: expect.any(String) });
    expect((await confirm('unknown-token')).statusCode).toBe(400);

    const other = await signUp();
    const otherToken = await confirmTokenFor(other.email);
    t.clock.advance(EMAIL_CONFIRM_TTL_SECONDS * 1000 + 1000);
    try {
      expect((await confirm(otherToken)).statusCode).toBe(400);
    } finally {
      t.clock.advance(-(EMAIL_CONFIRM_TTL_SECONDS * 1000 + 1000));
    }
  });

  it('resend mails a new working link and answers {message: "Success"}', async () => {
    const { email, auth } = await signUp();
    const firstToken = await confirmTokenFor(email);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/en/customers/customer/emails/resend',
      headers: auth,
      remoteAddress: nextIp(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Success' });
    const secondToken = await confirmTokenFor(email);
    expect(secondToken).not.toBe(firstToken);
    const confirm = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/emails/confirm',
      payload: { token: secondToken },
    });
    expect(confirm.statusCode).toBe(200);
  });

  it('resend answers 400 once the email is confirmed, and 401 without a token', async () => {
    const { email, auth } = await signUp();
    await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/emails/confirm',
      headers: auth,
      payload: { token: await confirmTokenFor(email) },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/en/customers/customer/emails/resend',
      headers: auth,
      remoteAddress: nextIp(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: CUSTOMER_MESSAGE.emailAlreadyConfirmed });
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/en/customers/customer/emails/resend', remoteAddress: nextIp() });
    expect(anonymous.statusCode).toBe(401);
  });
});
