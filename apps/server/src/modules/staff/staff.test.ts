import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '@app/domain';
import { hashPassword } from '../../lib/password';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

let t: TestApp;
let seq = 0;
const nextIp = (): string => `10.6.${Math.floor(++seq / 250)}.${seq % 250}`;

const accessTokenOf = async (email: string, password: string): Promise<string> => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/en/auth/jwt/sign_in',
    remoteAddress: nextIp(),
    payload: { email, password, hashDevice: 'd' },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ accessToken: string }>().accessToken;
};
const addStaff = async (role: number): Promise<string> => {
  const email = `staff-${role}-${++seq}-${Date.now().toString(36)}@example.com`;
  await t.db.query('INSERT INTO users (role, email, password_hash, first_name, last_name, status_id) VALUES ($1, $2, $3, $4, $5, 1)', [
    role,
    email,
    await hashPassword('staff-pass-1'),
    'Sam',
    'Staff',
  ]);
  return email;
};
const me = (accessToken?: string) =>
  t.app.inject({ method: 'GET', url: '/api/staff/me', headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {} });

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/staff/me', () => {
  it.each([
    ['writer', ROLE.writer],
    ['support', ROLE.support],
  ])('answers the %s account', async (_label, role) => {
    const email = await addStaff(role);
    const res = await me(await accessTokenOf(email, 'staff-pass-1'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: expect.any(Number), role, firstName: 'Sam', lastName: 'Staff', email });
  });

  it('answers the seeded demo writer and support (CONTRACT "Demo data")', async () => {
    const writer = await me(await accessTokenOf('writer@example.com', 'writer12345'));
    expect(writer.json()).toMatchObject({ role: ROLE.writer, email: 'writer@example.com' });
    const support = await me(await accessTokenOf('support@example.com', 'support12345'));
    expect(support.json()).toMatchObject({ role: ROLE.support, email: 'support@example.com' });
  });

  it('answers 404 to a customer token', async () => {
    const email = `customer-${++seq}-${Date.now().toString(36)}@example.com`;
    const signUp = await t.app.inject({
      method: 'POST',
      url: '/api/en/auth/jwt/sign_up',
      remoteAddress: nextIp(),
      payload: {
        phone: '1555123456',
        email,
        password: 'secret-pass-1',
        firstName: 'Cy',
        lastName: 'C',
        isEnabledNightCall: false,
        ref_id: null,
        hashDevice: 'd',
      },
    });
    const res = await me(signUp.json<{ accessToken: string }>().accessToken);
    expect(res.statusCode).toBe(404);
  });

  it('answers 401 without a token or with an expired one', async () => {
    expect((await me()).statusCode).toBe(401);
    const token = await accessTokenOf(await addStaff(ROLE.support), 'staff-pass-1');
    t.clock.advance(16 * 60 * 1000);
    try {
      expect((await me(token)).statusCode).toBe(401);
    } finally {
      t.clock.advance(-16 * 60 * 1000);
    }
  });
});
