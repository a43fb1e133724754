import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, ORDER_STATUS, orderListSchema, ROLE } from '@app/domain';
import { insertCustomer, insertDelivery, insertOrder } from '../../testing/factories';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

// ADR 0081 (addendum, branch customer-lean): the customer's list page is written as the service built it
// (`builtAnswerSerializer`), not through zod's second pass. Its body must be exactly what the schema's own
// serialisation of it gives: the schema's fields only, in the schema's key order, each of its type.

let t: TestApp;
let token: string;

const get = (query: string, category = 1) =>
  t.app.inject({
    method: 'GET',
    url: `/api/en/sites/categories/${category}/orders?${query}`,
    headers: { authorization: `Bearer ${token}` },
  });

/** What zod's serializer writes for this body: the schema's parse (its fields, its order), stringified. */
const asTheSchemaWritesIt = (body: string): string => JSON.stringify(orderListSchema.parse(JSON.parse(body)));

beforeAll(async () => {
  t = await buildTestApp();
  const customer = await insertCustomer(t, 'list.wire@example.com');
  token = customer.token;
  const customerId = customer.id;
  const [writer] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id, first_name, last_name) VALUES ($1, 'list.wire.writer@example.com', 'x', 1, 'W', 'R') RETURNING id`,
    [ROLE.writer],
  );
  if (!writer) throw new Error('no writer');
  const now = t.clock.now().getTime();
  const at = (hours: number) => new Date(now + hours * 3_600_000);
  // Every shape a card takes: a delivery awaiting review (reviewBy), unread messages, feedback given, a
  // revision in work, completed and not, pending, hidden, prices with cents, quotes and non-ASCII titles,
  // other site categories.
  const inWork = await insertOrder(t.db, {
    customerId,
    status: ORDER_STATUS.inProgress,
    writerId: writer.id,
    title: 'Wire essay "quoted" \\ and ünïcode',
    finalPriceCents: 12_345,
    createdAt: at(-30),
    deadline: at(20),
  });
  await insertDelivery(t.db, { orderId: inWork.id, customerId, writerId: writer.id, deliveredAt: at(-1) });
  await t.db.query(
    `INSERT INTO chat_sequences (order_id, last_sequence, staff_writer, staff_support, customer_read_writer, customer_read_support)
     VALUES ($1, 6, 3, 2, 1, 1)`,
    [inWork.id],
  );
  const reviewed = await insertOrder(t.db, {
    customerId,
    status: ORDER_STATUS.completed,
    writerId: writer.id,
    createdAt: at(-200),
    completedAt: at(-100),
    siteCategory: 3,
  });
  await t.db.query(`INSERT INTO order_reviews (order_id, customer_id, rating_halves) VALUES ($1, $2, 9)`, [reviewed.id, customerId]);
  const revised = await insertOrder(t.db, {
    customerId,
    status: ORDER_STATUS.completed,
    writerId: writer.id,
    createdAt: at(-150),
    completedAt: at(-50),
  });
  await t.db.query(
    `INSERT INTO revisions (order_id, customer_id, status_id, level_id, category_ids, description, deadline, created_at, updated_at)
     VALUES ($1, $2, 1, 1, '{1}', 'Fix the references', $3, $4, $4)`,
    [revised.id, customerId, at(48), at(-1)],
  );
  const pending = await insertOrder(t.db, {
    customerId,
    status: ORDER_STATUS.unpaid,
    finalPriceCents: 999,
    createdAt: at(-5),
    siteCategory: 4,
  });
  await t.db.query(`UPDATE orders SET pending = true WHERE id = $1`, [pending.id]);
  await insertOrder(t.db, { customerId, status: ORDER_STATUS.paid, title: 'Wire paid', createdAt: at(-3) });
  await insertOrder(t.db, { customerId, status: ORDER_STATUS.canceled, hidden: true, title: 'Wire hidden', createdAt: at(-2) });
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/en/sites/categories/:category/orders: the page as the service built it', () => {
  const views = [
    '',
    'limit=20',
    'limit=2&page=2',
    `status=${ORDER_STATUS.completed}`,
    'q=wire',
    'q=%C3%BCn%C3%AFcode',
    'hidden=1',
    'dateFrom=2000-01-01&dateTo=2100-01-01',
    'limit=20&page=50',
  ];

  it("is byte for byte the schema's own serialisation, in every view", async () => {
    for (const view of views) {
      for (const category of [1, 3]) {
        const res = await get(view, category);
        expect(res.statusCode, `${view}: ${res.body}`).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.body, `${category} ${view}`).toBe(asTheSchemaWritesIt(res.body));
      }
    }
  });

  it('carries every kind of card: a review clock, unread messages, feedback, a revision, pending, hidden, cents', async () => {
    const page = orderListSchema.parse((await get('limit=20')).json());
    expect(page.orders.length).toBe(page.total);
    expect(page.orders.length).toBe(5);
    expect(page.orders.some((o) => o.reviewBy !== null)).toBe(true);
    expect(page.orders.some((o) => o.unread > 0)).toBe(true);
    expect(page.orders.some((o) => o.reviewed)).toBe(true);
    expect(page.orders.some((o) => o.activeRevision)).toBe(true);
    expect(page.orders.some((o) => o.pending)).toBe(true);
    expect(page.orders.some((o) => o.completedAt !== null)).toBe(true);
    expect(page.orders.find((o) => o.title.startsWith('Wire essay'))?.finalPrice).toBe(123.45);
    const hidden = orderListSchema.parse((await get('hidden=1')).json());
    expect(hidden.orders.map((o) => o.hidden)).toEqual(['YES']);
  });

  it("keeps zod's serializer for the errors", async () => {
    for (const [query, category, status] of [
      ['limit=101', 1, 422],
      ['', 99, 404],
    ] as const) {
      const res = await get(query, category);
      expect(res.statusCode).toBe(status);
      expect(res.body).toBe(JSON.stringify(errorBodySchema.parse(res.json())));
    }
  });
});
