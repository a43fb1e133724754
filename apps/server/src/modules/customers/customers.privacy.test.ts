import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_MESSAGE, customerSchema, ORDER_STATUS, sessionListSchema } from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import type { AppContext } from '../../context';
import { insertOrder } from '../../testing/factories';
import { PERSONAL_DATA } from '../../services';
import { authServiceFor } from '../auth';
import { createCustomersRepo } from './customers.repo';
import { createCustomersService, REPORT_BATCH_ROWS } from './customers.service';

let t: TestApp;
let seq = 0;
const nextIp = (): string => `10.12.${Math.floor(++seq / 250)}.${seq % 250}`;
const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const PASSWORD = 'secret-pass-1';

interface Session {
  accessToken: string;
  refreshToken: string;
  auth: { authorization: string };
}
const sessionOf = (tokens: { accessToken: string; refreshToken: string }): Session => ({
  ...tokens,
  auth: { authorization: `Bearer ${tokens.accessToken}` },
});

const signIn = async (email: string, password = PASSWORD, userAgent = CHROME_WINDOWS) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/en/auth/jwt/sign_in',
    remoteAddress: nextIp(),
    headers: { 'user-agent': userAgent },
    payload: { email, password, hashDevice: 'd' },
  });
  return res;
};

/** A customer signed up through the API (status 3), optionally with the email confirmed from its own session. */
const newCustomer = async ({ confirmed = true }: { confirmed?: boolean } = {}) => {
  const email = `privacy-${Date.now().toString(36)}-${++seq}@example.com`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/en/auth/jwt/sign_up',
    remoteAddress: nextIp(),
    headers: { 'user-agent': CHROME_WINDOWS },
    payload: {
      phone: '15551234567',
      email,
      password: PASSWORD,
      firstName: 'Ada',
      lastName: 'Lovelace',
      isEnabledNightCall: true,
      ref_id: null,
      hashDevice: 'd',
    },
  });
  expect(res.statusCode).toBe(200);
  const session = sessionOf(res.json());
  const me = customerSchema.parse((await t.app.inject({ method: 'GET', url: '/api/en/customers/customer', headers: session.auth })).json());
  if (confirmed) {
    const outbox = await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(email)}` });
    const text = outbox.json<{ messages: { text: string }[] }>().messages[0]?.text ?? '';
    const token = /\/profile\?confirmEmail=([\w-]+)/.exec(text)?.[1];
    const confirm = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/emails/confirm',
      headers: session.auth,
      payload: { token },
    });
    expect(confirm.statusCode).toBe(200);
  }
  return { email, id: me.id, session };
};

const getProfile = (s: Session) => t.app.inject({ method: 'GET', url: '/api/en/customers/customer', headers: s.auth });
const refresh = (s: Session) =>
  t.app.inject({ method: 'PUT', url: '/api/en/auth/jwt/refresh', headers: { authorization: `Bearer ${s.refreshToken}` } });
const allOn = {
  cookies_usages: true,
  personal_data: true,
  technical_data: true,
  location_usages: true,
  information_sharing: true,
  email_subscription: true,
};
const putPrivacy = (s: Session, id: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: `/api/en/customers/${id}/privacy`, headers: s.auth, payload });
const report = (s: Session, id: number | string) =>
  t.app.inject({ method: 'GET', url: `/api/en/customers/customer/gdpr?id=${id}`, headers: s.auth });

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('PUT /api/en/customers/{id}/privacy', () => {
  it('sets the six flags and keeps each change with its time in the consent history', async () => {
    const { id, session } = await newCustomer();
    const res = await putPrivacy(session, id, { ...allOn, cookies_usages: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      enabledCookiesUsage: false,
      enabledPersonalData: true,
      enabledTechnicalData: true,
      enabledLocationUsage: true,
      enabledInformationSharing: true,
      enabledEmailSubscription: true,
    });
    const rows = await t.db.query<{ consent: string; granted: boolean; previous: boolean; created_at: Date }>(
      'SELECT consent, granted, previous, created_at FROM consent_history WHERE customer_id = $1 ORDER BY id',
      [id],
    );
    // Sign-up defaults: cookies, personal and technical on; location, sharing and email off.
    expect(rows.map(({ consent, granted, previous }) => ({ consent, granted, previous }))).toEqual([
      { consent: 'cookies_usages', granted: false, previous: true },
      { consent: 'location_usages', granted: true, previous: false },
      { consent: 'information_sharing', granted: true, previous: false },
      { consent: 'email_subscription', granted: true, previous: false },
    ]);
    expect(rows[0]?.created_at).toBeInstanceOf(Date);
    // The same flags again change nothing and record nothing.
    expect((await putPrivacy(session, id, { ...allOn, cookies_usages: false })).statusCode).toBe(200);
    expect((await t.db.query('SELECT 1 FROM consent_history WHERE customer_id = $1', [id])).length).toBe(4);
  });

  it("answers 404 for another customer's id and changes nothing there", async () => {
    const me = await newCustomer();
    const other = await newCustomer();
    const res = await putPrivacy(me.session, other.id, { ...allOn, personal_data: false });
    expect(res.statusCode).toBe(404);
    expect((await getProfile(other.session)).json()).toMatchObject({ enabledPersonalData: true, enabledLocationUsage: false });
    expect((await t.db.query('SELECT 1 FROM consent_history WHERE customer_id = $1', [other.id])).length).toBe(0);
  });

  it.each([
    ['a string flag', { ...allOn, personal_data: 'true' }],
    ['a missing flag', { cookies_usages: true }],
    ['an unknown field', { ...allOn, is_admin: true }],
    ['a nested object', { ...allOn, personal_data: { $set: true } }],
  ])('answers 422 for %s and changes nothing', async (_label, payload) => {
    const { id, session } = await newCustomer();
    expect((await putPrivacy(session, id, payload)).statusCode).toBe(422);
    expect((await t.db.query('SELECT 1 FROM consent_history WHERE customer_id = $1', [id])).length).toBe(0);
  });

  it('racing updates each record the change from the state they replaced', async () => {
    const { id, session } = await newCustomer();
    const bodies = [
      { ...allOn, location_usages: false, information_sharing: false, email_subscription: true },
      { ...allOn, location_usages: false, information_sharing: false, email_subscription: false },
      { ...allOn, location_usages: false, information_sharing: false, email_subscription: true },
    ];
    const answers = await Promise.all(bodies.map((b) => putPrivacy(session, id, b)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const rows = await t.db.query<{ granted: boolean; previous: boolean }>(
      `SELECT granted, previous FROM consent_history WHERE customer_id = $1 AND consent = 'email_subscription' ORDER BY id`,
      [id],
    );
    // A chain: each row's previous value is the one before it granted (starting from the default, off).
    rows.forEach((row, i) => expect(row.previous).toBe(i === 0 ? false : rows[i - 1]?.granted));
    const final = (await getProfile(session)).json<{ enabledEmailSubscription: boolean }>().enabledEmailSubscription;
    expect(rows.at(-1)?.granted ?? false).toBe(final);
  });
});

describe('PUT /api/en/customers/customer (address fields, Messenger opt-in)', () => {
  it('saves country, state, city, address and zip, and keeps them when the SPEC body omits them', async () => {
    const { session } = await newCustomer();
    const base = {
      enabledFacebookMessenger: true,
      enabledNewsletters: false,
      enabledNightCalls: false,
      firstName: 'Ada',
      lastName: 'King',
      phone: '4420',
    };
    const address = { country: 'United Kingdom', state: 'England', city: 'London', address: '12 St James Square', zip: 'SW1Y 4JH' };
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer',
      headers: session.auth,
      payload: { ...base, ...address },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ...address, enabledFacebookMessenger: true, facebookData: { isChecked: true, ref: 'profile' } });
    const again = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer',
      headers: session.auth,
      payload: { ...base, enabledFacebookMessenger: false },
    });
    expect(again.json()).toMatchObject({ ...address, enabledFacebookMessenger: false, facebookData: { isChecked: false } });
  });

  it('refuses a zip of 21 characters with 422 and changes nothing', async () => {
    const { session } = await newCustomer();
    const base = {
      enabledFacebookMessenger: false,
      enabledNewsletters: false,
      enabledNightCalls: false,
      firstName: 'Ada',
      lastName: 'King',
      phone: '',
    };
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer',
      headers: session.auth,
      payload: { ...base, zip: '1'.repeat(21) },
    });
    expect(res.statusCode).toBe(422);
    expect((await getProfile(session)).json()).toMatchObject({ zip: '', lastName: 'Lovelace' });
  });
});

describe('PUT /api/en/customers/customer/password', () => {
  it("refuses a wrong current password with SPEC's text, and nothing changes", async () => {
    const { email, session } = await newCustomer();
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/password',
      headers: session.auth,
      payload: { currentPassword: 'not-my-password', newPassword: 'new-secret-2' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Something went wrong', errors: { currentPassword: [CUSTOMER_MESSAGE.wrongCurrentPassword] } });
    expect((await signIn(email)).statusCode).toBe(200);
    expect((await signIn(email, 'new-secret-2')).statusCode).toBe(400);
    expect((await getProfile(session)).statusCode).toBe(200);
  });

  it('changes the password: every other session ends at once, this one stays', async () => {
    const { email, session } = await newCustomer();
    const other = sessionOf((await signIn(email, PASSWORD, SAFARI_IPHONE)).json());
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/password',
      headers: session.auth,
      payload: { currentPassword: PASSWORD, newPassword: 'new-secret-2' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: CUSTOMER_MESSAGE.passwordUpdated });
    expect((await getProfile(other)).statusCode).toBe(401);
    expect((await refresh(other)).statusCode).toBe(401);
    expect((await getProfile(session)).statusCode).toBe(200);
    expect((await refresh(session)).statusCode).toBe(200);
    expect((await signIn(email)).statusCode).toBe(400);
    expect((await signIn(email, 'new-secret-2')).statusCode).toBe(200);
  });

  it('refuses a new password under 8 characters with 422', async () => {
    const { session } = await newCustomer();
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/password',
      headers: session.auth,
      payload: { currentPassword: PASSWORD, newPassword: 'short' },
    });
    expect(res.statusCode).toBe(422);
  });
});

describe('active sessions', () => {
  it('lists the signed-in devices with IP and times, the current one marked', async () => {
    const { email, session } = await newCustomer();
    await signIn(email, PASSWORD, SAFARI_IPHONE);
    const res = await t.app.inject({ method: 'GET', url: '/api/en/customers/customer/sessions', headers: session.auth });
    expect(res.statusCode).toBe(200);
    const { sessions } = sessionListSchema.parse(res.json());
    expect(sessions).toHaveLength(2);
    expect(sessions.find((s) => s.current)).toMatchObject({ device: 'Chrome on Windows' });
    expect(sessions.find((s) => !s.current)).toMatchObject({ device: 'Safari on iOS', ip: expect.stringMatching(/^10\.12\./) });
    expect(res.body).not.toContain(session.refreshToken);
  });

  it('ending one session stops its access and refresh tokens at once; the others keep working', async () => {
    const { email, session } = await newCustomer();
    const phone = sessionOf((await signIn(email, PASSWORD, SAFARI_IPHONE)).json());
    const { sessions } = sessionListSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/en/customers/customer/sessions', headers: session.auth })).json(),
    );
    const target = sessions.find((s) => !s.current);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/en/customers/customer/sessions/${target?.id}`, headers: session.auth });
    expect(res.statusCode).toBe(200);
    expect((await getProfile(phone)).statusCode).toBe(401);
    expect((await refresh(phone)).statusCode).toBe(401);
    expect((await getProfile(session)).statusCode).toBe(200);
    // Ending it again: nothing live to end.
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/en/customers/customer/sessions/${target?.id}`, headers: session.auth }))
        .statusCode,
    ).toBe(404);
  });

  it('requests of one moment, checked in one batch (ADR 0063), each get their own session state', async () => {
    const { email, session } = await newCustomer();
    const phone = sessionOf((await signIn(email, PASSWORD, SAFARI_IPHONE)).json());
    const other = await newCustomer();
    const { sessions } = sessionListSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/en/customers/customer/sessions', headers: session.auth })).json(),
    );
    const target = sessions.find((s) => !s.current);
    await t.app.inject({ method: 'DELETE', url: `/api/en/customers/customer/sessions/${target?.id}`, headers: session.auth });
    const answers = await Promise.all([getProfile(phone), getProfile(session), getProfile(other.session), getProfile(phone)]);
    expect(answers.map((r) => r.statusCode)).toEqual([401, 200, 200, 401]);
  });

  it("answers 404 for another customer's session and leaves it alive", async () => {
    const me = await newCustomer();
    const other = await newCustomer();
    const { sessions } = sessionListSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/en/customers/customer/sessions', headers: other.session.auth })).json(),
    );
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/en/customers/customer/sessions/${sessions[0]?.id}`,
      headers: me.session.auth,
    });
    expect(res.statusCode).toBe(404);
    expect((await getProfile(other.session)).statusCode).toBe(200);
  });

  it('ends every other session at once, and a refreshed session stays the same session', async () => {
    const { email, session } = await newCustomer();
    const a = sessionOf((await signIn(email, PASSWORD, SAFARI_IPHONE)).json());
    const b = sessionOf((await signIn(email)).json());
    const current = sessionOf((await refresh(session)).json());
    const res = await t.app.inject({ method: 'DELETE', url: '/api/en/customers/customer/sessions', headers: current.auth });
    expect(res.json()).toEqual({ message: CUSTOMER_MESSAGE.otherSessionsEnded, ended: 2 });
    for (const s of [a, b]) {
      expect((await getProfile(s)).statusCode).toBe(401);
      expect((await refresh(s)).statusCode).toBe(401);
    }
    expect((await getProfile(current)).statusCode).toBe(200);
    const { sessions } = sessionListSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/en/customers/customer/sessions', headers: current.auth })).json(),
    );
    expect(sessions).toEqual([expect.objectContaining({ current: true })]);
  });

  it('logout ends the access token of that session too', async () => {
    const { session } = await newCustomer();
    await t.app.inject({ method: 'POST', url: '/api/en/auth/jwt/logout', headers: { authorization: `Bearer ${session.refreshToken}` } });
    expect((await getProfile(session)).statusCode).toBe(401);
  });
});

describe('PUT /api/en/customers/customer/deactivate', () => {
  it("refuses with 'Email is not confirmed' until the email is confirmed, and nothing changes", async () => {
    const { email, session } = await newCustomer({ confirmed: false });
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/deactivate',
      headers: session.auth,
      payload: { password: PASSWORD },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Email is not confirmed' });
    expect((await getProfile(session)).json()).toMatchObject({ email, firstName: 'Ada' });
    expect((await signIn(email)).statusCode).toBe(200);
  });

  it('deletes the account: tokens dead at once, no sign-in, personal data erased, the books kept', async () => {
    const { email, id, session } = await newCustomer();
    const other = sessionOf((await signIn(email, PASSWORD, SAFARI_IPHONE)).json());
    await putPrivacy(session, id, { ...allOn });
    // ADR 0085: billing details on the profile and the Terms accepted.
    const billed = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/billing',
      headers: session.auth,
      payload: { name: 'Ada L. Ltd', company: 'Engines', taxId: 'GB123', address: '12 St James Square\nLondon' },
    });
    expect(billed.statusCode).toBe(200);
    const shown = (await t.app.inject({ method: 'GET', url: '/api/en/customers/terms', headers: session.auth })).json<{
      termsVersion: string;
      privacyVersion: string;
    }>();
    const accepted = await t.app.inject({
      method: 'POST',
      url: '/api/en/customers/terms/acceptances',
      headers: session.auth,
      payload: { termsVersion: shown.termsVersion, privacyVersion: shown.privacyVersion },
    });
    expect(accepted.json()).toMatchObject({ accepted: true });
    expect(await t.db.query('SELECT 1 FROM terms_acceptances WHERE customer_id = $1', [id])).toHaveLength(1);
    const order = await insertOrder(t.db, {
      customerId: id,
      uid: `del-order-${id}-0123456789`,
      title: 'My secret topic',
      description: 'About me',
      status: ORDER_STATUS.paid,
      deadline: new Date(Date.now() + 9 * 24 * 3600 * 1000),
      basicPriceCents: 1999,
      finalPriceCents: 1999,
    });
    await t.db.query(
      `INSERT INTO transactions (customer_id, order_id, provider, type, amount_cents) VALUES ($1, $2, 'fondy', 'payment', 1999)`,
      [id, order.id],
    );
    await t.db.query(
      `INSERT INTO order_files (order_id, customer_id, source, name, type_name, size_bytes, storage_key) VALUES ($1, $2, 'customer', 'my-cv.pdf', 'pdf', 10, $3)`,
      [order.id, id, `del-key-${id}`],
    );

    const [support] = await t.db.query<{ id: number }>(`SELECT id FROM users WHERE role = 6 ORDER BY id LIMIT 1`);
    await t.db.query(
      `INSERT INTO messages (order_id, customer_id, sequence, chat, direction, sender_id, body, created_at) VALUES
         ($1, $2, 1, 'support', 2, $2, 'My phone is 555 0100', now()), ($1, $2, 2, 'support', 6, $3, 'Thanks, noted', now())`,
      [order.id, id, support?.id],
    );
    await t.db.query(
      `INSERT INTO loyalty_points_ledger (customer_id, kind, points, entry_key, order_id, created_at) VALUES ($1, 'earned', 20, $2, $3, now())`,
      [id, `del-earned-${id}`, order.id],
    );

    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/deactivate',
      headers: session.auth,
      payload: { password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Your account has been successfully deleted.' });
    // The customer's words go, support's stay; the points ledger is books and stays whole.
    expect(await t.db.query('SELECT body FROM messages WHERE customer_id = $1 ORDER BY sequence', [id])).toEqual([
      { body: '' },
      { body: 'Thanks, noted' },
    ]);
    expect(await t.db.query('SELECT points FROM loyalty_points_ledger WHERE customer_id = $1', [id])).toEqual([{ points: 20 }]);

    for (const s of [session, other]) {
      expect((await getProfile(s)).statusCode).toBe(401);
      expect((await refresh(s)).statusCode).toBe(401);
    }
    expect((await signIn(email)).statusCode).toBe(400);
    const [user] = await t.db.query<Record<string, unknown>>(
      `SELECT email, first_name, last_name, phone, status_id, deleted_at, billing_name, billing_company, billing_tax_id, billing_address
         FROM users WHERE id = $1`,
      [id],
    );
    expect(user).toMatchObject({
      email: `deleted-${id}@deleted.invalid`,
      first_name: '',
      last_name: '',
      phone: '',
      status_id: 4,
      billing_name: '',
      billing_company: '',
      billing_tax_id: '',
      billing_address: '',
    });
    expect(user?.deleted_at).toBeInstanceOf(Date);
    const [kept] = await t.db.query<Record<string, unknown>>(
      'SELECT title, description, final_price_cents, status_id FROM orders WHERE id = $1',
      [order.id],
    );
    expect(kept).toEqual({ title: 'Deleted', description: '', final_price_cents: 1999, status_id: 2 });
    expect(await t.db.query('SELECT amount_cents FROM transactions WHERE customer_id = $1', [id])).toEqual([{ amount_cents: 1999 }]);
    expect(await t.db.query('SELECT 1 FROM order_files WHERE customer_id = $1', [id])).toEqual([]);
    expect(await t.db.query('SELECT 1 FROM consent_history WHERE customer_id = $1', [id])).toEqual([]);
    expect(await t.db.query('SELECT 1 FROM terms_acceptances WHERE customer_id = $1', [id])).toEqual([]);
    expect(await t.db.query('SELECT 1 FROM mail_outbox WHERE lower(to_address) = lower($1)', [email])).toEqual([]);
    // The address is free again: a new account may use it.
    expect((await t.app.inject({ method: 'POST', url: '/api/checkmail', remoteAddress: nextIp(), payload: { email } })).json()).toEqual({
      status: 'success',
    });
  });

  it('two racing deletions delete once; the other finds no account', async () => {
    const { session } = await newCustomer();
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        t.app.inject({
          method: 'PUT',
          url: '/api/en/customers/customer/deactivate',
          headers: session.auth,
          payload: { password: PASSWORD },
        }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.every((c) => c === 200 || c === 401 || c === 404)).toBe(true);
  });

  it('a refresh racing the deletion mints no live token', async () => {
    const { session } = await newCustomer();
    const [, refreshed] = await Promise.all([
      t.app.inject({ method: 'PUT', url: '/api/en/customers/customer/deactivate', headers: session.auth, payload: { password: PASSWORD } }),
      refresh(session),
    ]);
    if (refreshed.statusCode === 200) expect((await getProfile(sessionOf(refreshed.json()))).statusCode).toBe(401);
    expect((await refresh(session)).statusCode).toBe(401);
  });
});

describe('GET /api/en/customers/customer/gdpr?id=', () => {
  it('downloads a JSON attachment with the profile, orders, files, transactions and consent history', async () => {
    const { email, id, session } = await newCustomer();
    await putPrivacy(session, id, { ...allOn, technical_data: false });
    const order = await insertOrder(t.db, {
      customerId: id,
      uid: `gdpr-order-${id}-0123456789`,
      title: 'Report essay',
      status: ORDER_STATUS.paid,
      deadline: new Date(Date.now() + 9 * 24 * 3600 * 1000),
      basicPriceCents: 1999,
      finalPriceCents: 1999,
    });
    await t.db.query(
      `INSERT INTO transactions (customer_id, order_id, provider, type, amount_cents) VALUES ($1, $2, 'fondy', 'payment', 1999)`,
      [id, order.id],
    );
    await t.db.query(
      `INSERT INTO order_files (order_id, customer_id, source, name, type_name, size_bytes, storage_key) VALUES ($1, $2, 'customer', 'brief.pdf', 'pdf', 10, $3)`,
      [order.id, id, `gdpr-key-${id}`],
    );
    const [support] = await t.db.query<{ id: number }>(`SELECT id FROM users WHERE role = 6 ORDER BY id LIMIT 1`);
    await t.db.query(
      `INSERT INTO messages (order_id, customer_id, sequence, chat, direction, sender_id, body, created_at) VALUES ($1, $2, 1, 'support', 6, $3, 'Hello from support', now())`,
      [order.id, id, support?.id],
    );
    await t.db.query(
      `INSERT INTO loyalty_points_ledger (customer_id, kind, points, entry_key, order_id, created_at) VALUES ($1, 'earned', 20, $2, $3, now())`,
      [id, `gdpr-earned-${id}`, order.id],
    );
    const friend = await newCustomer({ confirmed: false });
    await t.db.query('INSERT INTO referrals (referrer_id, referred_id, created_at) VALUES ($1, $2, now())', [id, friend.id]);
    const res = await report(session, id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="personal-data-${id}.json"`);
    const doc = res.json();
    expect(doc.profile).toMatchObject({ id, email, firstName: 'Ada', enabledTechnicalData: false });
    expect(doc.profile).not.toHaveProperty('password_hash');
    expect(doc.orders).toEqual([expect.objectContaining({ id: order.id, title: 'Report essay', finalPrice: 19.99 })]);
    expect(doc.files).toEqual([expect.objectContaining({ name: 'brief.pdf', orderId: order.id })]);
    expect(doc.transactions).toEqual([expect.objectContaining({ orderId: order.id, amount: 19.99, type: 'payment' })]);
    expect(doc.consentHistory.map((c: { consent: string }) => c.consent)).toEqual([
      'technical_data',
      'location_usages',
      'information_sharing',
      'email_subscription',
    ]);
    expect(doc.messages).toEqual([
      expect.objectContaining({ orderId: order.id, chat: 'support', direction: 6, body: 'Hello from support', files: [] }),
    ]);
    expect(doc.pointsLedger).toEqual([expect.objectContaining({ kind: 'earned', points: 20, orderId: order.id })]);
    expect(doc.referrals).toEqual([expect.objectContaining({ role: 'referrer' })]);
    // The friend's report names the referral as theirs, without the referrer's code.
    const friendDoc = (await report(friend.session, friend.id)).json();
    expect(friendDoc.referrals).toEqual([expect.objectContaining({ role: 'referred', discountCode: null })]);
    expect(friendDoc.messages).toEqual([]);
    expect(res.body).not.toMatch(/argon2|password/i);
  });

  it("answers 404 for another customer's id, and 422 for a bad one", async () => {
    const me = await newCustomer();
    const other = await newCustomer();
    expect((await report(me.session, other.id)).statusCode).toBe(404);
    expect((await report(me.session, 'abc')).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: `/api/en/customers/customer/gdpr?id=${me.id}` })).statusCode).toBe(401);
  });

  it('is complete for a customer with 5,000 chat messages and written in batches, never whole in memory', async () => {
    const { id, session } = await newCustomer();
    const ROWS = 5000;
    const order = await insertOrder(t.db, {
      customerId: id,
      uid: `gdpr-chat-${id}-0123456789`,
      title: 'Chatty order',
      status: ORDER_STATUS.paid,
      deadline: new Date(Date.now() + 9 * 24 * 3600 * 1000),
      basicPriceCents: 1999,
      finalPriceCents: 1999,
    });
    await t.db.query(
      `INSERT INTO messages (order_id, customer_id, sequence, chat, direction, sender_id, body, created_at)
       SELECT $1, $2, g, 'writer', 1, $2, 'message ' || g || ' ' || repeat('x', 200), now() FROM generate_series(1, $3) AS g`,
      [order.id, id, ROWS],
    );
    // Through the service: each piece it hands out holds at most one batch.
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
    // The report reads each module's sections (the app's list, services.ts); the auth service is there because the service needs one.
    const auth = authServiceFor({ db: t.db, clock: t.clock, log, origin: '' } as unknown as AppContext);
    const service = createCustomersService({
      db: t.db,
      repo: createCustomersRepo(t.db),
      auth,
      personalData: PERSONAL_DATA,
      clock: t.clock,
      log,
    });
    const pieces: string[] = [];
    for await (const piece of await service.openReport({ customerId: id, id })) pieces.push(piece);
    const whole = pieces.join('');
    const longest = Math.max(...pieces.map((p) => p.length));
    expect(pieces.filter((p) => p.includes('"chat":"writer"')).length).toBe(Math.ceil(ROWS / REPORT_BATCH_ROWS));
    expect(longest).toBeLessThan(whole.length / 5);
    const parsed = JSON.parse(whole);
    expect(parsed.messages).toHaveLength(ROWS);
    expect(parsed.messages.at(-1).body).toMatch(/^message 5000 /);

    // Over HTTP: the body arrives in several chunks and parses whole.
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${address}/api/en/customers/customer/gdpr?id=${id}`, {
      headers: { ...session.auth, 'accept-encoding': 'identity' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const reader = res.body?.getReader();
    let chunks = 0;
    let text = '';
    const decoder = new TextDecoder();
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) break;
      chunks += 1;
      text += decoder.decode(next.value, { stream: true });
    }
    expect(chunks).toBeGreaterThan(1);
    expect(JSON.parse(text).messages).toHaveLength(ROWS);
  });
});
