import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCOUNT_MESSAGE, defaultOrderForm, ROLE, toOrderBody, type OrderFormValues } from '@app/domain';
import { createAccessTokens } from '../auth';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertCustomer } from '../../testing/factories';
import { fondySignature } from './providers/fondy/fondy.adapter';

/**
 * ADR 0072: one refund use case. Every refund path (a provider's refund or chargeback, support's refund,
 * a paid order's cancel, a refund claim marked refunded) writes its transaction once, takes back the
 * order's points in proportion without the balance going below 0 (an unused code bought with them is
 * voided), and moves the order to refunded (7) once all its money is back.
 */

let t: TestApp;
let support: string;
let seq = 0;
const nextIp = () => `10.21.${Math.floor(++seq / 200)}.${seq % 200}`;

beforeAll(async () => {
  t = await buildTestApp();
  const [row] = await t.db.query<{ id: number }>(`SELECT id FROM users WHERE email = 'support@example.com'`);
  support = await createAccessTokens(t.config.jwtSecret ?? '', t.clock).sign({ userId: row?.id ?? 0, role: ROLE.support });
});
afterAll(async () => {
  await t.close();
});

type Who = { id: number; token: string };
const auth = (who: Who) => ({ authorization: `Bearer ${who.token}` });
const staff = () => ({ authorization: `Bearer ${support}` });
const body = (overrides: Partial<OrderFormValues> = {}) =>
  toOrderBody({ ...defaultOrderForm(1), subject: 4, title: 'Refund me', details: 'Explain causes and mitigation.', ...overrides }, 1);
const createOrder = async (who: Who, overrides: Partial<OrderFormValues> = {}) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/en/sites/categories/1/orders',
    headers: auth(who),
    payload: body(overrides),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ id: number; uid: string }>();
};
/** An order paid through the Fondy sandbox: its id, paid attempt and price in cents. */
const paidOrder = async (who: Who, overrides: Partial<OrderFormValues> = {}) => {
  const { id, uid } = await createOrder(who, overrides);
  const res = await t.app.inject({ method: 'GET', url: `/checkout/fondy/order/${uid}?hashDevice=dev-hash` });
  const path = new URL(String(res.headers.location), 'http://x').pathname;
  const pay = await t.app.inject({ method: 'POST', url: `${path}/pay` });
  expect(pay.headers.location).toBe(`/orderinfo/${id}/details?payment=success`);
  const [row] = await t.db.query<{ final_price_cents: number }>('SELECT final_price_cents FROM orders WHERE id = $1', [id]);
  return { id, paymentId: path.split('/').at(-1) ?? '', cents: row?.final_price_cents ?? 0 };
};
/** A paid order worth at least 100 points (a 3 % code). */
const bigPaidOrder = async (who: Who) => {
  const order = await paidOrder(who, { pages: 10 });
  expect(order.cents).toBeGreaterThanOrEqual(10_000);
  return order;
};
const fondyRefund = async (paymentId: string, cents: number, eventRef: string) => {
  const [secret] = await t.db.query<{ value: string }>(`SELECT value FROM app_secrets WHERE name = 'payments_sandbox_fondy'`);
  const payload: Record<string, string> = {
    order_id: paymentId,
    merchant_id: '1396424',
    currency: 'USD',
    response_status: 'success',
    order_status: 'reversed',
    amount: String(cents),
    reversal_amount: String(cents),
    payment_id: eventRef,
  };
  payload.signature = fondySignature(payload, secret?.value ?? '');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/payments/fondy/callback',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(payload).toString(),
  });
  expect(res.statusCode).toBe(200);
};
const summary = async (who: Who) =>
  (await t.app.inject({ method: 'GET', url: '/api/en/orders/discounts/loyalty_discounts', headers: auth(who) })).json<{
    points: number;
    code: { code: string } | null;
    codes: { code: string; state: string }[];
    ledger: { kind: string; points: number; idOrder: number | null; code: string | null }[];
  }>();
const generate = async (who: Who) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/en/orders/discounts/loyalty_discounts/code', headers: auth(who) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ discount: { code: string } }>().discount.code;
};
const apply = (who: Who, code: string) =>
  t.app.inject({ method: 'POST', url: '/api/en/orders/discounts/apply', headers: auth(who), payload: { code }, remoteAddress: nextIp() });
const setStatus = (orderId: number, status: number, reason?: string) =>
  t.app.inject({ method: 'PUT', url: `/api/staff/orders/${orderId}/status`, headers: staff(), payload: { status, reason } });
const refundRows = (orderId: number) =>
  t.db.query<{ amount_cents: number }>(`SELECT amount_cents FROM transactions WHERE order_id = $1 AND type = 'refund' ORDER BY id`, [
    orderId,
  ]);
const statusOf = async (orderId: number) =>
  (await t.db.query<{ status_id: number }>('SELECT status_id FROM orders WHERE id = $1', [orderId]))[0]?.status_id;

describe('a full refund takes the points back and never leaves the balance below 0', () => {
  it.each([
    ['support refunds it (7)', async (o: { id: number }) => expect((await setStatus(o.id, 7, 'Customer asked')).statusCode).toBe(200)],
    [
      'the provider reports a refund',
      async (o: { paymentId: string; cents: number }) => fondyRefund(o.paymentId, o.cents, `full-${o.paymentId}`),
    ],
    [
      'support cancels the paid order (8)',
      async (o: { id: number }) => expect((await setStatus(o.id, 8, 'Customer left')).statusCode).toBe(200),
    ],
  ])('%s: the unused code bought with those points is voided and no longer applies', async (label, refund) => {
    const me = await insertCustomer(t, `voided-${label.length}-${seq}@example.com`);
    const order = await bigPaidOrder(me);
    const earned = Math.floor(order.cents / 100);
    expect((await summary(me)).points).toBe(earned);
    const code = await generate(me);
    expect((await apply(me, code)).statusCode).toBe(200);
    expect((await summary(me)).points).toBe(earned - 100);

    await refund(order);

    const after = await summary(me);
    // Back to before the order: 0 points, never −100.
    expect(after.points).toBe(0);
    expect(Math.min(...after.ledger.map((_, i) => after.ledger.slice(i).reduce((sum, e) => sum + e.points, 0)))).toBeGreaterThanOrEqual(0);
    expect(after.ledger.map((e) => [e.kind, e.points])).toEqual([
      ['reversed', -earned],
      ['voided', 100],
      ['redeemed', -100],
      ['earned', earned],
    ]);
    expect(after.code).toBeNull();
    expect(after.codes).toEqual([expect.objectContaining({ code, state: 'voided' })]);
    const refused = await apply(me, code);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ message: DISCOUNT_MESSAGE.invalid });
    // One refund row for the whole price; the order is refunded (or canceled, for a cancel).
    expect(await refundRows(order.id)).toEqual([{ amount_cents: order.cents }]);
    expect(await statusOf(order.id)).toBe(label.includes('cancel') ? 8 : 7);
  });

  it('keeps a code that other points still pay for', async () => {
    const me = await insertCustomer(t, 'kept-code@example.com');
    const first = await bigPaidOrder(me);
    await bigPaidOrder(me);
    const code = await generate(me);
    const before = (await summary(me)).points;
    expect((await setStatus(first.id, 7, 'Customer asked')).statusCode).toBe(200);
    const after = await summary(me);
    expect(after.points).toBe(before - Math.floor(first.cents / 100));
    expect(after.points).toBeGreaterThanOrEqual(0);
    expect(after.code?.code).toBe(code);
    expect((await apply(me, code)).statusCode).toBe(200);
  });

  it('writes off what a used code spent: the balance stops at 0 and the used code stays used', async () => {
    const me = await insertCustomer(t, 'used-code@example.com');
    const order = await bigPaidOrder(me);
    const code = await generate(me);
    await createOrder(me, { discountCode: code });
    expect((await setStatus(order.id, 7, 'Customer asked')).statusCode).toBe(200);
    const after = await summary(me);
    expect(after.points).toBe(0);
    expect(after.codes).toEqual([expect.objectContaining({ code, state: 'used' })]);
  });
});

describe('a partial refund takes back points in proportion (rounded down)', () => {
  it('a provider refund of part of the payment: points in proportion, the order stays paid, the rest at the full refund', async () => {
    const me = await insertCustomer(t, 'partial@example.com');
    const order = await paidOrder(me, { pages: 3 });
    const earned = Math.floor(order.cents / 100);
    const part = Math.floor(order.cents / 3);
    await fondyRefund(order.paymentId, part, `partial-${order.paymentId}`);
    // The same callback again writes nothing more.
    await fondyRefund(order.paymentId, part, `partial-${order.paymentId}`);
    expect(await refundRows(order.id)).toEqual([{ amount_cents: part }]);
    expect(await statusOf(order.id)).toBe(2);
    const takenFirst = Math.floor((earned * part) / order.cents);
    expect((await summary(me)).points).toBe(earned - takenFirst);

    // Support refunds what is left: the order is refunded and every point is back.
    expect((await setStatus(order.id, 7, 'Rest of it')).statusCode).toBe(200);
    expect(await refundRows(order.id)).toEqual([{ amount_cents: part }, { amount_cents: order.cents - part }]);
    expect(await statusOf(order.id)).toBe(7);
    expect((await summary(me)).points).toBe(0);
  });

  it('a refund claim marked refunded takes back its share of the points', async () => {
    const me = await insertCustomer(t, 'claim@example.com');
    const order = await paidOrder(me, { pages: 4 });
    const earned = Math.floor(order.cents / 100);
    await t.db.query('UPDATE orders SET status_id = 10 WHERE id = $1', [order.id]);
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/en/sites/categories/1/orders/${order.id}?forceEditing=1`,
      headers: auth(me),
      payload: body({ pages: 2 }),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const claims = (await t.app.inject({ method: 'GET', url: '/api/staff/payments/refund-claims', headers: staff() }))
      .json<{ claims: { id: number; orderId: number; amount: number }[] }>()
      .claims.filter((c) => c.orderId === order.id);
    const claim = claims[0];
    if (!claim) throw new Error('no claim');
    const claimCents = Math.round(claim.amount * 100);
    const res = await t.app.inject({ method: 'POST', url: `/api/staff/payments/refund-claims/${claim.id}/refunded`, headers: staff() });
    expect(res.statusCode).toBe(200);
    expect((await summary(me)).points).toBe(earned - Math.floor((earned * claimCents) / order.cents));
    expect(await statusOf(order.id)).toBe(10);
  });
});

describe('refusals', () => {
  it('a refund of an order already refunded is refused and writes nothing', async () => {
    const me = await insertCustomer(t, 'twice@example.com');
    const order = await paidOrder(me);
    await fondyRefund(order.paymentId, order.cents, `twice-${order.paymentId}`);
    const again = await setStatus(order.id, 7, 'Again');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'Cannot move order from Refunded to Refunded. Allowed now: none.' });
    expect(await refundRows(order.id)).toEqual([{ amount_cents: order.cents }]);
    const reversed = (await summary(me)).ledger.filter((e) => e.kind === 'reversed');
    expect(reversed).toHaveLength(1);
  });
});
