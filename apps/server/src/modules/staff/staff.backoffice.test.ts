import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ORDER_STATUS,
  ROLE,
  staffOrderListSchema,
  staffOrderViewSchema,
  staffViewCountsSchema,
  staffWriterListSchema,
  type StaffView,
} from '@app/domain';
import { createAccessTokens } from '../auth';
import { insertDelivery, insertOrder } from '../../testing/factories';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

// ADR 0089: the back office: the writer's brief, pay and deadline; support's views and their counts; the
// writer list; the abuse (a writer elsewhere, a customer anywhere, racing assignments).

let t: TestApp;
let support: string;
let writer: string;
let customerToken: string;
let writerId: number;
let otherWriterId: number;
let customerId: number;
let supportId: number;
const HOUR = 3_600_000;

const addUser = async (role: number, email: string, first = '', last = ''): Promise<number> => {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id, first_name, last_name) VALUES ($1, $2, 'x', 1, $3, $4) RETURNING id`,
    [role, email, first, last],
  );
  if (!row) throw new Error('no user');
  return row.id;
};
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const get = (token: string, url: string) => t.app.inject({ method: 'GET', url, headers: auth(token) });
const message = async (orderId: number, chat: 'writer' | 'support', direction: number, senderId: number, at: Date) => {
  const [seq] = await t.db.query<{ n: number }>('SELECT coalesce(max(sequence), 0)::int + 1 AS n FROM messages WHERE order_id = $1', [
    orderId,
  ]);
  await t.db.query(
    `INSERT INTO messages (order_id, customer_id, sequence, chat, direction, sender_id, body, created_at) VALUES ($1, $2, $3, $4, $5, $6, 'hi', $7)`,
    [orderId, customerId, seq?.n ?? 1, chat, direction, senderId, at],
  );
};

const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await buildTestApp();
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  supportId = await addUser(ROLE.support, 'bo.support@example.com', 'Sam', 'Support');
  support = await tokens.sign({ userId: supportId, role: ROLE.support });
  writerId = await addUser(ROLE.writer, 'bo.writer@example.com', 'Wendy', 'Writer');
  otherWriterId = await addUser(ROLE.writer, 'bo.writer2@example.com', 'Otto', 'Other');
  writer = await tokens.sign({ userId: writerId, role: ROLE.writer });
  customerId = await addUser(ROLE.customer, 'mia.customer@example.com', 'Mia', 'Customer');
  customerToken = await tokens.sign({ userId: customerId, role: ROLE.customer });
  const now = t.clock.now().getTime();
  const at = (h: number) => new Date(now + h * HOUR);

  ids.brief = (
    await insertOrder(t.db, {
      customerId,
      status: ORDER_STATUS.inProgress,
      writerId,
      title: 'A very long title about the economic history of the Hanseatic League and its trade routes',
      description: 'Use at least three peer-reviewed sources.',
      createdAt: at(-24),
      deadline: at(216),
      finalPriceCents: 5000,
    })
  ).id;
  await t.db.query(
    `UPDATE orders SET sources = 4, spacing = 1, subject_id = NULL, premium_writer = true, preferred_writer_ids = '{${otherWriterId}}' WHERE id = $1`,
    [ids.brief],
  );
  ids.paidUnassigned = (await insertOrder(t.db, { customerId, status: ORDER_STATUS.paid, createdAt: at(-2), deadline: at(100) })).id;
  ids.dueSoon = (
    await insertOrder(t.db, { customerId, status: ORDER_STATUS.inProgress, writerId: otherWriterId, createdAt: at(-48), deadline: at(5) })
  ).id;
  ids.overdue = (
    await insertOrder(t.db, { customerId, status: ORDER_STATUS.inProgress, writerId, createdAt: at(-48), deadline: at(-1) })
  ).id;
  ids.onHold = (
    await insertOrder(t.db, { customerId, status: ORDER_STATUS.hold, writerId: otherWriterId, createdAt: at(-10), deadline: at(200) })
  ).id;
  ids.completedPast = (
    await insertOrder(t.db, { customerId, status: ORDER_STATUS.completed, writerId, createdAt: at(-500), deadline: at(-300) })
  ).id;
  // The customer wrote to support 20 minutes ago (no reply), and on another order support answered.
  await message(ids.paidUnassigned, 'support', 2, customerId, at(-20 / 60));
  await message(ids.onHold, 'support', 2, customerId, at(-3));
  await message(ids.onHold, 'support', 6, supportId, at(-2));
  // The writer of ids.brief wrote an hour ago; the writer of ids.dueSoon last wrote 9 hours ago.
  await message(ids.brief, 'writer', 3, writerId, at(-1));
  await message(ids.dueSoon, 'writer', 3, otherWriterId, at(-9));
  // An open revision on the completed order, an open extension on the in-progress one.
  await t.db.query(
    `INSERT INTO revisions (order_id, customer_id, status_id, level_id, category_ids, description, deadline, created_at, updated_at)
     VALUES ($1, $2, 1, 1, '{1}', 'Fix the references', $3, $4, $4)`,
    [ids.completedPast, customerId, at(48), at(-1)],
  );
  await t.db.query(
    `INSERT INTO order_extensions (order_id, proposed_by, proposed_by_role, previous_deadline, deadline, reason, answer_by, state, created_at)
     VALUES ($1, $2, 3, $3, $4, 'More sources', $5, 'open', $6)`,
    [ids.brief, writerId, at(216), at(300), at(24), at(-1)],
  );
  // The writers' record: Wendy delivered the completed order on time and got 4.5; Otto is at capacity 1.
  await insertDelivery(t.db, { orderId: ids.completedPast, customerId, writerId, deliveredAt: at(-320) });
  await t.db.query(`INSERT INTO order_reviews (order_id, customer_id, rating_halves) VALUES ($1, $2, 9)`, [ids.completedPast, customerId]);
  await t.db.query(`INSERT INTO writer_profiles (writer_id, capacity, available, updated_at) VALUES ($1, 1, false, now())`, [
    otherWriterId,
  ]);
});
afterAll(async () => t.close());

describe("the writer's order view (ADR 0089)", () => {
  it('carries the whole brief, the pay (not the price) and a deadline before the customer’s', async () => {
    const res = await get(writer, `/api/staff/orders/${ids.brief}`);
    expect(res.statusCode, res.body).toBe(200);
    const view = staffOrderViewSchema.parse(res.json());
    expect(view.title).toBe('A very long title about the economic history of the Hanseatic League and its trade routes');
    expect(view.brief).toMatchObject({
      description: 'Use at least three peer-reviewed sources.',
      pages: 2,
      sources: 4,
      paragraphSpacing: 1,
      subject: null,
      features: { premiumWriter: 2, extraQualityCheck: 1, onePageSummary: 1, originalityReport: 1 },
      preferredWritersList: [otherWriterId],
    });
    expect(view.brief.academicLevel).not.toBeNull();
    expect(view.finalPrice).toBeNull();
    expect(view.pay).toBe(20); // 40 % of 50.00
    expect(view.chargeDue).toBeNull();
    expect(new Date(view.writerDeadline).getTime()).toBe(new Date(view.deadline).getTime() - 12 * HOUR);
    expect(view.customerName).toBe('Mia');
    expect(view.customerEmail).toBeNull();
    expect(view.otherOrders).toEqual([]);
  });

  it('shows support the price, the customer’s name and email, and their other orders, newest first', async () => {
    const view = staffOrderViewSchema.parse((await get(support, `/api/staff/orders/${ids.brief}`)).json());
    expect(view.finalPrice).toBe(50);
    expect(view.customerName).toBe('Mia Customer');
    expect(view.customerEmail).toBe('mia.customer@example.com');
    expect(view.writerName).toBe('Wendy Writer');
    expect(view.otherOrders.map((o) => o.id)).not.toContain(ids.brief);
    expect(view.otherOrders.map((o) => o.id)).toEqual([ids.paidUnassigned, ids.onHold, ids.overdue, ids.dueSoon, ids.completedPast]);
  });

  it('answers 404 to a writer on another writer’s order, and 403 on support routes', async () => {
    expect((await get(writer, `/api/staff/orders/${ids.dueSoon}`)).statusCode).toBe(404);
    expect((await get(writer, `/api/staff/orders/${ids.dueSoon}/files`)).statusCode).toBe(404);
    expect((await get(writer, '/api/staff/writers')).statusCode).toBe(403);
    const assign = await t.app.inject({
      method: 'PUT',
      url: `/api/staff/orders/${ids.paidUnassigned}/writer`,
      headers: auth(writer),
      payload: { idWriter: writerId },
    });
    expect(assign.statusCode).toBe(403);
  });

  it('lists "my orders" by what is due next, orders in work first, with open revisions marked', async () => {
    const body = staffOrderListSchema.parse((await get(writer, '/api/staff/orders?sort=deadline')).json());
    expect(body.orders.map((o) => o.id)).toEqual([ids.overdue, ids.brief, ids.completedPast]);
    expect(body.orders.find((o) => o.id === ids.completedPast)?.openRevision).toBe(true);
    expect(body.orders.find((o) => o.id === ids.brief)?.openRevision).toBe(false);
    expect(body.orders.every((o) => o.finalPrice === null && o.customerEmail === null)).toBe(true);
  });
});

describe("support's views (ADR 0089)", () => {
  const expected: Record<StaffView, () => number[]> = {
    paidUnassigned: () => [ids.paidUnassigned!],
    dueSoon: () => [ids.dueSoon!],
    overdue: () => [ids.overdue!],
    onHold: () => [ids.onHold!],
    awaitingSupport: () => [ids.paidUnassigned!],
    writerSilent: () => [ids.dueSoon!],
    revisionsDue: () => [ids.completedPast!],
    extensionRequests: () => [ids.brief!],
    disputes: () => [],
  };

  it('counts each view, and lists exactly the counted orders', async () => {
    const res = await get(support, '/api/staff/views');
    expect(res.statusCode, res.body).toBe(200);
    const counts = staffViewCountsSchema.parse(res.json()).views;
    const mine = new Set(Object.values(ids));
    for (const [view, orders] of Object.entries(expected) as [StaffView, () => number[]][]) {
      const listed = staffOrderListSchema.parse((await get(support, `/api/staff/orders?view=${view}&limit=100`)).json());
      // The seeded demo orders are in the database too: this file's orders are the ones it expects.
      const listedIds = listed.orders.map((o) => o.id);
      expect(
        listedIds.filter((id) => mine.has(id)).sort((a, b) => a - b),
        view,
      ).toEqual(orders());
      const count = counts.find((c) => c.view === view)?.count;
      expect(count, view).toBe(listed.total);
      expect(listed.total, view).toBe(listedIds.length);
    }
  });

  it("counts a writer's views over their own orders only", async () => {
    const counts = staffViewCountsSchema.parse((await get(writer, '/api/staff/views')).json()).views;
    expect(counts.find((c) => c.view === 'overdue')?.count).toBe(1);
    expect(counts.find((c) => c.view === 'dueSoon')?.count).toBe(0);
    expect(counts.find((c) => c.view === 'revisionsDue')?.count).toBe(1);
  });

  it('sorts by deadline and searches by the customer’s email', async () => {
    const byDeadline = staffOrderListSchema.parse((await get(support, '/api/staff/orders?sort=deadline')).json());
    const deadlines = byDeadline.orders.map((o) => new Date(o.deadline).getTime());
    expect(deadlines).toEqual([...deadlines].sort((a, b) => a - b));
    const found = staffOrderListSchema.parse((await get(support, '/api/staff/orders?q=mia.customer&view=onHold')).json());
    expect(found.orders.map((o) => o.id)).toEqual([ids.onHold]);
  });

  it('refuses an unknown view (422)', async () => {
    expect((await get(support, '/api/staff/orders?view=everything')).statusCode).toBe(422);
  });
});

describe('the writer list (CONTRACT "Staff side")', () => {
  it('gives each writer their workload and record, searchable by name', async () => {
    const res = await get(support, '/api/staff/writers');
    expect(res.statusCode, res.body).toBe(200);
    const writers = staffWriterListSchema.parse(res.json()).writers.filter((w) => [writerId, otherWriterId].includes(w.id));
    expect(writers).toEqual([
      {
        id: otherWriterId,
        firstName: 'Otto',
        lastName: 'Other',
        activeOrders: 2,
        capacity: 1,
        available: false,
        rating: null,
        onTimeRate: null,
      },
      { id: writerId, firstName: 'Wendy', lastName: 'Writer', activeOrders: 2, capacity: 5, available: true, rating: 4.5, onTimeRate: 1 },
    ]);
    const found = staffWriterListSchema.parse((await get(support, '/api/staff/writers?q=wEnd')).json());
    expect(found.writers.map((w) => w.id)).toEqual([writerId]);
  });
});

describe('a customer token on the new staff routes', () => {
  it('gets 404 from each', async () => {
    for (const url of ['/api/staff/views', '/api/staff/writers', `/api/staff/orders/${ids.brief}`, '/api/staff/orders?view=overdue']) {
      expect((await get(customerToken, url)).statusCode, url).toBe(404);
    }
  });
});

describe('racing assignments', () => {
  it('leave one writer and one move to in progress', async () => {
    const { id } = await insertOrder(t.db, { customerId, status: ORDER_STATUS.paid });
    const assign = (idWriter: number) =>
      t.app.inject({ method: 'PUT', url: `/api/staff/orders/${id}/writer`, headers: auth(support), payload: { idWriter } });
    const answers = await Promise.all([assign(writerId), assign(otherWriterId), assign(writerId)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const [row] = await t.db.query<{ writer_id: number; status_id: number }>('SELECT writer_id, status_id FROM orders WHERE id = $1', [id]);
    expect([writerId, otherWriterId]).toContain(row?.writer_id);
    expect(row?.status_id).toBe(ORDER_STATUS.inProgress);
    const moves = await t.db.query('SELECT 1 FROM order_status_history WHERE order_id = $1 AND status_id = $2', [
      id,
      ORDER_STATUS.inProgress,
    ]);
    expect(moves).toHaveLength(1);
  });
});
