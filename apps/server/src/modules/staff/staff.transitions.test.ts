import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canMoveOrder,
  MOVE_BY,
  ORDER_STATUS,
  orderDetailSchema,
  reasonRequiredMessage,
  ROLE,
  STAFF_MESSAGE,
  staffOrderViewSchema,
  transactionListSchema,
  type OrderMoveFacts,
  type OrderStatusId,
} from '@app/domain';
import { createAccessTokens } from '../auth';
import { insertCustomer, insertDelivery, insertOrder } from '../../testing/factories';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

/**
 * ADR 0071: support moves an order only along the transition table; paid is reached only through money
 * (a payment support records with its reference); every change lands in the history with who and why.
 */

let t: TestApp;
let customer: { id: number; token: string };
let writerId: number;
let writer: string;
let supportId: number;
let support: string;

const addStaff = async (role: number, email: string): Promise<number> => {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id) VALUES ($1, $2, 'x', 1) RETURNING id`,
    [role, email],
  );
  if (!row) throw new Error('no user');
  return row.id;
};

beforeAll(async () => {
  t = await buildTestApp();
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  customer = await insertCustomer(t, 'transitions.customer@example.com');
  writerId = await addStaff(ROLE.writer, 'transitions.writer@example.com');
  writer = await tokens.sign({ userId: writerId, role: ROLE.writer });
  supportId = await addStaff(ROLE.support, 'transitions.support@example.com');
  support = await tokens.sign({ userId: supportId, role: ROLE.support });
});
afterAll(async () => {
  await t.close();
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const setStatus = (orderId: number | string, payload: Record<string, unknown>, token = support) =>
  t.app.inject({ method: 'PUT', url: `/api/staff/orders/${orderId}/status`, headers: auth(token), payload });
const recordPayment = (orderId: number | string, payload: Record<string, unknown>, token = support) =>
  t.app.inject({ method: 'POST', url: `/api/staff/orders/${orderId}/payments`, headers: auth(token), payload });
const detail = async (orderId: number) =>
  orderDetailSchema.parse((await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}`, headers: auth(customer.token) })).json());
const historyCount = async (orderId: number) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM order_status_history WHERE order_id = $1', [orderId]))[0]?.n;

/** An order in `status`, with its first history entry, a writer when asked, a delivery (or only a writer file) when asked, money when asked. */
const newOrder = async (
  status: number,
  o: { writer?: boolean; delivered?: boolean; fileOnly?: boolean; paidCents?: number; amountDueCents?: number } = {},
): Promise<number> => {
  const { id } = await insertOrder(t.db, { customerId: customer.id, status, writerId: o.writer ? writerId : null, title: 'Table test' });
  await t.db.query('INSERT INTO order_status_history (order_id, status_id, changed_by, created_at) VALUES ($1, $2, $3, $4)', [
    id,
    status,
    customer.id,
    new Date(t.clock.now().getTime() - 60_000),
  ]);
  if (o.delivered || o.fileOnly) {
    await insertDelivery(t.db, { orderId: id, customerId: customer.id, writerId, fileOnly: !o.delivered });
  }
  if (o.paidCents) {
    await t.db.query(
      `INSERT INTO transactions (customer_id, order_id, payment_id, provider, type, amount_cents, currency) VALUES ($1, $2, NULL, 'fondy', 'payment', $3, 'USD')`,
      [customer.id, id, o.paidCents],
    );
  }
  if (o.amountDueCents) await t.db.query('UPDATE orders SET amount_due_cents = $2 WHERE id = $1', [id, o.amountDueCents]);
  return id;
};

const STATUSES = Object.values(ORDER_STATUS) as OrderStatusId[];

describe('PUT /api/staff/orders/{id}/status follows the transition table', () => {
  it('Unpaid → Completed is refused with 409 naming the moves allowed, and the customer still sees Unpaid', async () => {
    const orderId = await newOrder(ORDER_STATUS.unpaid);
    const res = await setStatus(orderId, { status: 5 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Cannot move order from Unpaid to Completed. Allowed now: Canceled.' });
    const seen = await detail(orderId);
    expect(seen).toMatchObject({ status: 1, orderStatus: { id: 1, name: 'Unpaid' } });
    expect(seen.statusHistory).toHaveLength(1);
  });

  it('refuses "paid" chosen by hand: paid is reached only through money', async () => {
    const orderId = await newOrder(ORDER_STATUS.unpaid);
    const res = await setStatus(orderId, { status: 2 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Cannot move order from Unpaid to Paid. Allowed now: Canceled.' });
    expect((await detail(orderId)).status).toBe(1);
  });

  it('answers every (from, to) the way the domain table says, with a writer, a delivery and money in place', async () => {
    const facts: OrderMoveFacts = { hasWriter: true, delivered: true, amountDueCents: 0 };
    let allowed = 0;
    for (const from of STATUSES) {
      for (const to of STATUSES) {
        const orderId = await newOrder(from, { writer: true, delivered: true, paidCents: 2400 });
        const res = await setStatus(orderId, { status: to, reason: 'Table test' });
        const by = to === ORDER_STATUS.refunded ? MOVE_BY.refund : MOVE_BY.support;
        const expected = canMoveOrder(from, to, by, facts);
        expect(res.statusCode, `${from} → ${to}: ${res.body}`).toBe(expected ? 200 : 409);
        const [row] = await t.db.query<{ status_id: number }>('SELECT status_id FROM orders WHERE id = $1', [orderId]);
        expect(row?.status_id).toBe(expected ? to : from);
        expect(await historyCount(orderId)).toBe(expected ? 2 : 1);
        if (expected) allowed += 1;
      }
    }
    // 1 → 8; 2 → 9/10/8/7; 3 → 5/9/10/8/7; 5 → 7; 9 → 3/8/7; 10 → 3/8/7; 11 → 8
    expect(allowed).toBe(18);
  });

  it('completes an order (3 → 5) only once a delivery was submitted', async () => {
    const orderId = await newOrder(ORDER_STATUS.inProgress, { writer: true });
    const res = await setStatus(orderId, { status: 5 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'Cannot move order from In progress to Completed. Allowed now: Hold, Modified, Canceled, Refunded.',
    });
    // ADR 0084: a writer file alone is not a delivery.
    const fileOnly = await newOrder(ORDER_STATUS.inProgress, { writer: true, fileOnly: true });
    expect((await setStatus(fileOnly, { status: 5 })).statusCode).toBe(409);
    const delivered = await newOrder(ORDER_STATUS.inProgress, { writer: true, delivered: true });
    expect((await setStatus(delivered, { status: 5 })).statusCode).toBe(200);
  });

  it('releases a hold to what the order is: paid without a writer, in progress with one', async () => {
    const paid = await newOrder(ORDER_STATUS.paid);
    expect((await setStatus(paid, { status: 9, reason: 'Waiting for files' })).statusCode).toBe(200);
    expect((await setStatus(paid, { status: 3 })).statusCode).toBe(409);
    expect((await setStatus(paid, { status: 2 })).statusCode).toBe(200);
    const working = await newOrder(ORDER_STATUS.inProgress, { writer: true });
    expect((await setStatus(working, { status: 9, reason: 'Writer ill' })).statusCode).toBe(200);
    expect((await setStatus(working, { status: 2 })).statusCode).toBe(409);
    expect((await setStatus(working, { status: 3 })).statusCode).toBe(200);
    expect((await detail(working)).statusHistory.map((h) => h.status)).toEqual([3, 9, 3]);
  });

  it('sends a modified order back to work only when nothing is due', async () => {
    const due = await newOrder(ORDER_STATUS.modified, { writer: true, paidCents: 2400, amountDueCents: 600 });
    const refused = await setStatus(due, { status: 3 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: 'Cannot move order from Modified to In progress. Allowed now: Canceled, Refunded.' });
    const settled = await newOrder(ORDER_STATUS.modified, { writer: true, paidCents: 2400 });
    expect((await setStatus(settled, { status: 3 })).statusCode).toBe(200);
  });

  it('writes who made the change and why into the history the customer and support see', async () => {
    const orderId = await newOrder(ORDER_STATUS.paid);
    const res = await setStatus(orderId, { status: 8, reason: '  The customer <b>changed</b> their mind  ' });
    expect(res.statusCode).toBe(200);
    const view = staffOrderViewSchema.parse(res.json());
    expect(view.statusHistory.at(-1)).toMatchObject({
      status: 8,
      by: 'support',
      actorId: supportId,
      reason: 'The customer changed their mind',
    });
    expect((await detail(orderId)).statusHistory.at(-1)).toEqual({
      status: 8,
      date: t.clock.now().toISOString(),
      by: 'support',
      reason: 'The customer changed their mind',
    });
    // The customer sees the role, never a staff account's id.
    const raw = (await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}`, headers: auth(customer.token) })).json<{
      statusHistory: Record<string, unknown>[];
    }>();
    expect(raw.statusHistory.flatMap((h) => Object.keys(h)).sort()).toEqual(['by', 'by', 'date', 'date', 'reason', 'status', 'status']);
  });
});

describe('reasons and bad input', () => {
  it.each([7, 8, 9])('moving to %i needs a reason: 422 with the field error, nothing changes', async (status) => {
    const orderId = await newOrder(ORDER_STATUS.paid, { paidCents: 2400 });
    for (const payload of [{ status }, { status, reason: '' }, { status, reason: '   ' }, { status, reason: '<i></i>' }]) {
      const res = await setStatus(orderId, payload);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ reason: [reasonRequiredMessage(status as OrderStatusId)] });
    }
    expect((await detail(orderId)).status).toBe(2);
    expect(await t.db.query(`SELECT 1 FROM transactions WHERE order_id = $1 AND type = 'refund'`, [orderId])).toEqual([]);
  });

  it('bounds the reason: 10,000 characters answer 422, a 100 kB body 413, and nothing changes', async () => {
    const orderId = await newOrder(ORDER_STATUS.paid);
    const long = await setStatus(orderId, { status: 8, reason: 'x'.repeat(10_000) });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors).toEqual({ reason: ['At most 1000 characters'] });
    const huge = await setStatus(orderId, { status: 8, reason: 'x'.repeat(100_000) });
    expect(huge.statusCode).toBe(413);
    expect((await detail(orderId)).status).toBe(2);
    expect(await historyCount(orderId)).toBe(1);
  });

  it('answers 404 for an order that does not exist (or an id that cannot be one), 403 to a writer, 404 to a customer', async () => {
    for (const id of [2_000_000_000, 99_999_999_999, 'abc'])
      expect((await setStatus(id, { status: 8, reason: 'Gone' })).statusCode, String(id)).toBe(404);
    const orderId = await newOrder(ORDER_STATUS.inProgress, { writer: true });
    const byWriter = await setStatus(orderId, { status: 8, reason: 'I quit' }, writer);
    expect(byWriter.statusCode).toBe(403);
    expect(byWriter.json()).toEqual({ message: STAFF_MESSAGE.supportOnly });
    expect((await setStatus(orderId, { status: 8, reason: 'Mine' }, customer.token)).statusCode).toBe(404);
    expect((await detail(orderId)).status).toBe(3);
    expect(await historyCount(orderId)).toBe(1);
  });
});

describe('racing moves on one order', () => {
  it('two moves that exclude each other at once: one wins, the other is refused, one history entry', async () => {
    const orderId = await newOrder(ORDER_STATUS.inProgress, { writer: true, delivered: true });
    const answers = await Promise.all([setStatus(orderId, { status: 5 }), setStatus(orderId, { status: 9, reason: 'Hold it' })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await historyCount(orderId)).toBe(2);
    const winner = answers.find((a) => a.statusCode === 200)?.json<{ status: number }>().status;
    expect((await detail(orderId)).status).toBe(winner);
  });

  it('the same cancel five times at once: one change, one entry, one refund', async () => {
    const orderId = await newOrder(ORDER_STATUS.paid, { paidCents: 2400 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => setStatus(orderId, { status: 8, reason: 'Cancel it' })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await historyCount(orderId)).toBe(2);
    expect(await t.db.query(`SELECT amount_cents FROM transactions WHERE order_id = $1 AND type = 'refund'`, [orderId])).toEqual([
      { amount_cents: 2400 },
    ]);
  });
});

describe('POST /api/staff/orders/{id}/payments: a payment support records by hand', () => {
  const payments = (orderId: number) =>
    t.db.query<{ provider: string; amount_cents: number; type: string }>(
      'SELECT provider, amount_cents, type FROM transactions WHERE order_id = $1 ORDER BY id',
      [orderId],
    );

  it('pays an unpaid order with its reference: one transaction, the move by money, the points earned', async () => {
    const me = await insertCustomer(t, 'bank.transfer@example.com');
    const { id } = await insertOrder(t.db, { customerId: me.id, finalPriceCents: 12_345 });
    const res = await recordPayment(id, { reference: 'BANK-2026-0001', amount: 123.45 });
    expect(res.statusCode, res.body).toBe(200);
    const view = staffOrderViewSchema.parse(res.json());
    expect(view).toMatchObject({ status: 2, chargeDue: null });
    expect(view.statusHistory.at(-1)).toMatchObject({ status: 2, by: 'support', actorId: supportId, reason: null });
    expect(await payments(id)).toEqual([{ provider: 'manual', amount_cents: 12_345, type: 'payment' }]);
    const [attempt] = await t.db.query<{ provider_ref: string; recorded_by: number; state: string; sandbox: boolean }>(
      'SELECT provider_ref, recorded_by, state, sandbox FROM payments WHERE order_id = $1',
      [id],
    );
    expect(attempt).toEqual({ provider_ref: 'BANK-2026-0001', recorded_by: supportId, state: 'paid', sandbox: false });
    // The customer sees it in their transactions, and earned the points as with a provider payment.
    const list = transactionListSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/en/customers/transactions', headers: auth(me.token) })).json(),
    );
    expect(list.transactions).toEqual([expect.objectContaining({ orderId: id, provider: 'manual', amount: 123.45, type: 'payment' })]);
    const loyalty = await t.app.inject({ method: 'GET', url: '/api/en/orders/discounts/loyalty_discounts', headers: auth(me.token) });
    expect(loyalty.json<{ points: number }>().points).toBe(123);

    // Recording it again: the order asks for nothing now; still one transaction.
    const again = await recordPayment(id, { reference: 'BANK-2026-0002' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: STAFF_MESSAGE.nothingToPay });
    expect(await payments(id)).toHaveLength(1);
  });

  it('refuses another amount (422) and a reference already recorded (409)', async () => {
    const a = await newOrder(ORDER_STATUS.unpaid);
    const wrong = await recordPayment(a, { reference: 'BANK-AMOUNT', amount: 23.99 });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual({ amount: [`${STAFF_MESSAGE.amountMismatch} ($24.00)`] });
    expect((await recordPayment(a, { reference: 'BANK-SHARED' })).statusCode).toBe(200);
    const b = await newOrder(ORDER_STATUS.unpaid);
    const reused = await recordPayment(b, { reference: 'BANK-SHARED' });
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toEqual({ message: STAFF_MESSAGE.referenceUsed });
    expect((await detail(b)).status).toBe(1);
    expect(await payments(b)).toEqual([]);
  });

  it('pays the difference a forced edit left (10 → 2)', async () => {
    const orderId = await newOrder(ORDER_STATUS.modified, { paidCents: 2400, amountDueCents: 600 });
    const res = await recordPayment(orderId, { reference: 'BANK-DIFF', amount: 6 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 2, amountDue: 0 });
    expect((await payments(orderId)).map((p) => p.amount_cents)).toEqual([2400, 600]);
  });

  it('needs a reference, support (403 for a writer, 404 for a customer) and an order (404)', async () => {
    const orderId = await newOrder(ORDER_STATUS.unpaid);
    for (const payload of [{}, { reference: '' }, { reference: '   ' }, { reference: 'x'.repeat(101) }, { reference: 'R', amount: -1 }])
      expect((await recordPayment(orderId, payload)).statusCode, JSON.stringify(payload)).toBe(422);
    expect((await recordPayment(orderId, { reference: 'BANK-W' }, writer)).statusCode).toBe(403);
    expect((await recordPayment(orderId, { reference: 'BANK-C' }, customer.token)).statusCode).toBe(404);
    expect((await recordPayment(2_000_000_000, { reference: 'BANK-404' })).statusCode).toBe(404);
    expect(await payments(orderId)).toEqual([]);
    expect((await detail(orderId)).status).toBe(1);
  });
});
