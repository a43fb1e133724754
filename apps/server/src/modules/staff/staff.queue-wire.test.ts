import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, ORDER_STATUS, ROLE, staffOrderListSchema } from '@app/domain';
import { createAccessTokens } from '../auth';
import { insertDelivery, insertOrder } from '../../testing/factories';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

// ADR 0081 (addendum: a staff page's CPU): the queue's page is written as the service built it
// (`builtAnswerSerializer`), not through zod's second pass. Its body must be exactly what the schema's own
// serialisation of it gives: the schema's fields only, in the schema's key order, each of its type.

let t: TestApp;
let support: string;
let writer: string;

const addUser = async (role: number, email: string, first: string, last: string): Promise<number> => {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id, first_name, last_name) VALUES ($1, $2, 'x', 1, $3, $4) RETURNING id`,
    [role, email, first, last],
  );
  if (!row) throw new Error('no user');
  return row.id;
};

const get = (token: string, query: string) =>
  t.app.inject({ method: 'GET', url: `/api/staff/orders?${query}`, headers: { authorization: `Bearer ${token}` } });

/** What zod's serializer writes for this body: the schema's parse (its fields, its order), stringified. */
const asTheSchemaWritesIt = (body: string): string => JSON.stringify(staffOrderListSchema.parse(JSON.parse(body)));

beforeAll(async () => {
  t = await buildTestApp();
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  const supportId = await addUser(ROLE.support, 'wire.support@example.com', 'Sue', 'Port');
  support = await tokens.sign({ userId: supportId, role: ROLE.support });
  const writerId = await addUser(ROLE.writer, 'wire.writer@example.com', 'Wendy', 'Writer');
  writer = await tokens.sign({ userId: writerId, role: ROLE.writer });
  const named = await addUser(ROLE.customer, 'wire.named@example.com', 'Alice', 'Named');
  const nameless = await addUser(ROLE.customer, 'wire.nameless@example.com', '', '');
  const now = t.clock.now().getTime();
  const at = (hours: number) => new Date(now + hours * 3_600_000);
  // Every shape a row takes: with and without a writer, a delivery awaiting review (reviewBy), an open
  // revision, a customer with and without a name, prices with cents, a deadline due soon.
  const inWork = await insertOrder(t.db, {
    customerId: named,
    status: ORDER_STATUS.inProgress,
    writerId,
    title: 'Wire essay "quoted" \\ and ünïcode',
    finalPriceCents: 12_345,
    createdAt: at(-30),
    deadline: at(20),
  });
  await insertDelivery(t.db, { orderId: inWork.id, customerId: named, writerId, deliveredAt: at(-1) });
  const completed = await insertOrder(t.db, { customerId: nameless, status: ORDER_STATUS.completed, writerId, createdAt: at(-100) });
  await t.db.query(
    `INSERT INTO revisions (order_id, customer_id, status_id, level_id, category_ids, description, deadline, created_at, updated_at)
     VALUES ($1, $2, 1, 1, '{1}', 'Fix the references', $3, $4, $4)`,
    [completed.id, nameless, at(48), at(-1)],
  );
  await insertOrder(t.db, { customerId: nameless, status: ORDER_STATUS.paid, finalPriceCents: 999, createdAt: at(-5), deadline: at(10) });
  await insertOrder(t.db, { customerId: named, status: ORDER_STATUS.unpaid, hidden: true, createdAt: at(-2) });
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/staff/orders: the page as the service built it', () => {
  const views = [
    'limit=20',
    'limit=2&page=2',
    'limit=20&status=3',
    'limit=20&status=2&unassigned=1',
    'limit=20&dueWithin=48',
    'limit=20&q=wire',
  ];

  it("is byte for byte the schema's own serialisation, for support and for a writer, in every view", async () => {
    for (const [token, who] of [
      [support, 'support'],
      [writer, 'writer'],
    ] as const) {
      for (const view of views) {
        const res = await get(token, view);
        expect(res.statusCode, `${who} ${view}: ${res.body}`).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.body, `${who} ${view}`).toBe(asTheSchemaWritesIt(res.body));
      }
    }
  });

  it('carries every kind of row: a review clock, an open revision, a writer, none, names and no names', async () => {
    const page = staffOrderListSchema.parse((await get(support, 'limit=20')).json());
    expect(page.orders.length).toBe(page.total); // the seed's orders and these four, on one page
    expect(page.orders.some((o) => o.reviewBy !== null)).toBe(true);
    expect(page.orders.some((o) => o.openRevision)).toBe(true);
    expect(page.orders.some((o) => o.writerName === 'Wendy Writer')).toBe(true);
    expect(page.orders.some((o) => o.idWriter === null && o.writerName === null)).toBe(true);
    expect(page.orders.map((o) => o.customerName).sort()).toEqual(
      expect.arrayContaining(['Alice Named', expect.stringMatching(/^Customer #\d+$/)]),
    );
    expect(page.orders.find((o) => o.title.startsWith('Wire essay'))?.finalPrice).toBe(123.45);
    // A writer sees their pay and the customer's first name, never the price or the email.
    const mine = staffOrderListSchema.parse((await get(writer, 'limit=20')).json());
    expect(mine.orders.length).toBe(2);
    for (const o of mine.orders) expect([o.finalPrice, o.customerEmail]).toEqual([null, null]);
  });

  it("keeps zod's serializer for the errors", async () => {
    const res = await get(support, 'limit=20&q=ab');
    expect(res.statusCode).toBe(422);
    expect(res.body).toBe(JSON.stringify(errorBodySchema.parse(res.json())));
  });
});
