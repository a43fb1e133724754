import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultOrderForm, ROLE, toOrderBody, type OrderFormValues } from '@app/domain';
import { createAccessTokens } from '../auth';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertCustomer } from '../../testing/factories';
import { fondySignature } from './providers/fondy/fondy.adapter';

let t: TestApp;
let me: { id: number; token: string };
let support: string;
let writer: string;

beforeAll(async () => {
  t = await buildTestApp();
  me = await insertCustomer(t, 'underpayer@example.com');
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
const paymentStatus = async (id: number) =>
  (await t.app.inject({ method: 'GET', url: `/api/en/orders/${id}/payment`, headers: auth() })).json<{
    status: string;
    pending: boolean;
    unapplied?: true;
    amountDue?: number;
  }>();
const staffGet = (url: string, token = support) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
const unappliedFor = async (orderId: number) =>
  (await staffGet('/api/staff/payments/unapplied'))
    .json<{ payments: { orderId: number; reason: string; amount: number; paymentId: string }[] }>()
    .payments.filter((p) => p.orderId === orderId);
const setStatus = (id: number, status: number) => t.db.query('UPDATE orders SET status_id = $1 WHERE id = $2', [status, id]);
const priceCents = async (id: number) => Math.round((await order(id)).finalPrice * 100);
/** A Fondy callback for the attempt, signed with the sandbox key as Fondy signs. */
const fondyCallback = async (paymentId: string, fields: Record<string, string>) => {
  const [secret] = await t.db.query<{ value: string }>(`SELECT value FROM app_secrets WHERE name = 'payments_sandbox_fondy'`);
  const payload: Record<string, string> = { order_id: paymentId, merchant_id: '1396424', currency: 'USD', ...fields };
  payload.signature = fondySignature(payload, secret?.value ?? '');
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/fondy/callback',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(payload).toString(),
  });
};
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

describe('ADR 0034: underpaying by editing after checkout', () => {
  it('a cheap checkout opened before an edit to a dear order does not pay the dear order', async () => {
    const { id, uid } = await create({ pages: 1 });
    const cheap = (await order(id)).finalPrice;
    const { path } = await checkout(uid);
    expect((await edit(id, { pages: 30, urgency: 24, premiumWriter: true })).statusCode).toBe(200);
    const dear = (await order(id)).finalPrice;
    expect(dear).toBeGreaterThan(cheap * 20);

    const res = await pay(path);
    expect(res.headers.location).toBe(`/orderinfo/${id}/details?payment=success`);
    const after = await order(id);
    expect(after.status).toBe(1);
    expect(after.finalPrice).toBe(dear);
    expect(after.unappliedPayment).toBe(true);
    // The money is recorded, not applied: in /transactions as unapplied, listed for support, shown on the order.
    expect(await paymentTransactions(id)).toEqual([{ amount_cents: Math.round(cheap * 100), status: 'unapplied' }]);
    expect(await unappliedFor(id)).toEqual([expect.objectContaining({ reason: 'attempt_canceled', amount: cheap })]);
    expect(await paymentStatus(id)).toEqual({ status: 'declined', pending: false, unapplied: true });
    // A new checkout asks for the new price, and paying it pays the order.
    const again = await checkout(uid);
    expect((await attempt(again.paymentId))?.amount_cents).toBe(Math.round(dear * 100));
    await pay(again.path);
    expect((await order(id)).status).toBe(2);
  });

  it('an edit that keeps the price keeps the open checkout payable', async () => {
    const { id, uid } = await create({ pages: 2 });
    const { path, paymentId } = await checkout(uid);
    expect((await edit(id, { pages: 2, title: 'Cheap then dear, typo fixed' })).statusCode).toBe(200);
    expect((await attempt(paymentId))?.state).toBe('created');
    await pay(path);
    expect((await order(id)).status).toBe(2);
  });

  it('an attempt whose amount is no longer the order price is parked even when no edit canceled it', async () => {
    const { id, uid } = await create({ pages: 1 });
    const { path, paymentId } = await checkout(uid);
    // The price changes behind the attempt's back (any path other than the edit route).
    await t.db.query('UPDATE orders SET final_price_cents = final_price_cents + 100 WHERE id = $1', [id]);
    await pay(path);
    expect((await order(id)).status).toBe(1);
    expect((await attempt(paymentId))?.state).toBe('parked');
    expect(await unappliedFor(id)).toEqual([expect.objectContaining({ reason: 'price_changed' })]);
  });

  it('a second attempt paid after the order is paid is parked, not counted twice', async () => {
    const { id, uid } = await create();
    const first = await checkout(uid);
    const second = await checkout(uid);
    await pay(first.path);
    await pay(second.path);
    expect((await order(id)).status).toBe(2);
    expect((await paymentTransactions(id)).map((r) => r.status)).toEqual(['completed', 'unapplied']);
    expect(await unappliedFor(id)).toEqual([expect.objectContaining({ paymentId: second.paymentId, reason: 'order_not_payable' })]);
  });
});

describe('ADR 0034: an edit racing a callback (concurrent on PostgreSQL)', () => {
  it('either the old price is paid and the edit refused, or the edit wins and the money is parked; never the new price paid by the old amount', async () => {
    for (let i = 0; i < 6; i += 1) {
      const { id, uid } = await create({ pages: 1 });
      const cheapCents = await priceCents(id);
      const { path } = await checkout(uid);
      const [edited, paid] = await Promise.all([edit(id, { pages: 30, urgency: 24, premiumWriter: true }), pay(path)]);
      expect(paid.statusCode).toBe(303);
      const after = await order(id);
      const money = await paymentTransactions(id);
      if (edited.statusCode === 409) {
        expect(after.status).toBe(2);
        expect(Math.round(after.finalPrice * 100)).toBe(cheapCents);
        expect(money).toEqual([{ amount_cents: cheapCents, status: 'completed' }]);
      } else {
        expect(edited.statusCode).toBe(200);
        expect(after.status).toBe(1);
        expect(money).toEqual([{ amount_cents: cheapCents, status: 'unapplied' }]);
      }
    }
  });
});

describe('ADR 0034: a paid event after declined is parked, not dropped', () => {
  it('keeps the money in view: attempt parked, transaction unapplied, support list, order page flag', async () => {
    const { id, uid } = await create();
    const { path, paymentId } = await checkout(uid);
    const declined = await t.app.inject({ method: 'POST', url: `${path}/decline` });
    expect(declined.headers.location).toContain('payment=fail');
    const cents = await priceCents(id);
    const res = await fondyCallback(paymentId, { order_status: 'approved', payment_id: `${paymentId}-late`, amount: String(cents) });
    expect(res.statusCode).toBe(200);
    expect((await order(id)).status).toBe(1);
    expect((await attempt(paymentId))?.state).toBe('parked');
    expect(await paymentTransactions(id)).toEqual([{ amount_cents: cents, status: 'unapplied' }]);
    expect(await unappliedFor(id)).toEqual([expect.objectContaining({ reason: 'attempt_declined', amount: cents / 100 })]);
    expect((await paymentStatus(id)).unapplied).toBe(true);
    const [event] = await t.db.query<{ applied: boolean }>(`SELECT applied FROM payment_events WHERE payment_id = $1 AND status = 'paid'`, [
      paymentId,
    ]);
    expect(event?.applied).toBe(false);
    // The same event again changes nothing more.
    await fondyCallback(paymentId, { order_status: 'approved', payment_id: `${paymentId}-late`, amount: String(cents) });
    expect(await paymentTransactions(id)).toHaveLength(1);
  });

  it('support only: a writer gets 403, a customer 404', async () => {
    expect((await staffGet('/api/staff/payments/unapplied', writer)).statusCode).toBe(403);
    expect((await staffGet('/api/staff/payments/unapplied', me.token)).statusCode).toBe(404);
    expect((await staffGet('/api/staff/payments/refund-claims', writer)).statusCode).toBe(403);
  });
});

describe('ADR 0034: a forced edit of a paid order (status 10)', () => {
  const paidOrder = async (overrides: Partial<OrderFormValues>) => {
    const created = await create(overrides);
    await pay((await checkout(created.uid)).path);
    expect((await order(created.id)).status).toBe(2);
    await setStatus(created.id, 10);
    return created;
  };

  it('raising the price asks for exactly the difference; paying it makes the order paid again', async () => {
    const { id, uid } = await paidOrder({ pages: 1 });
    const before = await priceCents(id);
    expect((await edit(id, { pages: 3 }, '?forceEditing=1')).statusCode).toBe(200);
    const after = await priceCents(id);
    expect(after).toBeGreaterThan(before);
    expect(await paymentStatus(id)).toMatchObject({ amountDue: (after - before) / 100 });
    expect((await order(id)).amountDue).toBe((after - before) / 100);

    const { path, paymentId } = await checkout(uid);
    expect(await attempt(paymentId)).toEqual({ state: 'created', amount_cents: after - before, kind: 'difference' });
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.body).toContain(`$${((after - before) / 100).toFixed(2)}`);
    await pay(path);
    const paid = await order(id);
    expect(paid.status).toBe(2);
    expect(paid.amountDue).toBeUndefined();
    expect(paid.unappliedPayment).toBeUndefined();
    expect((await paymentStatus(id)).amountDue).toBeUndefined();
    expect(await paymentTransactions(id)).toEqual([
      { amount_cents: before, status: 'completed' },
      { amount_cents: after - before, status: 'completed' },
    ]);
    // Nothing more to pay: checkout goes back to the order.
    const again = await t.app.inject({ method: 'GET', url: `/checkout/fondy/order/${uid}?hashDevice=dev-hash` });
    expect(again.headers.location).toBe(`/orderinfo/${id}/details`);
  });

  it('a difference checkout opened before another forced edit is parked when paid', async () => {
    const { id, uid } = await paidOrder({ pages: 1 });
    expect((await edit(id, { pages: 3 }, '?forceEditing=1')).statusCode).toBe(200);
    const { path, paymentId } = await checkout(uid);
    expect((await edit(id, { pages: 6 }, '?forceEditing=1')).statusCode).toBe(200);
    await pay(path);
    expect((await order(id)).status).toBe(10);
    expect((await attempt(paymentId))?.state).toBe('parked');
    expect(await unappliedFor(id)).toEqual([expect.objectContaining({ reason: 'attempt_canceled' })]);
  });

  it('lowering the price records a refund claim for support; refunding it writes one refund transaction', async () => {
    const { id } = await paidOrder({ pages: 4 });
    const before = await priceCents(id);
    expect((await edit(id, { pages: 2 }, '?forceEditing=1')).statusCode).toBe(200);
    const after = await priceCents(id);
    const claims = (await staffGet('/api/staff/payments/refund-claims'))
      .json<{ claims: { id: number; orderId: number; amount: number }[] }>()
      .claims.filter((c) => c.orderId === id);
    expect(claims).toEqual([expect.objectContaining({ orderId: id, amount: (before - after) / 100 })]);
    expect((await paymentStatus(id)).amountDue).toBeUndefined();

    const claimId = claims[0]?.id ?? 0;
    const refunded = await t.app.inject({
      method: 'POST',
      url: `/api/staff/payments/refund-claims/${claimId}/refunded`,
      headers: { authorization: `Bearer ${support}` },
    });
    expect(refunded.statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/staff/payments/refund-claims/${claimId}/refunded`,
      headers: { authorization: `Bearer ${support}` },
    });
    expect(again.statusCode).toBe(404);
    const list = (await t.app.inject({ method: 'GET', url: '/api/en/customers/transactions', headers: auth() })).json<{
      transactions: { orderId: number; type: string; amount: number }[];
    }>();
    expect(list.transactions.filter((x) => x.orderId === id && x.type === 'refund')).toEqual([
      expect.objectContaining({ amount: (before - after) / 100 }),
    ]);
    expect(
      (await staffGet('/api/staff/payments/refund-claims'))
        .json<{ claims: { orderId: number }[] }>()
        .claims.filter((c) => c.orderId === id),
    ).toEqual([]);
  });

  it('lowering then raising again withdraws the claim and asks only for what exceeds the price paid', async () => {
    const { id } = await paidOrder({ pages: 2 });
    const paidCents = await priceCents(id);
    expect((await edit(id, { pages: 1 }, '?forceEditing=1')).statusCode).toBe(200);
    expect((await edit(id, { pages: 3 }, '?forceEditing=1')).statusCode).toBe(200);
    const now = await priceCents(id);
    expect((await paymentStatus(id)).amountDue).toBe((now - paidCents) / 100);
    const claims = (await staffGet('/api/staff/payments/refund-claims'))
      .json<{ claims: { orderId: number }[] }>()
      .claims.filter((c) => c.orderId === id);
    expect(claims).toEqual([]);
  });
});

describe('ADR 0034: the ledger is never erased by a cascade', () => {
  it('deleting an order or a customer with payments is refused, and the ledger stays', async () => {
    const owner = await insertCustomer(t, 'ledger-owner@example.com');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/en/sites/categories/1/orders',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: body(),
    });
    const { id, uid } = res.json<{ id: number; uid: string }>();
    await pay((await checkout(uid)).path);
    const count = async () =>
      (
        await t.db.query<{ p: number; e: number; tr: number }>(
          `SELECT (SELECT count(*)::int FROM payments WHERE order_id = $1) AS p,
                  (SELECT count(*)::int FROM payment_events e JOIN payments p ON p.id = e.payment_id WHERE p.order_id = $1) AS e,
                  (SELECT count(*)::int FROM transactions WHERE order_id = $1) AS tr`,
          [id],
        )
      )[0];
    const before = await count();
    expect(before).toEqual({ p: 1, e: 1, tr: 1 });
    await expect(t.db.query('DELETE FROM orders WHERE id = $1', [id])).rejects.toThrow(/foreign key/);
    await expect(t.db.query('DELETE FROM users WHERE id = $1', [owner.id])).rejects.toThrow(/foreign key/);
    await expect(t.db.query('DELETE FROM payments WHERE order_id = $1', [id])).rejects.toThrow(/foreign key/);
    expect(await count()).toEqual(before);
  });
});
