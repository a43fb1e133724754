import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import {
  ADMIN_MESSAGE,
  adminDiscountSchema,
  adminPricesSchema,
  auditListSchema,
  calcsSchema,
  DISCOUNT_LIMIT_MESSAGE,
  ORDER_STATUS,
  ROLE,
  type Calcs,
} from '@app/domain';
import { hashPassword } from '../../lib/password';
import { insertCustomer, insertOrder } from '../../testing/factories';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { TWO_FACTOR_MESSAGE } from '../auth';

/**
 * ADR 0090: the admin's routes (CONTRACT "Staff side"): who may call them, two-factor sign-in, price
 * tables, discount codes, staff accounts, and the audit log every change lands in.
 */

let t: TestApp;
let seq = 0;
const nextIp = (): string => `10.90.${Math.floor(++seq / 250) % 250}.${seq % 250}`;
const PASSWORD = 'admin-pass-1';

const addAccount = async (role: number, email: string, password = PASSWORD): Promise<number> => {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, first_name, last_name, status_id) VALUES ($1, $2, $3, 'Test', 'Staff', 1) RETURNING id`,
    [role, email, await hashPassword(password)],
  );
  if (!row) throw new Error('no user');
  return row.id;
};
const signIn = (email: string, password = PASSWORD, otp?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/en/auth/jwt/sign_in',
    remoteAddress: nextIp(),
    payload: { email, password, hashDevice: 'd', ...(otp === undefined ? {} : { otp }) },
  });
const tokenOf = async (email: string, password = PASSWORD, otp?: string): Promise<string> => {
  const res = await signIn(email, password, otp);
  if (res.statusCode !== 200) throw new Error(`sign-in ${res.statusCode}: ${res.body}`);
  return res.json<{ accessToken: string }>().accessToken;
};
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const at = (offsetSteps: number) => Math.floor(t.clock.now().getTime() / 1000) + offsetSteps * 30;
const codeFor = (secret: string, steps = 0) => generate({ secret, epoch: at(steps) });

/** An admin with two-factor on, through the API: set-up, the first code, a sign-in with a code. */
const enrolledAdmin = async (email: string): Promise<{ id: number; token: string; secret: string }> => {
  const id = await addAccount(ROLE.admin, email);
  const first = await tokenOf(email);
  const setup = await t.app.inject({ method: 'POST', url: '/api/staff/two-factor/setup', headers: auth(first) });
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json<{ secret: string }>();
  const enable = await t.app.inject({
    method: 'POST',
    url: '/api/staff/two-factor/enable',
    headers: auth(first),
    payload: { code: await codeFor(secret) },
  });
  expect(enable.statusCode).toBe(200);
  t.clock.advance(31_000);
  return { id, token: await tokenOf(email, PASSWORD, await codeFor(secret)), secret };
};

let admin: { id: number; token: string; secret: string };
let support: string;
let supportId: number;
let writer: string;
let customer: { id: number; token: string };

beforeAll(async () => {
  t = await buildTestApp();
  admin = await enrolledAdmin('admin.one@example.com');
  supportId = await addAccount(ROLE.support, 'admin-test.support@example.com');
  support = await tokenOf('admin-test.support@example.com');
  await addAccount(ROLE.writer, 'admin-test.writer@example.com');
  writer = await tokenOf('admin-test.writer@example.com');
  customer = await insertCustomer(t, 'admin-test.customer@example.com');
});
afterAll(async () => {
  await t.close();
});

const audit = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/staff/audit${query}`, headers: auth(admin.token) });
  expect(res.statusCode).toBe(200);
  return auditListSchema.parse(res.json());
};

const ADMIN_ROUTES: [string, string, Record<string, unknown>?][] = [
  ['GET', '/api/staff/audit'],
  ['GET', '/api/staff/audit/csv'],
  ['GET', '/api/staff/admin/prices'],
  ['PUT', '/api/staff/admin/prices', { siteCategory: 1, rates: [], extras: [], maxAmountDiscount: 0 }],
  ['GET', '/api/staff/admin/discounts'],
  ['POST', '/api/staff/admin/discounts', { code: 'NOPE10', percent: 10 }],
  ['PUT', '/api/staff/admin/discounts/1', { code: 'NOPE10', percent: 10, version: 1 }],
  ['GET', '/api/staff/admin/staff'],
  ['POST', '/api/staff/admin/staff', { role: 'writer', email: 'x@example.com', firstName: 'X' }],
  ['POST', '/api/staff/admin/staff/1/suspend'],
  ['POST', '/api/staff/admin/staff/1/password-reset'],
];

describe('who may call the admin routes (CONTRACT "Staff side")', () => {
  it.each(ADMIN_ROUTES)('%s %s: 401 without a token, 404 for a customer, 403 for a writer and support', async (method, url, payload) => {
    const call = (headers: Record<string, string>) =>
      t.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
    expect((await call({})).statusCode).toBe(401);
    expect((await call(auth(customer.token))).statusCode).toBe(404);
    const asWriter = await call(auth(writer));
    expect(asWriter.statusCode).toBe(403);
    expect(asWriter.json()).toMatchObject({ message: ADMIN_MESSAGE.adminOnly });
    expect((await call(auth(support))).statusCode).toBe(403);
  });

  it('refuses an admin without two-factor sign-in (403 saying what to do), until it is on', async () => {
    await addAccount(ROLE.admin, 'admin.two@example.com');
    const token = await tokenOf('admin.two@example.com');
    const res = await t.app.inject({ method: 'GET', url: '/api/staff/admin/prices', headers: auth(token) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ message: ADMIN_MESSAGE.twoFactorRequired });
    expect((await t.app.inject({ method: 'GET', url: '/api/staff/two-factor', headers: auth(token) })).json()).toEqual({
      enabled: false,
      required: true,
    });
  });
});

describe('two-factor sign-in (TOTP)', () => {
  it('enrols with a QR code and a first code; a wrong code changes nothing', async () => {
    await addAccount(ROLE.support, 'tfa.support@example.com');
    const token = await tokenOf('tfa.support@example.com');
    const setup = await t.app.inject({ method: 'POST', url: '/api/staff/two-factor/setup', headers: auth(token) });
    const body = setup.json<{ secret: string; otpauthUrl: string; qrSvg: string }>();
    expect(body.otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    expect(body.qrSvg).toMatch(/^<svg/);
    expect(setup.headers['cache-control']).toBe('no-store');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/staff/two-factor/enable',
      headers: auth(token),
      payload: { code: '000000' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ errors: { code: [TWO_FACTOR_MESSAGE.codeWrong] } });
    expect((await signIn('tfa.support@example.com')).statusCode).toBe(200);
    const [stored] = await t.db.query<{ totp_pending_enc: string }>('SELECT totp_pending_enc FROM users WHERE email = $1', [
      'tfa.support@example.com',
    ]);
    // Stored encrypted: the secret is not in the column.
    expect(stored?.totp_pending_enc).not.toContain(body.secret);
  });

  it('asks for the code after the right password, refuses a wrong one and a code used twice', async () => {
    const email = 'admin.one@example.com';
    const noCode = await signIn(email);
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json()).toMatchObject({ errors: { otp: [TWO_FACTOR_MESSAGE.codeNeeded] } });
    expect((await signIn(email, 'wrong-pass-9')).json()).not.toHaveProperty('errors.otp');
    expect((await signIn(email, PASSWORD, '123')).statusCode).toBe(400);
    t.clock.advance(31_000);
    const code = await codeFor(admin.secret);
    expect((await signIn(email, PASSWORD, code)).statusCode).toBe(200);
    const again = await signIn(email, PASSWORD, code);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ errors: { otp: [TWO_FACTOR_MESSAGE.codeWrong] } });
  });

  it('records turning it on in the audit log, without the secret', async () => {
    const { entries } = await audit(`?actorId=${admin.id}`);
    const on = entries.find((e) => e.action === 'staff.two-factor-on');
    expect(on).toBeDefined();
    expect(JSON.stringify(entries)).not.toContain(admin.secret);
  });
});

const calcs = async (category = 1): Promise<Calcs> =>
  calcsSchema.parse((await t.app.inject({ method: 'GET', url: `/api/en/sites/categories/${category}/orders/calcs` })).json());
const putPrices = (payload: unknown, token = admin.token) =>
  t.app.inject({ method: 'PUT', url: '/api/staff/admin/prices', headers: auth(token), payload: payload as Record<string, unknown> });
const quote = async (urgency: number) =>
  (
    await t.app.inject({
      method: 'PUT',
      url: '/api/en/sites/categories/1/orders/calcs',
      payload: {
        idWorkType: 1,
        academicLevel: 2,
        pages: 1,
        idSpacing: 2,
        urgency,
        premiumWriter: 1,
        originalityReport: 1,
        extraQualityCheck: 1,
        onePageSummary: 1,
      },
    })
  ).json<{ finalPrice: number }>().finalPrice;

describe('price tables (GET, PUT /api/staff/admin/prices)', () => {
  it('lists every offered category as …/calcs serves it, with the urgencies', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/staff/admin/prices', headers: auth(admin.token) });
    const prices = adminPricesSchema.parse(res.json());
    expect(prices.categories.map((c) => c.siteCategory)).toEqual([1, 3, 4, 5]);
    expect(prices.categories[0]).toEqual(await calcs(1));
    expect(prices.urgencies.length).toBeGreaterThan(0);
  });

  it.each([
    ['zero', 0],
    ['negative', -5],
  ])('refuses a %s price with a clear message and changes nothing', async (_label, price) => {
    const before = await calcs();
    const rates = before.rates.map((r, i) => (i === 0 ? { ...r, pricePerPage: price } : r));
    const res = await putPrices({ ...before, rates });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      message: ADMIN_MESSAGE.priceNotPositive,
      errors: { 'rates.0.pricePerPage': [ADMIN_MESSAGE.priceNotPositive] },
    });
    expect(await calcs()).toEqual(before);
  });

  it('refuses an urgency the site does not have and a row given twice', async () => {
    const before = await calcs();
    const [first] = before.rates;
    if (!first) throw new Error('no rates');
    expect((await putPrices({ ...before, rates: [...before.rates, { ...first, urgency: 7 }] })).json()).toMatchObject({
      errors: { [`rates.${before.rates.length}.urgency`]: [ADMIN_MESSAGE.unknownUrgency] },
    });
    expect((await putPrices({ ...before, rates: [...before.rates, first] })).statusCode).toBe(422);
  });

  it('publishes for new quotes at once, while an existing order keeps its stored price; audited with before and after', async () => {
    const before = await calcs();
    const rate = before.rates.find((r) => r.idWorkType === 1 && r.idLevel === 2);
    if (!rate) throw new Error('no rate');
    const oldQuote = await quote(rate.urgency);
    const { id: orderId } = await insertOrder(t.db, {
      customerId: customer.id,
      basicPriceCents: oldQuote * 100,
      finalPriceCents: oldQuote * 100,
    });
    const rates = before.rates.map((r) => (r === rate ? { ...r, pricePerPage: rate.pricePerPage + 7 } : r));
    const res = await putPrices({ siteCategory: 1, rates, extras: before.extras, maxAmountDiscount: before.maxAmountDiscount });
    expect(res.statusCode).toBe(200);
    expect(await quote(rate.urgency)).toBeCloseTo(oldQuote + 7, 2);
    const order = (await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}`, headers: auth(customer.token) })).json<{
      price: { finalPrice: number };
    }>();
    expect(order.price.finalPrice).toBe(oldQuote);
    const { entries } = await audit(`?actorId=${admin.id}`);
    const entry = entries.find((e) => e.action === 'prices.update');
    expect(entry?.before).toMatchObject({ siteCategory: 1, rates: expect.arrayContaining([rate]) });
    expect(entry?.after).toMatchObject({ rates: expect.arrayContaining([{ ...rate, pricePerPage: rate.pricePerPage + 7 }]) });
  });
});

const createCode = (payload: Record<string, unknown>, token = admin.token) =>
  t.app.inject({ method: 'POST', url: '/api/staff/admin/discounts', headers: auth(token), payload });
const apply = (code: string, token?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/en/orders/discounts/apply',
    remoteAddress: nextIp(),
    headers: token ? auth(token) : {},
    payload: { code },
  });

describe('discount codes (GET, POST, PUT /api/staff/admin/discounts)', () => {
  it('refuses a percent over 100, both a percent and an amount, neither, and a malformed code', async () => {
    const over = await createCode({ code: 'TOOMUCH', percent: 101 });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ message: ADMIN_MESSAGE.percentOver100, errors: { percent: [ADMIN_MESSAGE.percentOver100] } });
    expect((await createCode({ code: 'BOTH10', percent: 10, amount: 5 })).json()).toMatchObject({
      errors: { amount: [ADMIN_MESSAGE.percentOrAmount] },
    });
    expect((await createCode({ code: 'NONE00' })).statusCode).toBe(422);
    expect((await createCode({ code: 'a b', percent: 5 })).json()).toMatchObject({ errors: { code: [ADMIN_MESSAGE.codeFormat] } });
    expect(
      (await createCode({ code: 'LATE10', percent: 10, startsAt: '2030-01-02T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' })).statusCode,
    ).toBe(422);
  });

  it('creates a code the wizard then applies; the same code again is 409', async () => {
    const res = await createCode({ code: 'SPRING15', percent: 15 });
    expect(res.statusCode).toBe(200);
    expect(adminDiscountSchema.parse(res.json())).toMatchObject({
      code: 'SPRING15',
      percent: 15,
      version: 1,
      uses: 0,
      revenue: 0,
      active: true,
    });
    const applied = await apply('spring15');
    expect(applied.statusCode).toBe(200);
    expect(applied.json()).toMatchObject({ code: 'SPRING15', percent: 15 });
    expect((await createCode({ code: 'spring15', percent: 5 })).statusCode).toBe(409);
  });

  it('edits under optimistic concurrency: the second of two edits from one version is 409 with a message', async () => {
    const created = adminDiscountSchema.parse((await createCode({ code: 'RACE20', percent: 20 })).json());
    const edit = (percent: number, token: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/staff/admin/discounts/${created.id}`,
        headers: auth(token),
        payload: { code: 'RACE20', percent, version: created.version },
      });
    const second = await enrolledAdmin('admin.three@example.com');
    const [a, b] = await Promise.all([edit(25, admin.token), edit(30, second.token)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const lost = a.statusCode === 409 ? a : b;
    expect(lost.json()).toMatchObject({ message: ADMIN_MESSAGE.codeEditedElsewhere });
    const list = (await t.app.inject({ method: 'GET', url: '/api/staff/admin/discounts', headers: auth(admin.token) })).json<{
      discounts: { id: number; version: number; percent: number }[];
    }>();
    const stored = list.discounts.find((d) => d.id === created.id);
    expect(stored?.version).toBe(2);
    const { entries } = await audit('');
    const updates = entries.filter((e) => e.action === 'discount.update' && (e.after as { id?: number }).id === created.id);
    expect(updates).toHaveLength(1);
    expect(updates[0]?.before).toMatchObject({ percent: 20, version: 1 });
  });

  it('counts uses and revenue, and enforces the total, per-customer and first-order limits', async () => {
    const created = adminDiscountSchema.parse(
      (await createCode({ code: 'ONCE5', amount: 5, totalLimit: 2, perCustomerLimit: 1, firstOrderOnly: false })).json(),
    );
    expect(created).toMatchObject({ amount: 5, percent: 0 });
    const buyer = await insertCustomer(t, 'admin-test.buyer@example.com');
    expect((await apply('ONCE5', buyer.token)).statusCode).toBe(200);
    await insertOrder(t.db, { customerId: buyer.id, status: ORDER_STATUS.paid, finalPriceCents: 3000 });
    await t.db.query("UPDATE orders SET discount_code = 'ONCE5' WHERE customer_id = $1", [buyer.id]);
    expect((await apply('ONCE5', buyer.token)).json()).toMatchObject({ message: DISCOUNT_LIMIT_MESSAGE.perCustomerLimit });
    const list = (await t.app.inject({ method: 'GET', url: '/api/staff/admin/discounts', headers: auth(admin.token) })).json<{
      discounts: { code: string; uses: number; revenue: number }[];
    }>();
    expect(list.discounts.find((d) => d.code === 'ONCE5')).toMatchObject({ uses: 1, revenue: 30 });
    const other = await insertCustomer(t, 'admin-test.other@example.com');
    const { id: otherOrder } = await insertOrder(t.db, { customerId: other.id, status: ORDER_STATUS.paid });
    await t.db.query("UPDATE orders SET discount_code = 'ONCE5' WHERE id = $1", [otherOrder]);
    expect((await apply('ONCE5')).json()).toMatchObject({ message: DISCOUNT_LIMIT_MESSAGE.totalLimit });

    const first = adminDiscountSchema.parse((await createCode({ code: 'FIRST10', percent: 10, firstOrderOnly: true })).json());
    expect(first.firstOrderOnly).toBe(true);
    expect((await apply('FIRST10', buyer.token)).json()).toMatchObject({ message: DISCOUNT_LIMIT_MESSAGE.firstOrderOnly });
    const fresh = await insertCustomer(t, 'admin-test.fresh@example.com');
    expect((await apply('FIRST10', fresh.token)).statusCode).toBe(200);
  });
});

describe('staff accounts', () => {
  it('adds an account (a link to set its password is mailed), suspends it (every session ends), audited', async () => {
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/staff/admin/staff',
      headers: auth(admin.token),
      payload: { role: 'writer', email: 'New.Writer.Admin@example.com', firstName: 'Nia', lastName: 'Wolf' },
    });
    expect(add.statusCode).toBe(200);
    const added = add.json<{ id: number; role: number; active: boolean }>();
    expect(added).toMatchObject({ role: ROLE.writer, active: true });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/staff/admin/staff',
      headers: auth(admin.token),
      payload: { role: 'writer', email: 'new.writer.admin@example.com', firstName: 'Nia' },
    });
    expect(again.statusCode).toBe(409);

    const victimId = await addAccount(ROLE.support, 'suspend.me@example.com');
    const victim = await tokenOf('suspend.me@example.com');
    const victimRefresh = (await signIn('suspend.me@example.com')).json<{ refreshToken: string }>().refreshToken;
    expect((await t.app.inject({ method: 'GET', url: '/api/staff/me', headers: auth(victim) })).statusCode).toBe(200);
    const suspend = await t.app.inject({ method: 'POST', url: `/api/staff/admin/staff/${victimId}/suspend`, headers: auth(admin.token) });
    expect(suspend.statusCode).toBe(200);
    expect(suspend.json()).toMatchObject({ active: false });
    expect((await t.app.inject({ method: 'GET', url: '/api/staff/me', headers: auth(victim) })).statusCode).toBe(401);
    expect((await signIn('suspend.me@example.com')).statusCode).toBe(400);
    const refresh = await t.app.inject({
      method: 'PUT',
      url: '/api/en/auth/jwt/refresh',
      remoteAddress: nextIp(),
      headers: auth(victimRefresh),
    });
    expect(refresh.statusCode).toBe(401);

    const { entries } = await audit(`?actorId=${admin.id}`);
    expect(entries.find((e) => e.action === 'staff.suspend')).toMatchObject({
      before: { id: victimId, active: true },
      after: { id: victimId, active: false },
    });
    expect(entries.find((e) => e.action === 'staff.add')).toMatchObject({ after: { id: added.id, email: 'new.writer.admin@example.com' } });
  });

  it('refuses suspending oneself and a customer id', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/staff/admin/staff/${admin.id}/suspend`, headers: auth(admin.token) })).statusCode,
    ).toBe(409);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/staff/admin/staff/${customer.id}/suspend`, headers: auth(admin.token) })).statusCode,
    ).toBe(404);
  });

  it('resets a password: the old one stops working and the sessions end', async () => {
    const id = await addAccount(ROLE.writer, 'reset.me@example.com');
    const token = await tokenOf('reset.me@example.com');
    const res = await t.app.inject({ method: 'POST', url: `/api/staff/admin/staff/${id}/password-reset`, headers: auth(admin.token) });
    expect(res.statusCode).toBe(200);
    expect((await signIn('reset.me@example.com')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/staff/me', headers: auth(token) })).statusCode).toBe(401);
  });
});

describe('the audit log records staff actions in their transaction', () => {
  it('a status change and a writer assignment, with before and after; a refused move writes nothing', async () => {
    const writerId = await addAccount(ROLE.writer, 'audit.writer@example.com');
    const { id: orderId } = await insertOrder(t.db, { customerId: customer.id, status: ORDER_STATUS.paid });
    const assign = await t.app.inject({
      method: 'PUT',
      url: `/api/staff/orders/${orderId}/writer`,
      headers: auth(support),
      payload: { idWriter: writerId },
    });
    expect(assign.statusCode).toBe(200);
    const hold = await t.app.inject({
      method: 'PUT',
      url: `/api/staff/orders/${orderId}/status`,
      headers: auth(support),
      payload: { status: ORDER_STATUS.hold, reason: 'Waiting for sources' },
    });
    expect(hold.statusCode).toBe(200);
    const refused = await t.app.inject({
      method: 'PUT',
      url: `/api/staff/orders/${orderId}/status`,
      headers: auth(support),
      payload: { status: ORDER_STATUS.completed },
    });
    expect(refused.statusCode).toBe(409);

    const { entries, total } = await audit(`?orderId=${orderId}`);
    expect(total).toBe(2);
    expect(entries.map((e) => e.action)).toEqual(['order.status', 'order.writer']);
    expect(entries[1]).toMatchObject({
      actorId: supportId,
      orderId,
      before: { status: 2, writerId: null },
      after: { status: 3, writerId },
    });
    expect(entries[0]).toMatchObject({ before: { status: 3 }, after: { status: 9, reason: 'Waiting for sources' } });
    expect(Date.parse(entries[0]?.at ?? '')).not.toBeNaN();
  });

  it('filters by actor, pages, and exports the same filter as CSV', async () => {
    const page = await audit(`?actorId=${supportId}&limit=1&page=2`);
    expect(page.entries).toHaveLength(1);
    expect(page.total).toBeGreaterThanOrEqual(2);
    const csv = await t.app.inject({ method: 'GET', url: `/api/staff/audit/csv?actorId=${supportId}`, headers: auth(admin.token) });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('id,at,actorId,action,orderId,before,after');
    expect(lines).toHaveLength(page.total + 1);
    expect(lines[1]).toContain(`,${supportId},order.`);
  });

  it('answers 422 for a bad filter', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/staff/audit?orderId=abc', headers: auth(admin.token) })).statusCode).toBe(422);
  });
});
