import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATUS, ROLE, staffOrderListSchema, type StaffOrderList } from '@app/domain';
import { createAccessTokens } from '../auth';
import { insertOrder } from '../../testing/factories';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

// ADR 0081: staff's queue at scale: pages read from either end of the index, counts kept by the orders
// table's counters, and the console's views (unassigned, due within N hours, search).

let t: TestApp;
let support: string;
let writer: string;
let writerId: number;
let otherWriterId: number;
let aliceId: number;
let bobId: number;
const HOUR = 3_600_000;

const addUser = async (role: number, email: string): Promise<number> => {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id) VALUES ($1, $2, 'x', 1) RETURNING id`,
    [role, email],
  );
  if (!row) throw new Error('no user');
  return row.id;
};

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const queue = (token: string, query: string) => t.app.inject({ method: 'GET', url: `/api/staff/orders?${query}`, headers: auth(token) });
const list = async (token: string, query: string): Promise<StaffOrderList> => {
  const res = await queue(token, query);
  expect(res.statusCode, res.body).toBe(200);
  return staffOrderListSchema.parse(res.json());
};
/** Every page of a view, walked with `limit`, joined: what a console paging to the end would show. */
const walk = async (token: string, query: string, limit: number): Promise<{ ids: number[]; totals: number[] }> => {
  const first = await list(token, `${query}&limit=${limit}&page=1`);
  const pages = Math.max(1, Math.ceil(first.total / limit));
  const ids = first.orders.map((o) => o.id);
  const totals = [first.total];
  for (let page = 2; page <= pages; page++) {
    const body = await list(token, `${query}&limit=${limit}&page=${page}`);
    ids.push(...body.orders.map((o) => o.id));
    totals.push(body.total);
  }
  return { ids, totals };
};
const idsOf = async (sql: string, params: unknown[] = []): Promise<number[]> =>
  (await t.db.query<{ id: number }>(sql, params)).map((r) => Number(r.id));
const countsMatchTheTable = async (): Promise<void> => {
  const kept = await t.db.query<{ status_id: number; orders: number }>(
    'SELECT status_id, orders::int AS orders FROM order_status_counts WHERE orders <> 0 ORDER BY status_id',
  );
  const real = await t.db.query<{ status_id: number; orders: number }>(
    'SELECT status_id, count(*)::int AS orders FROM orders GROUP BY status_id ORDER BY status_id',
  );
  expect(kept).toEqual(real);
};

beforeAll(async () => {
  t = await buildTestApp();
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  support = await tokens.sign({ userId: await addUser(ROLE.support, 'queue.support@example.com'), role: ROLE.support });
  writerId = await addUser(ROLE.writer, 'queue.writer@example.com');
  otherWriterId = await addUser(ROLE.writer, 'queue.writer2@example.com');
  writer = await tokens.sign({ userId: writerId, role: ROLE.writer });
  aliceId = await addUser(ROLE.customer, 'Alice.Queue@Example.com');
  bobId = await addUser(ROLE.customer, 'bob_queue@example.org');
  // 23 orders, several created in the same instant (ties broken by the id), in every status.
  const base = new Date('2026-01-10T12:00:00Z').getTime();
  const statuses = [1, 2, 3, 5, 8, 9, 2, 3];
  for (let i = 0; i < 23; i++) {
    await insertOrder(t.db, {
      customerId: i % 2 === 0 ? aliceId : bobId,
      status: statuses[i % statuses.length],
      writerId: [3, 5, 9].includes(statuses[i % statuses.length] ?? 0) ? (i % 3 === 0 ? writerId : otherWriterId) : null,
      title: i % 5 === 0 ? `Queue essay ${i} on 100%_pure Quantum Computing` : `Queue essay ${i} on history`,
      hidden: i % 7 === 0,
      createdAt: new Date(base + Math.floor(i / 3) * 60_000),
    });
  }
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/staff/orders: pages from either end', () => {
  it('walks every page of the whole queue in the exact newest-first order, ties by id, each page with the same total', async () => {
    const expected = await idsOf('SELECT id FROM orders ORDER BY created_at DESC, id DESC');
    for (const limit of [1, 4, 5, 7, 100]) {
      const { ids, totals } = await walk(support, 'x=1', limit);
      expect(ids).toEqual(expected);
      expect(new Set(totals)).toEqual(new Set([expected.length]));
    }
  });

  it('walks one status the same way, hidden orders included (staff sees them)', async () => {
    const expected = await idsOf('SELECT id FROM orders WHERE status_id = $1 ORDER BY created_at DESC, id DESC', [ORDER_STATUS.paid]);
    expect(expected.length).toBeGreaterThan(3);
    for (const limit of [1, 2, 3]) expect((await walk(support, `status=${ORDER_STATUS.paid}`, limit)).ids).toEqual(expected);
  });

  it('answers a page past the last empty, with the total', async () => {
    const [n] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders');
    const body = await list(support, 'limit=20&page=999');
    expect(body).toEqual({ orders: [], total: n?.n, totalCapped: false });
    expect(await list(support, `status=${ORDER_STATUS.hold}&limit=50&page=2`)).toMatchObject({ orders: [] });
  });

  it('keeps the counts exact through inserts, moves, bulk changes and deletes', async () => {
    await countsMatchTheTable();
    const extra = await insertOrder(t.db, { customerId: aliceId, status: ORDER_STATUS.unpaid, title: 'Counted' });
    await t.db.query('UPDATE orders SET status_id = $1 WHERE id = $2', [ORDER_STATUS.paid, extra.id]);
    await countsMatchTheTable();
    // One statement moving many orders, and one that changes no status.
    await t.db.query('UPDATE orders SET status_id = $1 WHERE status_id = $2 AND customer_id = $3', [
      ORDER_STATUS.hold,
      ORDER_STATUS.inProgress,
      bobId,
    ]);
    await t.db.query('UPDATE orders SET title = title');
    await countsMatchTheTable();
    await t.db.query('UPDATE orders SET status_id = $1 WHERE status_id = $2 AND customer_id = $3', [
      ORDER_STATUS.inProgress,
      ORDER_STATUS.hold,
      bobId,
    ]);
    await t.db.query('DELETE FROM order_status_history WHERE order_id = $1', [extra.id]);
    await t.db.query('DELETE FROM orders WHERE id = $1', [extra.id]);
    await countsMatchTheTable();
    const [n] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders');
    expect((await list(support, 'limit=1')).total).toBe(n?.n);
  });

  it('keeps the counts exact when moves race (assignments in parallel through the API)', async () => {
    const paid = await Promise.all(
      Array.from({ length: 6 }, (_, i) => insertOrder(t.db, { customerId: bobId, status: ORDER_STATUS.paid, title: `Race ${i}` })),
    );
    const answers = await Promise.all(
      paid.map((o) =>
        t.app.inject({ method: 'PUT', url: `/api/staff/orders/${o.id}/writer`, headers: auth(support), payload: { idWriter: writerId } }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(paid.map(() => 200));
    await countsMatchTheTable();
  });
});

describe('GET /api/staff/orders: the console views (ADR 0081)', () => {
  it('lists paid orders without a writer (status=2&unassigned=1), newest first; an assigned one leaves the view', async () => {
    const expected = await idsOf('SELECT id FROM orders WHERE status_id = $1 AND writer_id IS NULL ORDER BY created_at DESC, id DESC', [
      ORDER_STATUS.paid,
    ]);
    expect(expected.length).toBeGreaterThan(2);
    expect((await walk(support, `status=${ORDER_STATUS.paid}&unassigned=1`, 2)).ids).toEqual(expected);
    const taken = expected[0];
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/staff/orders/${taken}/writer`,
      headers: auth(support),
      payload: { idWriter: writerId },
    });
    expect(res.statusCode).toBe(200);
    const after = await list(support, `status=${ORDER_STATUS.paid}&unassigned=1&limit=100`);
    expect(after.orders.map((o) => o.id)).not.toContain(taken);
    expect(after.total).toBe(expected.length - 1);
    // unassigned=0 is no filter.
    expect((await list(support, 'unassigned=0&limit=1')).total).toBe((await list(support, 'limit=1')).total);
  });

  it('lists the orders in work due within N hours, soonest first, and nothing finished, unpaid, overdue or later', async () => {
    const now = t.clock.now().getTime();
    const at = (hours: number) => new Date(now + hours * HOUR);
    const soon = await insertOrder(t.db, {
      customerId: aliceId,
      status: ORDER_STATUS.inProgress,
      writerId,
      deadline: at(2),
      title: 'Due soon',
    });
    const sooner = await insertOrder(t.db, { customerId: bobId, status: ORDER_STATUS.paid, deadline: at(0.5), title: 'Due sooner' });
    const held = await insertOrder(t.db, { customerId: bobId, status: ORDER_STATUS.hold, deadline: at(20), title: 'Due on hold' });
    const tie = await insertOrder(t.db, { customerId: aliceId, status: ORDER_STATUS.paid, deadline: at(2), title: 'Due tie' });
    await insertOrder(t.db, { customerId: aliceId, status: ORDER_STATUS.completed, deadline: at(3), title: 'Done' });
    await insertOrder(t.db, { customerId: aliceId, status: ORDER_STATUS.unpaid, deadline: at(3), title: 'Unpaid' });
    await insertOrder(t.db, { customerId: aliceId, status: ORDER_STATUS.inProgress, deadline: at(-1), title: 'Overdue' });
    await insertOrder(t.db, { customerId: aliceId, status: ORDER_STATUS.inProgress, deadline: at(30), title: 'Later' });
    const expected = [sooner.id, soon.id, tie.id, held.id];
    // The template's demo orders may be due too: the view is checked on the orders made here.
    const made = new Set([soon.id, sooner.id, held.id, tie.id]);
    const mine = (body: StaffOrderList) => body.orders.map((o) => o.id).filter((id) => made.has(id));
    const due = await list(support, 'dueWithin=24&limit=100');
    expect(mine(due)).toEqual(expected);
    expect(due.total).toBe(due.orders.length);
    const [n] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM orders WHERE deadline >= $1 AND deadline < $2 AND status_id = ANY($3::int[])`,
      [new Date(now), at(24), [ORDER_STATUS.paid, ORDER_STATUS.inProgress, ORDER_STATUS.hold]],
    );
    expect(due.total).toBe(n?.n);
    expect((await walk(support, 'dueWithin=24', 1)).ids).toEqual(due.orders.map((o) => o.id));
    expect(mine(await list(support, 'dueWithin=1&limit=100'))).toEqual([sooner.id]);
    expect(mine(await list(support, `dueWithin=24&status=${ORDER_STATUS.paid}&limit=100`))).toEqual([sooner.id, tie.id]);
    // A writer sees only their own due orders.
    const writers = await list(writer, 'dueWithin=24&limit=100');
    expect(mine(writers)).toEqual([soon.id]);
    expect(writers.orders.every((o) => o.idWriter === writerId)).toBe(true);
  });

  it('searches the title, anywhere and in any case, with % and _ matched literally', async () => {
    const expected = await idsOf(`SELECT id FROM orders WHERE title LIKE '%Quantum Computing%' ORDER BY created_at DESC, id DESC`);
    expect(expected.length).toBeGreaterThan(2);
    expect((await list(support, 'q=quantum%20COMPUTING&limit=100')).orders.map((o) => o.id)).toEqual(expected);
    expect((await walk(support, 'q=QUANTUM', 2)).ids).toEqual(expected);
    expect((await list(support, `q=${encodeURIComponent('100%_pure')}`)).total).toBe(expected.length);
    expect((await list(support, `q=${encodeURIComponent('1%0')}`)).total).toBe(0);
    expect((await list(support, `q=${encodeURIComponent('essay_1')}`)).total).toBe(0);
  });

  it("searches the customer's email, and the order id with or without #", async () => {
    const alices = await idsOf('SELECT id FROM orders WHERE customer_id = $1 ORDER BY created_at DESC, id DESC', [aliceId]);
    expect((await list(support, 'q=alice.queue&limit=100')).orders.map((o) => o.id)).toEqual(alices);
    expect((await list(support, 'q=EXAMPLE.ORG&limit=100')).orders.every((o) => o.idCustomer === bobId)).toBe(true);
    // bob_queue: the underscore is a character, not a wildcard.
    expect((await list(support, 'q=bob_queue&limit=1')).total).toBeGreaterThan(0);
    expect((await list(support, 'q=bobxqueue&limit=1')).total).toBe(0);
    const one = alices[0];
    expect((await list(support, `q=${one}`)).orders.map((o) => o.id)).toContain(one);
    expect((await list(support, `q=%23${one}`)).orders.map((o) => o.id)).toContain(one);
  });

  it('finds an order that matches in several ways (title, email, id) once, counted once, in every page size', async () => {
    const carolId = await addUser(ROLE.customer, 'carol.twice@example.com');
    const base = new Date('2026-01-09T12:00:00Z').getTime();
    for (let i = 0; i < 5; i++) {
      // Some of Carol's orders carry the phrase in their titles too.
      await insertOrder(t.db, {
        customerId: carolId,
        title: i % 2 === 0 ? `carol.twice draft ${i}` : `Draft ${i}`,
        createdAt: new Date(base + i * 60_000),
      });
    }
    await insertOrder(t.db, { customerId: bobId, title: 'Notes for carol.twice', createdAt: new Date(base + 90_000) });
    const expected = await idsOf(
      `SELECT o.id FROM orders o JOIN users u ON u.id = o.customer_id
        WHERE lower(o.title) LIKE '%carol.twice%' OR lower(u.email) LIKE '%carol.twice%' ORDER BY o.created_at DESC, o.id DESC`,
    );
    expect(expected).toHaveLength(6);
    for (const limit of [1, 2, 4, 100]) {
      const { ids, totals } = await walk(support, 'q=carol.twice', limit);
      expect(ids).toEqual(expected);
      expect(new Set(totals)).toEqual(new Set([6]));
    }
    // A number that is the order's id, in its title and in its customer's email.
    const { id } = await insertOrder(t.db, { customerId: carolId, title: 'renamed below', createdAt: new Date(base) });
    const numbered = await addUser(ROLE.customer, `n${id}@example.com`);
    await t.db.query('UPDATE orders SET title = $1, customer_id = $2 WHERE id = $3', [`Order ${id} notes`, numbered, id]);
    const body = await list(support, `q=${id}&limit=100`);
    expect(body.orders.filter((o) => o.id === id)).toHaveLength(1);
    expect(new Set(body.orders.map((o) => o.id)).size).toBe(body.orders.length);
    expect(body.total).toBe(body.orders.length);
  });

  it('keeps a writer to their own orders in every view and search', async () => {
    for (const query of ['q=queue%20essay', 'q=queue.writer', `status=${ORDER_STATUS.inProgress}&unassigned=1`, 'q=alice']) {
      const body = await list(writer, `${query}&limit=100`);
      expect(body.orders.every((o) => o.idWriter === writerId)).toBe(true);
      expect(body.total).toBe(body.orders.length);
    }
    const mine = await idsOf('SELECT id FROM orders WHERE writer_id = $1 ORDER BY created_at DESC, id DESC', [writerId]);
    expect((await walk(writer, 'x=1', 2)).ids).toEqual(mine);
    // Another writer's order, named by id: not found in this writer's search.
    const [theirs] = await idsOf('SELECT id FROM orders WHERE writer_id = $1 LIMIT 1', [otherWriterId]);
    expect((await list(writer, `q=${theirs}`)).orders.map((o) => o.id)).not.toContain(theirs);
  });

  it('refuses a search of one or two characters that is not a number, oversized input and bad views (422)', async () => {
    for (const query of ['q=ab', 'q=%20a%20', `q=${'x'.repeat(251)}`, 'dueWithin=0', 'dueWithin=721', 'dueWithin=abc', 'unassigned=yes']) {
      expect((await queue(support, query)).statusCode, query).toBe(422);
    }
    expect((await queue(support, 'q=42')).statusCode).toBe(200);
    expect((await queue(support, 'q=')).statusCode).toBe(200);
  });
});
