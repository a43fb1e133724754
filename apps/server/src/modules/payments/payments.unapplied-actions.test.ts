import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultOrderForm, ROLE, toOrderBody, type OrderFormValues } from '@app/domain';
import { createAccessTokens } from '../auth';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertCustomer } from '../../testing/factories';

let t: TestApp;
let me: { id: number; token: string };
let support: string;
let writer: string;

beforeAll(async () => {
  t = await buildTestApp();
  me = await insertCustomer(t, 'parked.money@example.com');
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  const staff = await t.db.query<{ id: number; role: number }>(
    `SELECT id, role FROM users WHERE email IN ('support@example.com', 'writer@example.com')`,
  );
  const of = (role: number) => staff.find((u) => u.role === role)?.id ?? 0;
  support = await tokens.sign({ userId: of(ROLE.support), role: ROLE.support });
  writer = await tokens.sign({ userId: of(ROLE.writer), role: ROLE.writer });
});
afterAll(async () => {
  await t.close();
});

const auth = () => ({ authorization: `Bearer ${me.token}` });
const body = (overrides: Partial<OrderFormValues> = {}) =>
  toOrderBody({ ...defaultOrderForm(1), subject: 4, title: 'Cheap then dear', details: 'Explain causes and mitigation.', ...overrides }, 1);
const create = async (overrides: Partial<OrderFormValues> = {}) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/en/sites/categories/1/orders', headers: auth(), payload: body(overrides) });
  expect(res.statusCode).toBe(200);
  return res.json<{ id: number; uid: string }>();
};
const edit = (id: number, overrides: Partial<OrderFormValues>, query = '') =>
  t.app.inject({ method: 'PUT', url: `/api/en/sites/categories/1/orders/${id}${query}`, headers: auth(), payload: body(overrides) });
const order = async (id: number) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/en/orders/${id}`, headers: auth() });
  expect(res.statusCode).toBe(200);
  return res.json<{ status: number; finalPrice: number; pending: boolean; amountDue?: number; unappliedPayment?: true }>();
};
const checkout = async (uid: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/checkout/fondy/order/${uid}?hashDevice=dev-hash` });
  expect(res.statusCode).toBe(302);
  const path = new URL(String(res.headers.location), 'http://x').pathname;
  expect(path).toMatch(/^\/sandbox\/fondy\//);
  return { path, paymentId: path.split('/').at(-1) ?? '' };
};
const pay = (path: string) => t.app.inject({ method: 'POST', url: `${path}/pay` });
const staffGet = (url: string, token = support) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
const unappliedFor = async (orderId: number) =>
  (await staffGet('/api/staff/payments/unapplied'))
    .json<{ payments: { orderId: number; reason: string; amount: number; paymentId: string }[] }>()
    .payments.filter((p) => p.orderId === orderId);
const priceCents = async (id: number) => Math.round((await order(id)).finalPrice * 100);
const attempt = async (paymentId: string) =>
  (
    await t.db.query<{ state: string; amount_cents: number; kind: string }>(
      'SELECT state, amount_cents, kind FROM payments WHERE id = $1',
      [paymentId],
    )
  )[0];
const paymentTransactions = async (orderId: number) =>
  t.db.query<{ amount_cents: number; status: string }>(
    `SELECT amount_cents, status FROM transactions WHERE order_id = $1 AND type = 'payment' ORDER BY id`,
    [orderId],
  );

const post = (url: string, token: string, payload?: Record<string, string>) =>
  t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload }) });
/** An order whose first checkout was paid after an edit changed its price: the money is parked. */
const parkedPayment = async () => {
  const { id, uid } = await create({ pages: 1 });
  const { path, paymentId } = await checkout(uid);
  expect((await edit(id, { pages: 2 })).statusCode).toBe(200);
  await pay(path);
  expect(await unappliedFor(id)).toHaveLength(1);
  return { id, uid, paymentId };
};
const refunds = (orderId: number) =>
  t.db.query<{ amount_cents: number; refund_key: string }>(
    `SELECT amount_cents, refund_key FROM transactions WHERE order_id = $1 AND type = 'refund' ORDER BY id`,
    [orderId],
  );

describe('ADR 0089: support applies or refunds an unapplied payment', () => {
  it('applies parked money once it is what the order asks: paid, the row completed, the queue emptied', async () => {
    const { id, paymentId } = await parkedPayment();
    // The order asks more now: applying is refused, naming what it asks.
    const refused = await post(`/api/staff/payments/unapplied/${paymentId}/apply`, support);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toMatch(/does not match what the order asks now/);
    // The customer edits back to the price paid: now it applies.
    expect((await edit(id, { pages: 1 })).statusCode).toBe(200);
    const applied = await post(`/api/staff/payments/unapplied/${paymentId}/apply`, support);
    expect(applied.statusCode, applied.body).toBe(200);
    expect((await order(id)).status).toBe(2);
    expect((await paymentTransactions(id)).map((r) => r.status)).toEqual(['completed']);
    expect((await attempt(paymentId))?.state).toBe('paid');
    expect(await unappliedFor(id)).toEqual([]);
    // Twice: nothing left to apply.
    expect((await post(`/api/staff/payments/unapplied/${paymentId}/apply`, support)).statusCode).toBe(404);
    const history = await t.db.query('SELECT 1 FROM order_status_history WHERE order_id = $1 AND status_id = 2', [id]);
    expect(history).toHaveLength(1);
    // ADR 0090: in the audit log once.
    const audit = await t.db.query("SELECT 1 FROM audit_log WHERE order_id = $1 AND action = 'money.unapplied-apply'", [id]);
    expect(audit).toHaveLength(1);
  });

  it('refunds parked money through the one refund use case, leaving the order and its own money alone', async () => {
    const { id, uid, paymentId } = await parkedPayment();
    const parkedCents = (await paymentTransactions(id))[0]?.amount_cents ?? 0;
    expect((await post(`/api/staff/payments/unapplied/${paymentId}/refund`, support, { reason: '' })).statusCode).toBe(422);
    const res = await post(`/api/staff/payments/unapplied/${paymentId}/refund`, support, { reason: 'Paid the old price' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await refunds(id)).toEqual([{ amount_cents: parkedCents, refund_key: `unapplied:${paymentId}` }]);
    expect((await attempt(paymentId))?.state).toBe('refunded');
    expect((await order(id)).status).toBe(1);
    expect(await unappliedFor(id)).toEqual([]);
    expect((await post(`/api/staff/payments/unapplied/${paymentId}/refund`, support, { reason: 'again' })).statusCode).toBe(404);
    // The order is then paid and refunded in full: its own payment comes back whole.
    const again = await checkout(uid);
    await pay(again.path);
    const price = await priceCents(id);
    const refund = await t.app.inject({
      method: 'PUT',
      url: `/api/staff/orders/${id}/status`,
      headers: { authorization: `Bearer ${support}` },
      payload: { status: 7, reason: 'Customer asked' },
    });
    expect(refund.statusCode, refund.body).toBe(200);
    expect((await refunds(id)).map((r) => r.amount_cents)).toEqual([parkedCents, price]);
  });

  it('answers 403 to a writer and 404 to a customer', async () => {
    const { paymentId } = await parkedPayment();
    expect((await post(`/api/staff/payments/unapplied/${paymentId}/apply`, writer)).statusCode).toBe(403);
    expect((await post(`/api/staff/payments/unapplied/${paymentId}/refund`, writer, { reason: 'x' })).statusCode).toBe(403);
    expect((await post(`/api/staff/payments/unapplied/${paymentId}/apply`, me.token)).statusCode).toBe(404);
    expect((await post(`/api/staff/payments/unapplied/${paymentId}/refund`, me.token, { reason: 'x' })).statusCode).toBe(404);
  });
});
