import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATUS } from '@app/domain';
import { loadConfig } from '../../config';
import { postgresDb, type Db } from '../../db/client';
import { buildTestApp, createTestClock, createTestDb, type TestApp } from '../../testing/build-test-app';
import { insertCustomer, insertOrder } from '../../testing/factories';
import { createPaymentsRepo } from './payments.repo';
import { createReconciler } from './payments.reconcile';
import { createPaymentsService } from './payments.service';
import { createProviders } from './providers';
import { fondySignature } from './providers/fondy/fondy.adapter';

/**
 * ADR 0074 "A provider that times out or answers 500": Fondy's API is a local server that takes the
 * checkout request (it knows the order from then on) and then does not answer in time, answers 500, or
 * refuses. The buyer is sent to the payment error at once (SPEC §8, CONTRACT "Payments": `?payment=fail`
 * opens the payment error modal); an attempt whose outcome is unknown is kept open, and the
 * reconciliation job, asking the provider once it is healthy, settles it exactly once, even with two
 * instances running it at the same moment.
 */
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
const MINUTE = 60_000;
const SECRET = 'fondy-key';
const TIMEOUT_SECONDS = 1;

let fondy: Server;
let fondyUrl: string;
/** How the checkout call is answered now. */
let checkout: 'hang' | 'error' | 'refuse' = 'hang';
/** Orders Fondy was asked to create (it acted on each, whatever it answered), and what its status API says of them. */
const known = new Map<string, string>();
const asked = new Map<string, number>();

beforeAll(async () => {
  fondy = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const { request } = JSON.parse(body) as { request: Record<string, string> };
      const reply = (status: number, doc: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(doc));
      };
      if (request.signature !== fondySignature(request, SECRET)) {
        return reply(200, { response: { response_status: 'failure', error_code: 1014, error_message: 'Invalid signature' } });
      }
      const orderId = String(request.order_id);
      if (req.url === '/api/checkout/url/') {
        if (checkout === 'refuse') return reply(200, { response: { response_status: 'failure', error_message: 'Merchant is blocked' } });
        known.set(orderId, 'created');
        if (checkout === 'error') return reply(500, { error: 'Internal Server Error' });
        return; // hang: the answer never comes
      }
      asked.set(orderId, (asked.get(orderId) ?? 0) + 1);
      const status = known.get(orderId);
      if (!status) return reply(200, { response: { response_status: 'failure', error_code: 1018, error_message: 'Order not found' } });
      const answer: Record<string, string> = {
        response_status: 'success',
        merchant_id: '1500001',
        order_id: orderId,
        order_status: status,
        amount: '2400',
        currency: 'USD',
        actual_amount: '2400',
        actual_currency: 'USD',
        payment_id: `fp-${orderId.slice(0, 8)}`,
      };
      answer.signature = fondySignature(answer, SECRET);
      reply(200, { response: answer });
    });
  });
  await new Promise<void>((resolve) => fondy.listen(0, '127.0.0.1', resolve));
  fondyUrl = `http://127.0.0.1:${(fondy.address() as AddressInfo).port}/api`;
});
afterAll(async () => {
  fondy.closeAllConnections();
  await new Promise((resolve) => fondy.close(resolve));
});

const env = {
  FONDY_MERCHANT_ID: '1500001',
  FONDY_SECRET_KEY: SECRET,
  FONDY_API_URL: '',
  PAYMENTS_PROVIDER_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
  PAYMENTS_RECONCILE_AFTER_MINUTES: '30',
};

describe('ADR 0074: a payment provider that does not answer, or answers 500', () => {
  let t: TestApp;
  let dbB: Db;
  let drop: () => Promise<void>;
  const clock = createTestClock(new Date('2030-05-01T10:00:00Z'));
  let customerId: number;

  beforeAll(async () => {
    const created = await createTestDb();
    if (!created.url) throw new Error('this test needs a PostgreSQL server (TEST_DATABASE_URL)');
    drop = created.drop;
    dbB = postgresDb(created.url, { onIdleError: () => undefined });
    env.FONDY_API_URL = fondyUrl;
    t = await buildTestApp({ db: created.db, clock, env });
    customerId = (await insertCustomer(t, 'provider.faults@example.com')).id;
  });
  afterAll(async () => {
    await t?.close();
    await dbB?.close();
    await drop?.();
  });

  let seq = 0;
  const checkoutOnce = async () => {
    seq += 1;
    const order = await insertOrder(t.db, { customerId, uid: `provider-fault-${String(seq).padStart(4, '0')}-abcdefgh` });
    const started = Date.now();
    const res = await t.app.inject({ method: 'GET', url: `/checkout/fondy/order/${order.uid}?hashDevice=d` });
    const ms = Date.now() - started;
    const [attempt] = await t.db.query<{ id: string; state: string }>('SELECT id, state FROM payments WHERE order_id = $1', [order.id]);
    if (!attempt) throw new Error('no attempt');
    return { order, res, ms, attempt };
  };
  /** The reconciliation job of one instance, over its own pool (as payments.reconcile.test.ts builds it). */
  const reconcilerOn = async (db: Db) => {
    const config = loadConfig({ NODE_ENV: 'test', PORT: '3000', ...env });
    const repo = createPaymentsRepo(db);
    const providers = await createProviders({ config: config.payments, repo, origin: 'http://localhost:3000' });
    const service = createPaymentsService({ db, repo, providers, clock, log: t.app.log, origin: 'http://localhost:3000' });
    return createReconciler({ db, providers, applyEvent: service.applyEvent, clock, log: t.app.log, ...config.payments.reconcile });
  };
  const settled = async (orderId: number, paymentId: string) => {
    const [attempt] = await t.db.query<{ state: string }>('SELECT state FROM payments WHERE id = $1', [paymentId]);
    const events = await t.db.query<{ event_id: string; applied: boolean }>(
      'SELECT event_id, applied FROM payment_events WHERE payment_id = $1',
      [paymentId],
    );
    const [order] = await t.db.query<{ status_id: number; pending: boolean }>('SELECT status_id, pending FROM orders WHERE id = $1', [
      orderId,
    ]);
    const [paid] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM transactions WHERE order_id = $1 AND type = 'payment'`, [
      orderId,
    ]);
    return { state: attempt?.state, events, status: order?.status_id, pending: order?.pending, transactions: paid?.n };
  };

  it('no answer in time: the buyer gets the payment error at once, the attempt is kept, and the job settles it once', async () => {
    checkout = 'hang';
    const { order, res, ms, attempt } = await checkoutOnce();
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/orderinfo/${order.id}/details?payment=fail`);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_SECONDS * 1000 - 50);
    expect(ms).toBeLessThan(TIMEOUT_SECONDS * 1000 + 2000);
    // Whether Fondy started the payment is unknown: the attempt stays open, nothing is guessed.
    expect(await settled(order.id, attempt.id)).toMatchObject({
      state: 'created',
      events: [],
      status: ORDER_STATUS.unpaid,
      pending: false,
    });

    // Healthy again, Fondy says the order it made expired. Two instances run the job at the same moment.
    known.set(attempt.id, 'expired');
    const [a, b] = await Promise.all([reconcilerOn(t.db), reconcilerOn(dbB)]);
    clock.advance(31 * MINUTE);
    const claimed = await Promise.all([a.runOnce(), b.runOnce()]);
    expect(claimed[0] + claimed[1]).toBe(1);
    expect(asked.get(attempt.id)).toBe(1);
    const after = await settled(order.id, attempt.id);
    expect(after).toMatchObject({ state: 'declined', status: ORDER_STATUS.unpaid, pending: false, transactions: 0 });
    expect(after.events).toEqual([{ event_id: expect.stringMatching(/:expired$/) as unknown, applied: true }]);
    // Settled: later runs leave it alone.
    clock.advance(24 * 60 * MINUTE);
    expect(await Promise.all([a.runOnce(), b.runOnce()])).toEqual([0, 0]);
    expect(asked.get(attempt.id)).toBe(1);
  });

  it('a 500: the buyer gets the payment error, and what the provider says later (paid) is applied once', async () => {
    checkout = 'error';
    const { order, res, ms, attempt } = await checkoutOnce();
    expect(res.headers.location).toBe(`/orderinfo/${order.id}/details?payment=fail`);
    expect(ms).toBeLessThan(2000);
    expect((await settled(order.id, attempt.id)).state).toBe('created');

    // The provider's word decides, not a guess made when it failed: here it took the money.
    known.set(attempt.id, 'approved');
    const [a, b] = await Promise.all([reconcilerOn(t.db), reconcilerOn(dbB)]);
    clock.advance(31 * MINUTE);
    await Promise.all([a.runOnce(), b.runOnce(), a.runOnce()]);
    const after = await settled(order.id, attempt.id);
    expect(after).toMatchObject({ state: 'paid', status: ORDER_STATUS.paid, pending: false, transactions: 1 });
    expect(after.events.filter((e) => e.applied)).toHaveLength(1);
    clock.advance(24 * 60 * MINUTE);
    await Promise.all([a.runOnce(), b.runOnce()]);
    expect((await settled(order.id, attempt.id)).transactions).toBe(1);
  });

  it('a refusal is declined at once, as before (the provider said no: nothing to ask about later)', async () => {
    checkout = 'refuse';
    const { order, res, attempt } = await checkoutOnce();
    expect(res.headers.location).toBe(`/orderinfo/${order.id}/details?payment=fail`);
    expect((await settled(order.id, attempt.id)).state).toBe('declined');
  });
});
