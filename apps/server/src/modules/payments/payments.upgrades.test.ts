import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculatePrice, calcsSchema, ORDER_STATUS, toPriceTable, UPGRADE_MESSAGE, type PriceTable } from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertCustomer, insertDelivery, insertOrder } from '../../testing/factories';

/**
 * ADR 0086: an upgrade of a paid order, previewed, made, paid through the sandbox like an order's checkout,
 * applied exactly once, and the abuse next to it.
 */
const H = 3_600_000;
let t: TestApp;
let table: PriceTable;
let me: { id: number; auth: { authorization: string } };
let other: { id: number; auth: { authorization: string } };
let writerId: number;
let seq = 0;

beforeAll(async () => {
  t = await buildTestApp();
  const a = await insertCustomer(t, 'upgrader@example.com');
  const b = await insertCustomer(t, 'someone-else@example.com');
  me = { id: a.id, auth: { authorization: `Bearer ${a.token}` } };
  other = { id: b.id, auth: { authorization: `Bearer ${b.token}` } };
  const calcs = await t.app.inject({ method: 'GET', url: '/api/en/sites/categories/1/orders/calcs' });
  table = toPriceTable(calcsSchema.parse(calcs.json()));
  const [w] = await t.db.query<{ id: number }>(`SELECT id FROM users WHERE role = 3 ORDER BY id LIMIT 1`);
  if (!w) throw new Error('no writer in the seed');
  writerId = w.id;
});
afterAll(async () => {
  await t?.close();
});

/** A paid two-page essay (college, 240 hours) placed 10 hours ago, bought for $24.00. */
const paidOrder = async (over: { status?: number; deadlineInHours?: number; customerId?: number; writer?: boolean } = {}) => {
  seq += 1;
  const now = t.clock.now().getTime();
  return insertOrder(t.db, {
    customerId: over.customerId ?? me.id,
    status: over.status ?? ORDER_STATUS.paid,
    title: `Upgradeable essay ${seq}`,
    pages: 2,
    urgencyHours: 240,
    createdAt: new Date(now - 10 * H),
    deadline: new Date(now + (over.deadlineInHours ?? 230) * H),
    ...(over.writer ? { writerId } : {}),
  });
};

const price = (pages: number, urgency = 240, extras: { originalityReport?: boolean } = {}): number => {
  const r = calculatePrice(table, {
    workType: 1,
    level: 2,
    urgency,
    pages,
    spacing: 2,
    premiumWriter: false,
    preferredWriter: false,
    extraQualityCheck: false,
    originalityReport: extras.originalityReport ?? false,
    onePageSummary: false,
  });
  if (!r.ok) throw new Error('no rate');
  return r.price.finalPrice;
};

const calcs = (orderId: number, payload: unknown, who = me) =>
  t.app.inject({ method: 'PUT', url: `/api/en/orders/${orderId}/upgrade/calcs`, headers: who.auth, payload: payload as object });
const create = (orderId: number, payload: unknown, who = me) =>
  t.app.inject({ method: 'POST', url: `/api/en/orders/${orderId}/upgrade`, headers: who.auth, payload: payload as object });

const checkout = async (upgradeId: string, system = 'fondy') => {
  const res = await t.app.inject({ method: 'GET', url: `/checkout/${system}/upgrade/${upgradeId}?hashDevice=dev-hash` });
  return res;
};
const sandboxPath = async (upgradeId: string, system = 'fondy') => {
  const res = await checkout(upgradeId, system);
  expect(res.statusCode).toBe(302);
  const path = new URL(String(res.headers.location), 'http://localhost').pathname;
  expect(path).toMatch(/^\/sandbox\/[a-z]+\/[A-Za-z0-9_-]{16,}$/);
  return path;
};

const orderRow = async (orderId: number) => {
  const [o] = await t.db.query<{
    pages: number;
    urgency_hours: number;
    deadline: Date;
    final_price_cents: number;
    originality_report: boolean;
    status_id: number;
    pending: boolean;
    price_breakdown: Record<string, number>;
  }>(
    'SELECT pages, urgency_hours, deadline, final_price_cents, originality_report, status_id, pending, price_breakdown FROM orders WHERE id = $1',
    [orderId],
  );
  if (!o) throw new Error('no order');
  return { ...o, deadline: new Date(o.deadline), final_price_cents: Number(o.final_price_cents) };
};
const money = async (orderId: number) => {
  const rows = await t.db.query<{ status: string; amount_cents: number; receipts: number }>(
    `SELECT t.status, t.amount_cents,
            (SELECT count(*)::int FROM transaction_documents d WHERE d.transaction_id = t.id) AS receipts
       FROM transactions t WHERE t.order_id = $1 AND t.type = 'payment' ORDER BY t.id`,
    [orderId],
  );
  const [parked] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM unapplied_payments WHERE order_id = $1', [orderId]);
  return { transactions: rows.map((r) => ({ ...r, amount_cents: Number(r.amount_cents) })), parked: parked?.n ?? 0 };
};

describe('the preview: PUT …/orders/{id}/upgrade/calcs', () => {
  it('answers the difference from the one price function, and stores nothing', async () => {
    const order = await paidOrder();
    const res = await calcs(order.id, { pages: 5, extras: ['originalityReport'] });
    expect(res.statusCode).toBe(200);
    const difference = price(5, 240, { originalityReport: true }) - price(2);
    expect(res.json()).toMatchObject({
      difference: difference / 100,
      currentPrice: 24,
      newPrice: (2400 + difference) / 100,
      pages: 5,
      urgency: 240,
      extras: { originalityReport: true, premiumWriter: false },
    });
    const [n] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM order_upgrades WHERE order_id = $1', [order.id]);
    expect(n?.n).toBe(0);
  });

  it('moves the deadline by the hours a shorter urgency takes off, and refuses one that leaves less than 12 hours', async () => {
    const order = await paidOrder();
    const res = await calcs(order.id, { urgency: 72 });
    expect(res.statusCode).toBe(200);
    expect(new Date(res.json().deadline).getTime()).toBe(t.clock.now().getTime() + 62 * H);
    expect(res.json().difference).toBe((price(2, 72) - price(2)) / 100);

    const late = await paidOrder({ deadlineInHours: 100 });
    const refused = await calcs(late.id, { urgency: 24 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ message: UPGRADE_MESSAGE.tooLittleTime, errors: { urgency: [UPGRADE_MESSAGE.tooLittleTime] } });

    const close = await paidOrder({ deadlineInHours: 5 });
    expect((await calcs(close.id, { pages: 3 })).json()).toEqual({ message: UPGRADE_MESSAGE.tooLate });
  });

  it.each([
    [ORDER_STATUS.unpaid, 409, UPGRADE_MESSAGE.unpaid],
    [ORDER_STATUS.completed, 409, UPGRADE_MESSAGE.finished],
    [ORDER_STATUS.canceled, 409, UPGRADE_MESSAGE.finished],
    [ORDER_STATUS.refunded, 409, UPGRADE_MESSAGE.finished],
    [ORDER_STATUS.hold, 409, UPGRADE_MESSAGE.onHold],
    [ORDER_STATUS.inProgress, 200, undefined],
  ])('an order in status %i answers %i', async (status, code, message) => {
    const order = await paidOrder({ status, writer: status === ORDER_STATUS.inProgress });
    for (const res of [await calcs(order.id, { pages: 3 }), await create(order.id, { pages: 3 })]) {
      expect(res.statusCode).toBe(code);
      if (message) expect(res.json()).toEqual({ message });
    }
  });

  it('refuses a delivered order', async () => {
    const order = await paidOrder({ status: ORDER_STATUS.inProgress, writer: true });
    await insertDelivery(t.db, { orderId: order.id, customerId: me.id, writerId });
    expect((await create(order.id, { pages: 3 })).json()).toEqual({ message: UPGRADE_MESSAGE.delivered });
  });

  it('answers 404 for another customer’s order and for no order, alike', async () => {
    const mine = await paidOrder();
    for (const res of [
      await calcs(mine.id, { pages: 3 }, other),
      await create(mine.id, { pages: 3 }, other),
      await calcs(99_999_999, { pages: 3 }),
      await create(Number.MAX_SAFE_INTEGER, { pages: 3 }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found' });
    }
    expect((await t.app.inject({ method: 'PUT', url: `/api/en/orders/${mine.id}/upgrade/calcs`, payload: { pages: 3 } })).statusCode).toBe(
      401,
    );
  });

  it.each<[unknown, string]>([
    [{ pages: 0 }, UPGRADE_MESSAGE.fewerPages(2)],
    [{ pages: -3 }, UPGRADE_MESSAGE.fewerPages(2)],
    [{ pages: 1 }, UPGRADE_MESSAGE.fewerPages(2)],
    [{ pages: 2 }, UPGRADE_MESSAGE.nothingAdded],
    [{}, UPGRADE_MESSAGE.nothingAdded],
    [{ extras: ['goldLeaf'] }, UPGRADE_MESSAGE.unknownExtra('goldLeaf')],
    [{ urgency: 36 }, UPGRADE_MESSAGE.unknownUrgency],
    [{ pages: 101 }, UPGRADE_MESSAGE.tooManyPages(100)],
  ])('refuses %j with a clear 422', async (payload, message) => {
    const order = await paidOrder();
    const res = await create(order.id, payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(message);
  });

  it('refuses malformed and oversized bodies before any work', async () => {
    const order = await paidOrder();
    expect((await calcs(order.id, { pages: '3' })).statusCode).toBe(422);
    expect((await calcs(order.id, { pages: 2.5 })).statusCode).toBe(422);
    expect((await calcs(order.id, { extras: [{ deep: { deeper: true } }] })).statusCode).toBe(422);
    expect((await calcs(order.id, { extras: Array.from({ length: 50 }, () => 'premiumWriter') })).statusCode).toBe(422);
    const big = await calcs(order.id, { pages: 3, extras: [], pad: 'x'.repeat(10_000) });
    expect(big.statusCode).toBe(413);
  });
});

describe('paying an upgrade: /checkout/{provider}/upgrade/{upgradeId} through the sandbox', () => {
  it('applies once when paid in full: pages, extras, deadline and price; one transaction with its receipt', async () => {
    const order = await paidOrder();
    const before = await orderRow(order.id);
    const made = await create(order.id, { pages: 4, urgency: 72, extras: ['originalityReport'] });
    expect(made.statusCode).toBe(200);
    const { upgradeId, difference } = made.json() as { upgradeId: string; difference: number };
    expect(upgradeId).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const cents = price(4, 72, { originalityReport: true }) - price(2);
    expect(difference).toBe(cents / 100);

    const path = await sandboxPath(upgradeId);
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.body).toContain(`$${(cents / 100).toFixed(2)}`);
    // The order was paid before: an upgrade's open attempt does not mark it pending.
    expect((await orderRow(order.id)).pending).toBe(false);

    const pay = await t.app.inject({ method: 'POST', url: `${path}/pay` });
    expect(pay.statusCode).toBe(303);
    expect(pay.headers.location).toBe(`/orderinfo/${order.id}/details?upgrade=success`);

    const after = await orderRow(order.id);
    expect(after).toMatchObject({ pages: 4, urgency_hours: 72, originality_report: true, status_id: ORDER_STATUS.paid, pending: false });
    expect(after.final_price_cents).toBe(2400 + cents);
    expect(after.deadline.getTime()).toBe(before.deadline.getTime() - 168 * H);
    expect(Number(after.price_breakdown.finalPrice ?? 0) - Number(before.price_breakdown.finalPrice ?? 0)).toBe(cents);
    expect(await money(order.id)).toEqual({ transactions: [{ status: 'completed', amount_cents: cents, receipts: 1 }], parked: 0 });
    const events = await t.db.query<{ type: string; note: string }>('SELECT type, note FROM order_events WHERE order_id = $1', [order.id]);
    expect(events).toEqual([{ type: 'upgraded', note: '4 pages, 3 days, Originality report' }]);

    // The same callback again, and the same checkout again: nothing more is applied or charged.
    await t.app.inject({ method: 'POST', url: `${path}/pay` });
    const again = await checkout(upgradeId);
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe(`/orderinfo/${order.id}/details?upgrade=closed`);
    expect((await orderRow(order.id)).final_price_cents).toBe(2400 + cents);
    expect((await money(order.id)).transactions).toHaveLength(1);
    expect(await t.db.query('SELECT 1 FROM order_events WHERE order_id = $1', [order.id])).toHaveLength(1);
    const [attempts] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE upgrade_id = $1', [upgradeId]);
    expect(attempts?.n).toBe(1);
  });

  it('two attempts of one upgrade paid at once: applied once, the second money parked for support', async () => {
    const order = await paidOrder();
    const { upgradeId, difference } = (await create(order.id, { pages: 3 })).json() as { upgradeId: string; difference: number };
    const [a, b] = [await sandboxPath(upgradeId, 'fondy'), await sandboxPath(upgradeId, 'paycoreio')];
    await Promise.all([t.app.inject({ method: 'POST', url: `${a}/pay` }), t.app.inject({ method: 'POST', url: `${b}/pay` })]);
    const row = await orderRow(order.id);
    expect(row.pages).toBe(3);
    expect(row.final_price_cents).toBe(2400 + Math.round(difference * 100));
    const m = await money(order.id);
    expect(m.parked).toBe(1);
    expect(m.transactions.map((x) => x.status).sort()).toEqual(['completed', 'unapplied']);
    const [state] = await t.db.query<{ state: string }>('SELECT state FROM order_upgrades WHERE id = $1', [upgradeId]);
    expect(state?.state).toBe('applied');
  });

  it('a declined attempt changes nothing and comes back with ?upgrade=fail', async () => {
    const order = await paidOrder();
    const { upgradeId } = (await create(order.id, { pages: 6 })).json() as { upgradeId: string };
    const path = await sandboxPath(upgradeId, 'paymentwall');
    const decline = await t.app.inject({ method: 'POST', url: `${path}/decline` });
    expect(decline.headers.location).toBe(`/orderinfo/${order.id}/details?upgrade=fail`);
    expect(await orderRow(order.id)).toMatchObject({ pages: 2, final_price_cents: 2400, pending: false });
    expect(await money(order.id)).toEqual({ transactions: [], parked: 0 });
    // Still open: another way to pay works.
    const pay = await t.app.inject({ method: 'POST', url: `${await sandboxPath(upgradeId, 'paypal')}/pay` });
    expect(pay.headers.location).toBe(`/orderinfo/${order.id}/details?upgrade=success`);
    expect((await orderRow(order.id)).pages).toBe(6);
  });

  it('racing identical POSTs make one upgrade; a different one supersedes it, and the old one’s money parks', async () => {
    const order = await paidOrder();
    const twins = await Promise.all([create(order.id, { pages: 3 }), create(order.id, { pages: 3 }), create(order.id, { pages: 3 })]);
    expect(twins.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const ids = new Set(twins.map((r) => (r.json() as { upgradeId: string }).upgradeId));
    expect(ids.size).toBe(1);
    const [first] = [...ids];
    if (!first) throw new Error('no upgrade');
    const oldPath = await sandboxPath(first);

    const second = (await create(order.id, { pages: 5 })).json() as { upgradeId: string };
    expect(second.upgradeId).not.toBe(first);
    const rows = await t.db.query<{ state: string }>('SELECT state FROM order_upgrades WHERE order_id = $1 ORDER BY created_at, id', [
      order.id,
    ]);
    expect(rows.map((r) => r.state).sort()).toEqual(['open', 'superseded']);
    // The superseded upgrade's open attempt was canceled: its late money is parked, nothing applies.
    await t.app.inject({ method: 'POST', url: `${oldPath}/pay` });
    expect((await orderRow(order.id)).pages).toBe(2);
    expect((await money(order.id)).parked).toBe(1);
    expect((await checkout(first)).headers.location).toBe(`/orderinfo/${order.id}/details?upgrade=closed`);

    // The open one pays and applies.
    await t.app.inject({ method: 'POST', url: `${await sandboxPath(second.upgradeId)}/pay` });
    expect((await orderRow(order.id)).pages).toBe(5);
  });

  it('an upgrade whose order moved on (support put it on hold) is not charged again and does not apply', async () => {
    const order = await paidOrder();
    const { upgradeId } = (await create(order.id, { pages: 3 })).json() as { upgradeId: string };
    const path = await sandboxPath(upgradeId);
    await t.db.query('UPDATE orders SET status_id = $2 WHERE id = $1', [order.id, ORDER_STATUS.hold]);
    await t.app.inject({ method: 'POST', url: `${path}/pay` });
    expect(await orderRow(order.id)).toMatchObject({ pages: 2, final_price_cents: 2400 });
    expect((await money(order.id)).parked).toBe(1);
    expect((await checkout(upgradeId)).headers.location).toBe(`/orderinfo/${order.id}/details?upgrade=closed`);
  });

  it('answers 404 for an unknown upgrade id and refuses a malformed one', async () => {
    expect((await checkout('no-such-upgrade-id-here-at-all')).statusCode).toBe(404);
    expect((await checkout('short')).statusCode).toBe(422);
    expect((await checkout('x'.repeat(65))).statusCode).toBe(422);
  });
});
