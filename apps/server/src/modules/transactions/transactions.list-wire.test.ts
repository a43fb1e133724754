import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, ORDER_STATUS, transactionListSchema } from '@app/domain';
import { insertCustomer, insertOrder } from '../../testing/factories';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

// ADR 0081 (addendum, branch customer-lean): the customer's transactions page is written as the service
// built it (`builtAnswerSerializer`), not through zod's second pass. Its body must be exactly what the
// schema's own serialisation of it gives: the schema's fields only, in the schema's key order.

let t: TestApp;
let token: string;

const get = (query: string) =>
  t.app.inject({ method: 'GET', url: `/api/en/customers/transactions?${query}`, headers: { authorization: `Bearer ${token}` } });

/** What zod's serializer writes for this body: the schema's parse (its fields, its order), stringified. */
const asTheSchemaWritesIt = (body: string): string => JSON.stringify(transactionListSchema.parse(JSON.parse(body)));

beforeAll(async () => {
  t = await buildTestApp();
  const customer = await insertCustomer(t, 'tx.wire@example.com');
  token = customer.token;
  const order = await insertOrder(t.db, { customerId: customer.id, status: ORDER_STATUS.paid, title: 'Wire "paid" ünïcode essay' });
  // Every shape a transaction takes: a payment with its receipt, a refund with its credit note, a sandbox
  // payment, money parked for support (no document), amounts with cents and without.
  const add = async (t_: { type: string; provider: string; cents: number; minute: number; status?: string; sandbox?: boolean }) => {
    const [row] = await t.db.query<{ id: number }>(
      `INSERT INTO transactions (customer_id, order_id, provider, type, amount_cents, created_at, status, sandbox, refund_key)
       VALUES ($1, $2, $3, $4, $5, timestamptz '2025-03-01T10:00:00Z' + ($6 || ' minutes')::interval, $7, $8,
         CASE WHEN $4 = 'refund' THEN 'wire:' || $6 END) RETURNING id`,
      [customer.id, order.id, t_.provider, t_.type, t_.cents, String(t_.minute), t_.status ?? 'completed', t_.sandbox ?? false],
    );
    if (!row) throw new Error('no transaction');
    return row.id;
  };
  const document = async (transactionId: number, kind: string, number: number, refersTo: number | null) =>
    t.db.query(
      `INSERT INTO transaction_documents (transaction_id, customer_id, kind, number, refers_to, issued_at, snapshot)
       VALUES ($1, $2, $3, $4, $5, now(), '{"version": 1}')`,
      [transactionId, customer.id, kind, 90_000 + number, refersTo],
    );
  const paid = await add({ type: 'payment', provider: 'paypal', cents: 12_345, minute: 1 });
  await document(paid, 'receipt', 1, null);
  const refund = await add({ type: 'refund', provider: 'paypal', cents: 2_000, minute: 2 });
  await document(refund, 'credit_note', 2, paid);
  await add({ type: 'payment', provider: 'fondy', cents: 999, minute: 3, sandbox: true });
  await add({ type: 'payment', provider: 'paycore', cents: 5_000, minute: 4, status: 'unapplied' });
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/en/customers/transactions: the page as the service built it', () => {
  it("is byte for byte the schema's own serialisation, in every page", async () => {
    for (const view of ['', 'limit=2', 'limit=2&page=2', 'limit=20&page=9']) {
      const res = await get(view);
      expect(res.statusCode, `${view}: ${res.body}`).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body, view).toBe(asTheSchemaWritesIt(res.body));
    }
  });

  it('carries every kind of transaction: a receipt, a credit note, sandbox, none', async () => {
    const page = transactionListSchema.parse((await get('')).json());
    expect(page.total).toBe(4);
    expect(page.transactions.map((x) => [x.type, x.document?.kind ?? null, x.sandbox])).toEqual([
      ['payment', null, false],
      ['payment', null, true],
      ['refund', 'credit_note', false],
      ['payment', 'receipt', false],
    ]);
    expect(page.transactions.map((x) => x.amount)).toEqual([50, 9.99, 20, 123.45]);
  });

  it("keeps zod's serializer for the errors", async () => {
    const res = await get('limit=0');
    expect(res.statusCode).toBe(422);
    expect(res.body).toBe(JSON.stringify(errorBodySchema.parse(res.json())));
  });
});
