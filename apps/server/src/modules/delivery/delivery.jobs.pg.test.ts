import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATUS, ROLE } from '@app/domain';
import { postgresDb, type Db } from '../../db/client';
import { buildTestApp, createTestClock, createTestDb, type TestApp } from '../../testing/build-test-app';
import { insertCustomer, insertDelivery, insertOrder } from '../../testing/factories';

/**
 * ADR 0084: the review clock's job on two instances sharing one PostgreSQL server: each due delivery
 * completes its order once (one history entry, one notification), whichever instance gets it, and a customer's
 * accept racing both jobs still completes the order once.
 */
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

let drop: () => Promise<void>;
let dbA: Db;
let dbB: Db;
let a: TestApp;
let b: TestApp;
const start = new Date('2026-05-04T09:00:00Z');
const D = 24 * 3_600_000;

beforeAll(async () => {
  const created = await createTestDb();
  if (!created.url) throw new Error('this test needs TEST_DATABASE_URL');
  dbA = created.db;
  drop = created.drop;
  dbB = postgresDb(created.url, { onIdleError: () => undefined });
  a = await buildTestApp({ db: dbA, clock: createTestClock(start) });
  b = await buildTestApp({ db: dbB, clock: createTestClock(start) });
});
afterAll(async () => {
  await a?.app.close();
  await b?.app.close();
  await dbB?.close();
  await drop?.();
});

const run = (t: TestApp) => t.app.inject({ method: 'POST', url: '/api/dev/after-payment/run', payload: {} });

describe('the after-payment job across two instances', () => {
  it('completes each due order once, tells each customer once, and a racing accept never doubles it', async () => {
    const [writer] = await dbA.query<{ id: number }>(
      `INSERT INTO users (role, email, password_hash, status_id) VALUES ($1, 'pg.writer@example.com', 'x', 1) RETURNING id`,
      [ROLE.writer],
    );
    const customer = await insertCustomer(a, 'pg.jobs.customer@example.com');
    const orders: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const { id } = await insertOrder(dbA, { customerId: customer.id, status: ORDER_STATUS.inProgress, writerId: writer?.id ?? null });
      await insertDelivery(dbA, {
        orderId: id,
        customerId: customer.id,
        writerId: writer?.id ?? 0,
        deliveredAt: new Date(start.getTime() - 4 * D),
      });
      orders.push(id);
    }
    const raced = orders[0] ?? 0;
    const [accept] = await Promise.all([
      a.app.inject({
        method: 'POST',
        url: `/api/en/orders/${raced}/accept`,
        headers: { authorization: `Bearer ${customer.token}` },
        payload: {},
      }),
      run(a),
      run(b),
      run(a),
      run(b),
    ]);
    await Promise.all([run(a), run(b)]);
    const history = await dbA.query<{ order_id: number; n: number; via: string }>(
      `SELECT order_id, count(*)::int AS n, min(via) AS via FROM order_status_history WHERE order_id = ANY($1::int[]) AND status_id = $2 GROUP BY order_id`,
      [orders, ORDER_STATUS.completed],
    );
    expect(history).toHaveLength(orders.length);
    for (const h of history) expect(h.n).toBe(1);
    const racedVia = history.find((h) => Number(h.order_id) === raced)?.via;
    expect(accept.statusCode).toBe(racedVia === 'acceptance' ? 200 : 409);
    // ADR 0088: the customer is told through the one notification path (its job makes the mail, once):
    // one 'completed' notification per order the clock completed, none twice.
    const told = await dbA.query<{ order_id: number; n: number }>(
      `SELECT order_id, count(*)::int AS n FROM notifications WHERE user_id = $1 AND type = 'completed' GROUP BY order_id`,
      [customer.id],
    );
    expect(told.every((t) => t.n === 1)).toBe(true);
    expect(told).toHaveLength(racedVia === 'acceptance' ? orders.length - 1 : orders.length);
  });
});
