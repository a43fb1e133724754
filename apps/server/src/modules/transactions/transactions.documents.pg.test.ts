import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultOrderForm, toOrderBody } from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertCustomer } from '../../testing/factories';
import { recordPaymentTransaction } from './index';

/**
 * ADR 0085 on a PostgreSQL server, where transactions really run side by side: receipts paid at once by
 * many customers, with payments that roll back among them, still number 1, 2, 3, … without a gap.
 */
// A PostgreSQL server: the default one unless the run names another (npm run test:pg).
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const paidOrder = async (n: number) => {
  const me = await insertCustomer(t, `pg-receipts-${n}@example.com`);
  const body = toOrderBody(
    { ...defaultOrderForm(1), subject: 4, title: `Concurrent essay ${n}`, details: 'Explain causes and mitigation.' },
    1,
  );
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/en/sites/categories/1/orders',
    headers: { authorization: `Bearer ${me.token}` },
    payload: body,
  });
  const { id, uid } = created.json<{ id: number; uid: string }>();
  const res = await t.app.inject({ method: 'GET', url: `/checkout/fondy/order/${uid}?hashDevice=dev-hash` });
  const path = new URL(String(res.headers.location), 'http://x').pathname;
  return { customerId: me.id, orderId: id, pay: () => t.app.inject({ method: 'POST', url: `${path}/pay` }) };
};

describe('receipt numbers on PostgreSQL (ADR 0085)', () => {
  it('concurrent payments and rollbacks leave no gap', async () => {
    expect(t.db.kind).toBe('postgres');
    const orders = await Promise.all(Array.from({ length: 12 }, (_, i) => paidOrder(i)));
    const failing = orders.slice(0, 4).map((o) =>
      t.db
        .transaction(async (tx) => {
          await recordPaymentTransaction(tx, {
            customerId: o.customerId,
            orderId: o.orderId,
            paymentId: null as unknown as string, // money recorded without an attempt
            provider: 'fondy',
            amountCents: 100,
            currency: 'USD',
            now: new Date(),
          });
          await new Promise((resolve) => setTimeout(resolve, 20));
          throw new Error('rolled back after its receipt');
        })
        .catch(() => 'rolled back'),
    );
    const results = await Promise.all([...orders.map((o) => o.pay()), ...failing]);
    expect(results.filter((r) => r === 'rolled back')).toHaveLength(4);
    const numbers = (
      await t.db.query<{ number: number }>(`SELECT number FROM transaction_documents WHERE kind = 'receipt' ORDER BY number`)
    ).map((r) => Number(r.number));
    expect(numbers.length).toBeGreaterThanOrEqual(12);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    const [counter] = await t.db.query<{ n: number }>(`SELECT last_number AS n FROM document_counters WHERE kind = 'receipt'`);
    expect(Number(counter?.n)).toBe(numbers.length);
  });
});
