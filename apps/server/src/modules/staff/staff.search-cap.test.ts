import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE, staffOrderListSchema, type StaffOrderList } from '@app/domain';
import { createAccessTokens } from '../auth';
import { insertOrder } from '../../testing/factories';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { STAFF_SEARCH_COUNT_CAP } from './staff.repo';

// ADR 0099: a search stops counting past STAFF_SEARCH_COUNT_CAP matches ("more than 1,000"), its pages still
// newest first and complete; a narrower search keeps its exact total.

let t: TestApp;
let support: string;
let writer: string;
const MATCHES = STAFF_SEARCH_COUNT_CAP + 25;

const list = async (token: string, query: string): Promise<StaffOrderList> => {
  const res = await t.app.inject({ method: 'GET', url: `/api/staff/orders?${query}`, headers: { authorization: `Bearer ${token}` } });
  expect(res.statusCode, res.body).toBe(200);
  return staffOrderListSchema.parse(res.json());
};
const newestIds = async (pattern: string, limit: number, offset = 0): Promise<number[]> =>
  (
    await t.db.query<{ id: number }>(`SELECT id FROM orders WHERE title LIKE $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`, [
      pattern,
      limit,
      offset,
    ])
  ).map((r) => Number(r.id));

beforeAll(async () => {
  t = await buildTestApp();
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  const addUser = async (role: number, email: string): Promise<number> => {
    const [row] = await t.db.query<{ id: number }>(
      `INSERT INTO users (role, email, password_hash, status_id) VALUES ($1, $2, 'x', 1) RETURNING id`,
      [role, email],
    );
    if (!row) throw new Error('no user');
    return row.id;
  };
  support = await tokens.sign({ userId: await addUser(ROLE.support, 'cap.support@example.com'), role: ROLE.support });
  const writerId = await addUser(ROLE.writer, 'cap.writer@example.com');
  writer = await tokens.sign({ userId: writerId, role: ROLE.writer });
  const customerId = await addUser(ROLE.customer, 'cap.customer@example.com');
  const template = await insertOrder(t.db, { customerId, title: 'template' });
  // MATCHES orders whose titles share a phrase (one in five also "rare"), a minute apart, plus one the writer has.
  const columns = (
    await t.db.query<{ c: string }>(
      `SELECT column_name AS c FROM information_schema.columns
        WHERE table_name = 'orders' AND column_name NOT IN ('id', 'uid', 'title', 'created_at') AND is_generated = 'NEVER'
        ORDER BY ordinal_position`,
    )
  )
    .map((r) => `"${r.c}"`)
    .join(', ');
  await t.db.query(
    `INSERT INTO orders (${columns}, uid, title, created_at)
     SELECT ${columns}, 'cap-' || g, 'Broad phrase ' || g || CASE WHEN g % 5 = 0 THEN ' rare' ELSE '' END,
            timestamptz '2026-03-01T00:00:00Z' + g * interval '1 minute'
       FROM orders, generate_series(1, ${MATCHES}) g WHERE orders.id = $1`,
    [template.id],
  );
  await insertOrder(t.db, { customerId, title: 'Broad phrase for the writer', writerId, status: 3 });
});

afterAll(async () => {
  await t.close();
});

describe('staff search past the count cap (ADR 0099)', () => {
  it('says "at least the cap" and still pages newest first', async () => {
    const first = await list(support, 'q=broad%20phrase&limit=20');
    expect(first).toMatchObject({ total: STAFF_SEARCH_COUNT_CAP, totalCapped: true });
    expect(first.orders.map((o) => o.id)).toEqual(await newestIds('Broad phrase%', 20));
    const third = await list(support, 'q=broad%20phrase&limit=20&page=3');
    expect(third.orders.map((o) => o.id)).toEqual(await newestIds('Broad phrase%', 20, 40));
    // Past the cap the rows are still there, and the total is never below what was shown.
    const past = await list(support, `q=broad%20phrase&limit=20&page=${STAFF_SEARCH_COUNT_CAP / 20 + 1}`);
    expect(past.orders.map((o) => o.id)).toEqual(await newestIds('Broad phrase%', 20, STAFF_SEARCH_COUNT_CAP));
    expect(past).toMatchObject({ total: STAFF_SEARCH_COUNT_CAP + 20, totalCapped: true });
    const beyond = await list(support, `q=broad%20phrase&limit=100&page=12`);
    expect(beyond.orders).toEqual([]);
    expect(beyond.totalCapped).toBe(true);
  });

  it('counts a narrower search exactly', async () => {
    const rare = await list(support, 'q=rare&limit=100&page=3');
    expect(rare).toMatchObject({ total: Math.floor(MATCHES / 5), totalCapped: false });
    expect(rare.orders.map((o) => o.id)).toEqual(await newestIds('% rare', 100, 200));
    expect(await list(support, 'q=nothing%20matches%20this')).toMatchObject({ total: 0, totalCapped: false, orders: [] });
  });

  it("keeps a writer's search to their own orders, counted exactly", async () => {
    const mine = await list(writer, 'q=broad%20phrase');
    expect(mine).toMatchObject({ total: 1, totalCapped: false });
    expect(mine.orders.map((o) => o.title)).toEqual(['Broad phrase for the writer']);
  });
});
