import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATUS, ROLE, TRANSACTIONS_PAGE_SIZE } from '@app/domain';
import { createAccessTokens } from '../auth';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertOrder } from '../../testing/factories';
import { recordRefund } from './index';

let t: TestApp;
let tokenFor: (userId: number) => Promise<string>;
let ownerId: number;
let otherId: number;
let orderId: number;

beforeAll(async () => {
  t = await buildTestApp();
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  tokenFor = (userId) => tokens.sign({ userId, role: ROLE.customer });
  const [a] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id) VALUES (1, 'tx.owner@example.com', 'x', 1) RETURNING id`,
  );
  const [b] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id) VALUES (1, 'tx.other@example.com', 'x', 1) RETURNING id`,
  );
  if (!a || !b) throw new Error('no customers');
  ownerId = a.id;
  otherId = b.id;
  const o = await insertOrder(t.db, {
    customerId: ownerId,
    uid: 'tx-order-uid-0123456789',
    title: 'Paid essay',
    status: ORDER_STATUS.paid,
    deadline: new Date(Date.now() + 9 * 24 * 60 * 60 * 1000),
    basicPriceCents: 1999,
    finalPriceCents: 1999,
  });
  orderId = o.id;
  // 20 payments a minute apart: more than one page of 16.
  for (let i = 0; i < 20; i += 1) {
    await t.db.query(
      `INSERT INTO transactions (customer_id, order_id, provider, type, amount_cents, created_at)
       VALUES ($1, $2, 'fondy', 'payment', $3, timestamptz '2025-03-01T10:00:00Z' + ($4 || ' minutes')::interval)`,
      [ownerId, orderId, 1000 + i, String(i)],
    );
  }
});
afterAll(async () => {
  await t.close();
});

const list = async (userId: number, query = '') =>
  t.app.inject({
    method: 'GET',
    url: `/api/en/customers/transactions${query}`,
    headers: { authorization: `Bearer ${await tokenFor(userId)}` },
  });

describe('GET /api/en/customers/transactions', () => {
  it('pages 16 by default, newest first, amounts with 2 decimals and the order linked', async () => {
    const res = await list(ownerId);
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      transactions: { amount: number; date: string; orderId: number; orderTitle: string; type: string }[];
      total: number;
    };
    expect(body.total).toBe(20);
    expect(body.transactions).toHaveLength(TRANSACTIONS_PAGE_SIZE);
    expect(body.transactions[0]).toMatchObject({
      amount: 10.19,
      orderId,
      orderTitle: 'Paid essay',
      type: 'payment',
      provider: 'fondy',
      status: 'completed',
    });
    expect(body.transactions[0]?.date).toBe('2025-03-01T10:19:00.000Z');
    const second = (await list(ownerId, '?page=2')).json() as { transactions: { amount: number }[]; total: number };
    expect(second.transactions.map((x) => x.amount)).toEqual([10.03, 10.02, 10.01, 10]);
    expect(second.total).toBe(20);
    expect(((await list(ownerId, '?page=9')).json() as { total: number }).total).toBe(20);
  });

  it("shows another customer nothing of the owner's transactions", async () => {
    expect((await list(otherId)).json()).toEqual({ transactions: [], total: 0 });
  });

  it('lists a refund recorded through the module function as type refund', async () => {
    const id = await t.db.transaction((tx) =>
      recordRefund(tx, {
        orderId,
        paymentId: null,
        provider: 'fondy',
        amountCents: 500,
        currency: 'USD',
        now: new Date('2025-04-01T00:00:00Z'),
      }),
    );
    expect(id).not.toBeNull();
    const body = (await list(ownerId, '?limit=1')).json() as {
      transactions: { id: number; type: string; amount: number }[];
      total: number;
    };
    expect(body.transactions[0]).toMatchObject({ id, type: 'refund', amount: 5 });
    expect(body.total).toBe(21);
    expect((await list(otherId)).json()).toEqual({ transactions: [], total: 0 });
  });

  it("pages from the index across ties in time (by id), every page with the total, never with another customer's rows (ADR 0081)", async () => {
    const other = await insertOrder(t.db, { customerId: otherId, title: 'Other essay', status: ORDER_STATUS.paid });
    // Three transactions of each customer in the same instant.
    for (let i = 0; i < 3; i += 1) {
      for (const [customer, order] of [
        [ownerId, orderId],
        [otherId, other.id],
      ] as const) {
        await t.db.query(
          `INSERT INTO transactions (customer_id, order_id, provider, type, amount_cents, created_at)
           VALUES ($1, $2, 'paypal', 'payment', $3, timestamptz '2025-03-01T10:05:00Z')`,
          [customer, order, 5000 + i],
        );
      }
    }
    const expected = (
      await t.db.query<{ id: number }>('SELECT id FROM transactions WHERE customer_id = $1 ORDER BY created_at DESC, id DESC', [ownerId])
    ).map((r) => Number(r.id));
    for (const limit of [1, 3, 7]) {
      const ids: number[] = [];
      for (let page = 1; page <= Math.ceil(expected.length / limit); page += 1) {
        const body = (await list(ownerId, `?limit=${limit}&page=${page}`)).json() as { transactions: { id: number }[]; total: number };
        expect(body.total).toBe(expected.length);
        ids.push(...body.transactions.map((x) => x.id));
      }
      expect(ids).toEqual(expected);
    }
    const others = (await list(otherId, '?limit=100')).json() as { transactions: { orderId: number }[]; total: number };
    expect(others.total).toBe(3);
    expect(others.transactions.every((x) => x.orderId === other.id)).toBe(true);
  });

  it('answers 401 without a token and 422 for a bad page', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/en/customers/transactions' })).statusCode).toBe(401);
    expect((await list(ownerId, '?page=0')).statusCode).toBe(422);
  });
});
