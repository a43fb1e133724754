import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '@app/domain';
import { createAccessTokens } from '../auth';
import { insertOrder as storeOrder } from '../../testing/factories';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

let t: TestApp;
let tokenFor: (userId: number, role?: number) => Promise<string>;
let demoId: number;

beforeAll(async () => {
  t = await buildTestApp();
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  tokenFor = (userId, role = ROLE.customer) => tokens.sign({ userId, role });
  const [demo] = await t.db.query<{ id: number }>(`SELECT id FROM users WHERE email = 'demo@example.com'`);
  if (!demo) throw new Error('the test database has no demo customer');
  demoId = demo.id;
});
afterAll(async () => {
  await t.close();
});

const count = async (token?: string) =>
  t.app.inject({ method: 'GET', url: '/api/en/orders/count', headers: token ? { authorization: `Bearer ${token}` } : {} });

/** Inserts an order straight into the table, as a customer's order would be stored. */
const insertOrder = async (customerId: number, status: number, hidden = false): Promise<void> => {
  await storeOrder(t.db, { customerId, status, hidden, title: "Another customer's essay" });
};

describe('GET /api/en/orders/count', () => {
  it("counts the demo customer's visible orders by status, leaving the hidden one out", async () => {
    const res = await count(await tokenFor(demoId));
    expect(res.statusCode).toBe(200);
    const [stored] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE customer_id = $1 AND NOT hidden', [
      demoId,
    ]);
    const body = res.json() as { total: number; byStatus: Record<string, number> };
    expect(body.total).toBe(stored?.n);
    expect(body.total).toBeGreaterThanOrEqual(8);
    expect(Object.values(body.byStatus).reduce((a, b) => a + b, 0)).toBe(body.total);
    // Seeded: two unpaid orders; two completed, one of them hidden.
    expect(body.byStatus['1']).toBe(2);
    expect(body.byStatus['5']).toBe(1);
    expect(body.byStatus['10']).toBe(0);
  });

  it("counts only the caller's orders: another customer's orders change nothing for the demo customer", async () => {
    const before = (await count(await tokenFor(demoId))).json();
    const [other] = await t.db.query<{ id: number }>(
      `INSERT INTO users (role, email, password_hash, status_id) VALUES (1, 'other.customer@example.com', 'x', 1) RETURNING id`,
    );
    if (!other) throw new Error('no second customer');
    await insertOrder(other.id, 1);
    await insertOrder(other.id, 3);
    await insertOrder(other.id, 3);
    await insertOrder(other.id, 5, true);

    const theirs = (await count(await tokenFor(other.id))).json() as { total: number; byStatus: Record<string, number> };
    expect(theirs.total).toBe(3);
    expect(theirs.byStatus).toMatchObject({ '1': 1, '3': 2, '5': 0 });
    expect((await count(await tokenFor(demoId))).json()).toEqual(before);
  });

  it('answers 401 without a token or with a forged one', async () => {
    const res = await count();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Access Token is missing' });
    expect((await count('not-a-jwt')).statusCode).toBe(401);
  });

  it('answers 404 to a staff token (CONTRACT "Staff side")', async () => {
    const [writer] = await t.db.query<{ id: number }>(`SELECT id FROM users WHERE email = 'writer@example.com'`);
    if (!writer) throw new Error('no demo writer');
    expect((await count(await tokenFor(writer.id, ROLE.writer))).statusCode).toBe(404);
  });
});
