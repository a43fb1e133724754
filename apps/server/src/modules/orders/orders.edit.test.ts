import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultOrderForm, orderDetailSchema, toOrderBody, type OrderFormValues } from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertCustomer } from '../../testing/factories';

let t: TestApp;
let me: string;
let other: string;
let writerId: number;

beforeAll(async () => {
  t = await buildTestApp();
  me = (await insertCustomer(t, 'editor@example.com')).token;
  other = (await insertCustomer(t, 'intruder@example.com')).token;
  const [writer] = await t.db.query<{ id: number }>(`SELECT id FROM users WHERE email = 'writer@example.com'`);
  writerId = writer?.id ?? 0;
});
afterAll(async () => {
  await t.close();
});

const body = (overrides: Partial<OrderFormValues> = {}, category = 1) =>
  toOrderBody(
    { ...defaultOrderForm(category), subject: 4, title: 'Urban Heat Islands', details: 'Explain causes and mitigation.', ...overrides },
    category,
  );
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const create = async (overrides: Partial<OrderFormValues> = {}): Promise<{ id: number; uid: string }> => {
  const res = await t.app.inject({ method: 'POST', url: '/api/en/sites/categories/1/orders', headers: auth(me), payload: body(overrides) });
  expect(res.statusCode).toBe(200);
  return res.json();
};
const update = (id: number, payload: object, opts: { token?: string; query?: string; category?: number } = {}) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/en/sites/categories/${opts.category ?? 1}/orders/${id}${opts.query ?? ''}`,
    headers: auth(opts.token ?? me),
    payload: payload as Record<string, unknown>,
  });
const setStatus = (id: number, status: number) => t.db.query('UPDATE orders SET status_id = $1 WHERE id = $2', [status, id]);
const getOrder = (id: number | string, token = me) => t.app.inject({ method: 'GET', url: `/api/en/orders/${id}`, headers: auth(token) });

describe('PUT …/orders/{id}', () => {
  it('edits an unpaid order and prices it again', async () => {
    const { id, uid } = await create({ pages: 1 });
    const before = (await getOrder(id)).json();
    const res = await update(id, body({ pages: 4, title: 'Urban Heat Islands in <i>Phoenix</i>' }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id, uid });
    const after = (await getOrder(id)).json();
    expect(after.pages).toBe(4);
    expect(after.title).toBe('Urban Heat Islands in Phoenix');
    expect(after.finalPrice).toBeCloseTo(before.finalPrice * 4, 2);
  });

  it('answers 409 for a paid order and changes nothing', async () => {
    const { id } = await create();
    await setStatus(id, 2);
    const res = await update(id, body({ pages: 9 }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: expect.any(String) });
    expect((await getOrder(id)).json().pages).toBe(1);
  });

  it('edits a modified order (10) only with forceEditing, as a query parameter or a body flag', async () => {
    const { id } = await create();
    await setStatus(id, 10);
    expect((await update(id, body({ pages: 2 }))).statusCode).toBe(409);
    expect((await update(id, body({ pages: 2 }), { query: '?forceEditing=1' })).statusCode).toBe(200);
    expect((await update(id, { ...body({ pages: 3 }), forceEditing: true })).statusCode).toBe(200);
    const order = (await getOrder(id)).json();
    expect(order.pages).toBe(3);
    expect(order.status).toBe(10);
  });

  it('forceEditing does not open a paid order', async () => {
    const { id } = await create();
    await setStatus(id, 3);
    expect((await update(id, body(), { query: '?forceEditing=1' })).statusCode).toBe(409);
  });

  it("answers 404 for another customer's order, an unknown id and another category", async () => {
    const { id } = await create();
    expect((await update(id, body(), { token: other })).statusCode).toBe(404);
    expect((await update(999_999, body())).statusCode).toBe(404);
    expect((await update(id, body({}, 4), { category: 4 })).statusCode).toBe(404);
  });

  it('answers the SPEC §8 field errors like creation', async () => {
    const { id } = await create();
    const res = await update(id, body({ details: 'short', discountCode: 'NOPE' }));
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['discountCode', 'paperDetails']);
  });
});

describe('GET /api/en/orders/{id}', () => {
  it('answers SPEC §3 "Order" with names, features as 1/2, hidden as YES/no and the status history oldest first', async () => {
    const { id, uid } = await create({ level: 3, premiumWriter: true, discountCode: 'TOPWRITER20', pages: 2 });
    t.clock.advance(60_000);
    await t.db.query(`INSERT INTO order_status_history (order_id, status_id, created_at) VALUES ($1, 2, $2)`, [id, t.clock.now()]);
    await setStatus(id, 2);
    const res = await getOrder(id);
    expect(res.statusCode).toBe(200);
    const order = orderDetailSchema.parse(res.json());
    expect(order).toMatchObject({
      id,
      uid,
      title: 'Urban Heat Islands',
      siteCategory: 1,
      workType: { id: 1, name: 'Writing' },
      status: 2,
      orderStatus: { id: 2, name: 'Paid' },
      hidden: 'no',
      activeRevision: null,
      feedback: null,
      fileForDownload: null,
      features: { premiumWriter: 2, extraQualityCheck: 1, onePageSummary: 1, originalityReport: 1 },
      academicLevel: { id: 3, name: 'University' },
      resumeLevel: null,
      thesisLevel: null,
      paragraphSpacing: 2,
      urgency: 240,
      idWriter: null,
      discount: { code: 'TOPWRITER20', amount: order.price.priceDiscount },
    });
    expect(order.assignment).toEqual({ id: 1, name: 'Essay (any type)' });
    expect(order.finalPrice).toBe(order.price.finalPrice);
    expect(order.statusHistory.map((h) => h.status)).toEqual([1, 2]);
    expect(order.deadline).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  });

  it("answers 404 for another customer's order and for ids that are not ids", async () => {
    const { id } = await create();
    expect((await getOrder(id, other)).statusCode).toBe(404);
    expect((await getOrder('abc')).statusCode).toBe(404);
    expect((await getOrder('0')).statusCode).toBe(404);
  });

  it('shows hidden orders as YES', async () => {
    const { id } = await create();
    await t.db.query('UPDATE orders SET hidden = true WHERE id = $1', [id]);
    expect((await getOrder(id)).json().hidden).toBe('YES');
  });
});

describe('GET /api/en/orders/uid/{uid}', () => {
  it("answers the id of the customer's order, 404 for another customer's", async () => {
    const { id, uid } = await create();
    const res = await t.app.inject({ method: 'GET', url: `/api/en/orders/uid/${uid}`, headers: auth(me) });
    expect(res.json()).toEqual({ id });
    expect((await t.app.inject({ method: 'GET', url: `/api/en/orders/uid/${uid}`, headers: auth(other) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/en/orders/uid/nope', headers: auth(me) })).statusCode).toBe(404);
  });
});

describe('GET /api/en/customers/customer/preferred_writers', () => {
  it('lists the writers of paid orders once each, with the premium flag', async () => {
    const url = '/api/en/customers/customer/preferred_writers';
    expect((await t.app.inject({ method: 'GET', url, headers: auth(me) })).json()).toEqual([]);
    const unpaid = await create();
    await t.db.query('UPDATE orders SET writer_id = $1 WHERE id = $2', [writerId, unpaid.id]);
    expect((await t.app.inject({ method: 'GET', url, headers: auth(me) })).json()).toEqual([]);
    for (const status of [2, 5]) {
      const { id } = await create();
      await t.db.query('UPDATE orders SET writer_id = $1, status_id = $2 WHERE id = $3', [writerId, status, id]);
    }
    expect((await t.app.inject({ method: 'GET', url, headers: auth(me) })).json()).toEqual([{ idWriter: writerId, isPremium: true }]);
    expect((await t.app.inject({ method: 'GET', url, headers: auth(other) })).json()).toEqual([]);
  });

  it('lets the customer name a previous writer as preferred, priced as the preferred-writer extra', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/en/sites/categories/1/orders',
      headers: auth(me),
      payload: body({ preferredWriters: [writerId] }),
    });
    expect(res.statusCode).toBe(200);
    const order = (await getOrder(res.json().id)).json();
    expect(order.preferredWritersList).toEqual([writerId]);
    expect(order.price.pricePreferedWriter).toBeGreaterThan(0);
  });
});
