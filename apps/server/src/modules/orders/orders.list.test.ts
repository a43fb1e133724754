import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderListItemSchema, orderListSchema, ROLE } from '@app/domain';
import { createAccessTokens } from '../auth';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertCustomer, insertOrder as storeOrder } from '../../testing/factories';

let t: TestApp;
let tokenFor: (userId: number, role?: number) => Promise<string>;
let meId: number;
let me: string;
let other: string;
let otherOrderId: number;
/** The customer's orders as inserted, newest first (the list's order). */
const mine: { id: number; title: string; status: number; hidden: boolean; createdAt: string; category: number }[] = [];

const newCustomer = async (email: string): Promise<number> => (await insertCustomer(t, email)).id;

const insertOrder = async (o: {
  customerId: number;
  title: string;
  status: number;
  createdAt: string;
  hidden?: boolean;
  category?: number;
}): Promise<number> => {
  const row = await storeOrder(t.db, {
    customerId: o.customerId,
    siteCategory: o.category ?? 1,
    title: o.title,
    status: o.status,
    hidden: o.hidden ?? false,
    createdAt: o.createdAt,
    finalPriceCents: 2450,
  });
  return row.id;
};

// Fifteen visible orders over March 2025 and two hidden ones; the date-range edges sit on 1 and 2 March.
const SEED = [
  { title: 'Essay on Microplastics in Rivers', status: 1, createdAt: '2025-02-28T23:59:59.999Z' },
  { title: 'Day one starts', status: 2, createdAt: '2025-03-01T00:00:00.000Z' },
  { title: 'Day one ends', status: 3, createdAt: '2025-03-01T23:59:59.999Z' },
  { title: 'Day two starts', status: 5, createdAt: '2025-03-02T00:00:00.000Z' },
  { title: 'Discount of 100% off_the_record', status: 5, createdAt: '2025-03-03T10:00:00.000Z' },
  { title: 'Resume for a designer', status: 7, createdAt: '2025-03-04T10:00:00.000Z', category: 3 },
  { title: 'Thesis chapter two', status: 8, createdAt: '2025-03-05T10:00:00.000Z', category: 4 },
  { title: 'Blog post about MICROPLASTICS', status: 9, createdAt: '2025-03-06T10:00:00.000Z', category: 5 },
  { title: 'Lab report', status: 11, createdAt: '2025-03-07T10:00:00.000Z' },
  { title: 'Case study', status: 1, createdAt: '2025-03-08T10:00:00.000Z' },
  { title: 'Book review', status: 1, createdAt: '2025-03-09T10:00:00.000Z' },
  { title: 'Research proposal', status: 2, createdAt: '2025-03-10T10:00:00.000Z' },
  { title: 'Annotated bibliography', status: 3, createdAt: '2025-03-11T10:00:00.000Z' },
  { title: 'Speech', status: 1, createdAt: '2025-03-12T10:00:00.000Z' },
  { title: 'Reflection paper', status: 2, createdAt: '2025-03-13T10:00:00.000Z' },
  { title: 'Hidden coursework', status: 5, createdAt: '2025-03-14T10:00:00.000Z', hidden: true },
  { title: 'Hidden microplastics memo', status: 1, createdAt: '2025-03-01T12:00:00.000Z', hidden: true },
] as const;
const VISIBLE = SEED.filter((o) => !('hidden' in o)).length;

beforeAll(async () => {
  t = await buildTestApp();
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  tokenFor = (userId, role = ROLE.customer) => tokens.sign({ userId, role });
  meId = await newCustomer('lister@example.com');
  const otherId = await newCustomer('lister.other@example.com');
  me = await tokenFor(meId);
  other = await tokenFor(otherId);
  for (const o of SEED) {
    const hidden = 'hidden' in o;
    const category = 'category' in o ? o.category : 1;
    const id = await insertOrder({ customerId: meId, title: o.title, status: o.status, createdAt: o.createdAt, hidden, category });
    mine.push({ id, title: o.title, status: o.status, hidden, createdAt: o.createdAt, category });
  }
  mine.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
  // Another customer's order with a matching title and date: it must never show.
  otherOrderId = await insertOrder({
    customerId: otherId,
    title: 'Microplastics by someone else',
    status: 1,
    createdAt: '2025-03-01T10:00:00.000Z',
  });
});
afterAll(async () => {
  await t.close();
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const list = async (query: Record<string, string | number> = {}, opts: { token?: string; category?: string | number } = {}) => {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return t.app.inject({
    method: 'GET',
    url: `/api/en/sites/categories/${opts.category ?? 1}/orders${qs ? `?${qs}` : ''}`,
    headers: auth(opts.token ?? me),
  });
};
const listed = async (query: Record<string, string | number> = {}) => {
  const res = await list(query);
  expect(res.statusCode).toBe(200);
  const body = orderListSchema.parse(res.json());
  return { ids: body.orders.map((o) => o.id), total: body.total, orders: body.orders };
};
const visible = () => mine.filter((o) => !o.hidden);
const idsWhere = (pred: (o: (typeof mine)[number]) => boolean) =>
  visible()
    .filter(pred)
    .map((o) => o.id);

describe('GET /api/en/sites/categories/{category}/orders', () => {
  it('lists the visible orders of every category, newest first, 12 a page, with the total of every match', async () => {
    const { ids, total } = await listed();
    expect(total).toBe(VISIBLE);
    expect(ids).toEqual(
      visible()
        .slice(0, 12)
        .map((o) => o.id),
    );
    expect(new Set(visible().map((o) => o.category))).toEqual(new Set([1, 3, 4, 5]));
  });

  it('serves page 2 with the rest, and a page past the end empty with the same total', async () => {
    const page2 = await listed({ page: 2 });
    expect(page2.total).toBe(VISIBLE);
    expect(page2.ids).toEqual(
      visible()
        .slice(12)
        .map((o) => o.id),
    );
    const past = await listed({ page: 9 });
    expect(past).toMatchObject({ ids: [], total: VISIBLE });
  });

  it('pages by the limit asked for', async () => {
    const { ids, total } = await listed({ limit: 5, page: 3 });
    expect(total).toBe(VISIBLE);
    expect(ids).toEqual(
      visible()
        .slice(10, 15)
        .map((o) => o.id),
    );
  });

  it('answers each item with the card fields (SPEC §3) and unread 0', async () => {
    const { orders } = await listed({ limit: 1 });
    const [first] = orders;
    const newest = visible()[0];
    expect(first).toEqual({
      id: newest?.id,
      uid: expect.any(String),
      title: 'Reflection paper',
      workType: { id: 1, name: expect.any(String) },
      siteCategory: 1,
      status: 2,
      orderStatus: { id: 2, name: 'Paid' },
      deadline: '2025-03-23T10:00:00.000Z',
      dateCreated: '2025-03-13T10:00:00.000Z',
      finalPrice: 24.5,
      hidden: 'no',
      pending: false,
      pages: 2,
      unread: 0,
      // ADR 0084: a delivery awaiting review carries its review date; none here.
      reviewBy: null,
      // Issue 27: a paid order is neither reviewed, nor revised, nor completed.
      reviewed: false,
      activeRevision: false,
      completedAt: null,
    });
    expect(first?.workType.name).not.toBe('');
  });

  it('filters by one status', async () => {
    const { ids, total } = await listed({ status: 1 });
    expect(ids).toEqual(idsWhere((o) => o.status === 1));
    expect(total).toBe(ids.length);
    expect(ids.length).toBe(4);
  });

  it('searches the title case-insensitively, matching % and _ literally', async () => {
    expect((await listed({ q: 'microPLASTICS' })).ids).toEqual(idsWhere((o) => /microplastics/i.test(o.title)));
    expect((await listed({ q: '100% off_the' })).ids).toEqual(idsWhere((o) => o.title.startsWith('Discount')));
    expect((await listed({ q: '1%0' })).ids).toEqual([]);
    expect((await listed({ q: 'a_b' })).ids).toEqual([]);
  });

  it('searches by order id, with or without #', async () => {
    const target = visible()[4];
    if (!target) throw new Error('no target');
    expect((await listed({ q: String(target.id) })).ids).toContain(target.id);
    expect((await listed({ q: `#${target.id}` })).ids).toContain(target.id);
    expect((await listed({ q: String(otherOrderId) })).ids).toEqual([]);
  });

  it('filters by idOrder', async () => {
    const target = visible()[2];
    if (!target) throw new Error('no target');
    expect(await listed({ idOrder: target.id })).toMatchObject({ ids: [target.id], total: 1 });
    expect(await listed({ idOrder: otherOrderId })).toMatchObject({ ids: [], total: 0 });
  });

  it('includes both days of the date range, in UTC, and nothing outside it', async () => {
    const { ids } = await listed({ dateFrom: '2025-03-01', dateTo: '2025-03-01' });
    expect(ids).toEqual(idsWhere((o) => o.title.startsWith('Day one')));
    expect(ids.length).toBe(2);
    const twoDays = await listed({ dateFrom: '2025-03-01', dateTo: '2025-03-02' });
    expect(twoDays.ids).toEqual(idsWhere((o) => o.title.startsWith('Day ')));
    expect((await listed({ dateTo: '2025-02-28' })).ids).toEqual(idsWhere((o) => o.title.startsWith('Essay')));
    expect((await listed({ dateFrom: '2025-03-13' })).ids).toEqual(idsWhere((o) => o.title === 'Reflection paper'));
  });

  it('combines filters: status, search and date range together', async () => {
    const { ids, total } = await listed({ status: 9, q: 'micro', dateFrom: '2025-03-06', dateTo: '2025-03-06' });
    expect(ids).toEqual(idsWhere((o) => o.title === 'Blog post about MICROPLASTICS'));
    expect(total).toBe(1);
  });

  it('lists hidden orders only with hidden=1, and leaves them out otherwise', async () => {
    const hidden = await listed({ hidden: 1 });
    expect(hidden.ids).toEqual(mine.filter((o) => o.hidden).map((o) => o.id));
    expect(hidden.orders.every((o) => o.hidden === 'YES')).toBe(true);
    expect((await listed({ hidden: 0 })).total).toBe(VISIBLE);
    expect((await listed({ q: 'hidden' })).ids).toEqual([]);
    expect((await listed({ hidden: 1, q: 'microplastics' })).ids).toEqual(
      mine.filter((o) => o.title === 'Hidden microplastics memo').map((o) => o.id),
    );
  });

  it('refuses a limit over 100, a page of 0 and a date that is not a calendar day (422)', async () => {
    expect((await list({ limit: 101 })).statusCode).toBe(422);
    expect((await list({ limit: 100 })).statusCode).toBe(200);
    expect((await list({ page: 0 })).statusCode).toBe(422);
    expect((await list({ dateFrom: '2025-02-30' })).statusCode).toBe(422);
    expect((await list({ dateTo: '03/01/2025' })).statusCode).toBe(422);
  });

  it('answers the same list under any site category, and 404 for a category that does not exist', async () => {
    const under3 = await list({}, { category: 3 });
    expect(under3.statusCode).toBe(200);
    expect(under3.json()).toEqual((await list()).json());
    expect((await list({}, { category: 9 })).statusCode).toBe(404);
    expect((await list({}, { category: 'x' })).statusCode).toBe(404);
  });

  it("never shows another customer's orders", async () => {
    const res = await list({}, { token: other });
    expect(orderListSchema.parse(res.json())).toMatchObject({ total: 1, orders: [{ id: otherOrderId }] });
  });

  it('answers 401 without a token and 404 to a staff token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/en/sites/categories/1/orders' })).statusCode).toBe(401);
    expect((await list({}, { token: await tokenFor(meId, ROLE.support) })).statusCode).toBe(404);
  });
});

describe('PUT /api/en/orders/{id}/hide and /unhide', () => {
  const put = (id: number | string, action: 'hide' | 'unhide', token = me) =>
    t.app.inject({ method: 'PUT', url: `/api/en/orders/${id}/${action}`, headers: auth(token) });
  const count = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/en/orders/count', headers: auth(me) })).json<{ total: number }>();

  it('hides an order: it leaves the list and the count, and shows under hidden=1; unhide brings it back', async () => {
    const target = visible()[0];
    if (!target) throw new Error('no target');
    const before = await count();

    const hidden = await put(target.id, 'hide');
    expect(hidden.statusCode).toBe(200);
    expect(orderListItemSchema.parse(hidden.json())).toMatchObject({ id: target.id, hidden: 'YES' });
    expect((await listed()).ids).not.toContain(target.id);
    expect((await listed()).total).toBe(VISIBLE - 1);
    expect((await listed({ hidden: 1 })).ids).toContain(target.id);
    expect((await count()).total).toBe(before.total - 1);

    const shown = await put(target.id, 'unhide');
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ id: target.id, hidden: 'no' });
    expect((await listed()).ids[0]).toBe(target.id);
    expect(await count()).toEqual(before);
  });

  it("answers 404 for another customer's order and changes nothing", async () => {
    const res = await put(otherOrderId, 'hide');
    expect(res.statusCode).toBe(404);
    const [row] = await t.db.query<{ hidden: boolean }>('SELECT hidden FROM orders WHERE id = $1', [otherOrderId]);
    expect(row?.hidden).toBe(false);
    expect((await put(otherOrderId, 'unhide')).statusCode).toBe(404);
  });

  it('answers 404 for an id that does not exist or is not a number, 401 without a token', async () => {
    expect((await put(2_000_000_000, 'hide')).statusCode).toBe(404);
    expect((await put('abc', 'hide')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: `/api/en/orders/${otherOrderId}/hide` })).statusCode).toBe(401);
  });
});

describe('issue 27: what a card needs for its actions', () => {
  it('says whether a completed order has feedback and an active revision, and when it was completed', async () => {
    const customerId = await newCustomer('lister.cards@example.com');
    const token = await tokenFor(customerId);
    const completedAt = '2025-04-01T10:00:00.000Z';
    const ids: Record<string, number> = {};
    for (const [name, status] of [
      ['plain', 5],
      ['reviewed', 5],
      ['revising', 5],
      ['closedRevision', 5],
      ['paid', 2],
    ] as const) {
      ids[name] = (
        await storeOrder(t.db, { customerId, title: name, status, completedAt: status === 5 ? new Date(completedAt) : null })
      ).id;
    }
    await t.db.query('INSERT INTO order_reviews (order_id, customer_id, rating_halves) VALUES ($1, $2, 9)', [ids.reviewed, customerId]);
    const revision = `INSERT INTO revisions (order_id, customer_id, status_id, level_id, category_ids, description, deadline, created_at, updated_at)
      VALUES ($1, $2, $3, 1, '{1}', 'Fix the intro', now(), now(), now())`;
    await t.db.query(revision, [ids.revising, customerId, 2]);
    // A completed (5) revision is not active: Request revision stays available.
    await t.db.query(revision, [ids.closedRevision, customerId, 5]);

    const res = await list({}, { token });
    expect(res.statusCode).toBe(200);
    const byTitle = new Map(orderListSchema.parse(res.json()).orders.map((o) => [o.title, o]));
    const facts = (title: string) => {
      const o = byTitle.get(title);
      return o && { reviewed: o.reviewed, activeRevision: o.activeRevision, completedAt: o.completedAt };
    };
    expect(facts('plain')).toEqual({ reviewed: false, activeRevision: false, completedAt });
    expect(facts('reviewed')).toEqual({ reviewed: true, activeRevision: false, completedAt });
    expect(facts('revising')).toEqual({ reviewed: false, activeRevision: true, completedAt });
    expect(facts('closedRevision')).toEqual({ reviewed: false, activeRevision: false, completedAt });
    expect(facts('paid')).toEqual({ reviewed: false, activeRevision: false, completedAt: null });
  });
});
