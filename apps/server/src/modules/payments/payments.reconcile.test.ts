import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import type { Db } from '../../db/client';
import { createTestClock, createTestDb, type TestClock } from '../../testing/build-test-app';
import { insertOrder } from '../../testing/factories';
import { createPaymentsRepo } from './payments.repo';
import { createReconciler } from './payments.reconcile';
import { createPaymentsService } from './payments.service';
import { createProviders } from './providers';
import { fondySignature } from './providers/fondy/fondy.adapter';

/**
 * ADR 0037: attempts pending longer than PAYMENTS_RECONCILE_AFTER_MINUTES are asked about at
 * the provider by a background job that survives a restart. The provider's API is a local server that
 * answers as Fondy does; the job runs from the app's lifecycle on a fake clock.
 */

const MINUTE = 60_000;
let fondy: Server;
let fondyUrl: string;
/** What Fondy's status/order_id says about each order id, and how often it was asked. */
const fondyStatus = new Map<string, string>();
const asked = new Map<string, number>();
let paypal: Server;
let paypalUrl: string;
/** PayPal orders by id: our attempt id and the capture status its order GET shows (none: not captured). */
const paypalOrders = new Map<string, { paymentId: string; capture?: string }>();

beforeAll(async () => {
  fondy = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const { request } = JSON.parse(body) as { request: Record<string, string> };
      res.writeHead(200, { 'content-type': 'application/json' });
      if (request.signature !== fondySignature(request, 'fondy-key')) {
        res.end(JSON.stringify({ response: { response_status: 'failure', error_code: 1014, error_message: 'Invalid signature' } }));
        return;
      }
      if (req.url === '/api/checkout/url/') {
        res.end(JSON.stringify({ response: { response_status: 'success', checkout_url: 'https://pay.fondy.test/checkout?token=t' } }));
        return;
      }
      const orderId = String(request.order_id);
      asked.set(orderId, (asked.get(orderId) ?? 0) + 1);
      const answer: Record<string, string> = {
        response_status: 'success',
        merchant_id: '1500001',
        order_id: orderId,
        order_status: fondyStatus.get(orderId) ?? 'created',
        amount: '2400',
        currency: 'USD',
        payment_id: `fp-${orderId.slice(0, 8)}`,
      };
      answer.signature = fondySignature(answer, 'fondy-key');
      res.end(JSON.stringify({ response: answer }));
    });
  });
  await new Promise<void>((resolve) => fondy.listen(0, '127.0.0.1', resolve));
  fondyUrl = `http://127.0.0.1:${(fondy.address() as AddressInfo).port}/api`;

  // PayPal Orders v2 as its docs describe it: token, create, GET an order.
  paypal = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const send = (status: number, doc: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(doc));
      };
      if (req.url === '/v1/oauth2/token') return send(200, { access_token: 'A21-token', expires_in: 32400 });
      if (req.headers.authorization !== 'Bearer A21-token') return send(401, {});
      if (req.url === '/v2/checkout/orders' && req.method === 'POST') {
        const doc = JSON.parse(body) as { purchase_units: { custom_id: string }[] };
        const id = `PP${paypalOrders.size + 1}`.padEnd(17, '0');
        paypalOrders.set(id, { paymentId: doc.purchase_units[0]?.custom_id ?? '' });
        return send(200, {
          id,
          status: 'PAYER_ACTION_REQUIRED',
          links: [{ rel: 'payer-action', href: `https://paypal.test/checkoutnow?token=${id}` }],
        });
      }
      const order = paypalOrders.get((req.url ?? '').replace('/v2/checkout/orders/', ''));
      if (req.method === 'GET' && order) {
        const captures = order.capture
          ? [{ id: 'CAP1', status: order.capture, amount: { currency_code: 'USD', value: '24.00' }, custom_id: order.paymentId }]
          : [];
        return send(200, {
          status: order.capture ? 'COMPLETED' : 'APPROVED',
          purchase_units: [{ reference_id: order.paymentId, payments: { captures } }],
        });
      }
      send(404, {});
    });
  });
  await new Promise<void>((resolve) => paypal.listen(0, '127.0.0.1', resolve));
  paypalUrl = `http://127.0.0.1:${(paypal.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => fondy.close(resolve));
  await new Promise((resolve) => paypal.close(resolve));
});

const env = () => ({
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  PORT: '3000',
  JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
  FONDY_MERCHANT_ID: '1500001',
  FONDY_SECRET_KEY: 'fondy-key',
  FONDY_API_URL: fondyUrl,
  PAYPAL_CLIENT_ID: 'cid',
  PAYPAL_CLIENT_SECRET: 'csecret',
  PAYPAL_WEBHOOK_ID: 'WH-ID',
  PAYPAL_API_URL: paypalUrl,
  PAYMENTS_RECONCILE_AFTER_MINUTES: '30',
  PAYMENTS_RECONCILE_INTERVAL_SECONDS: '0.05',
});

/** One server process over the database: the job starts when the app is ready and stops on close. */
const startServer = async (db: Db, clock: TestClock, lines: Record<string, unknown>[]): Promise<FastifyInstance> => {
  const app = await buildApp({
    config: loadConfig(env()),
    db,
    clock,
    serveWeb: false,
    logStream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  await app.ready();
  return app;
};

let seq = 0;
const newOrder = async (db: Db) => {
  seq += 1;
  const [user] = await db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id) VALUES (1, $1, 'x', 1) RETURNING id`,
    [`late-${seq}@example.com`],
  );
  const uid = `late-${String(seq).padStart(4, '0')}-abcdefghijklmnop`;
  if (!user) throw new Error('no customer');
  const order = await insertOrder(db, { customerId: user.id, uid, title: 'Late essay' });
  return { id: order.id, uid };
};
const attemptOf = async (db: Db, orderId: number) => {
  const [p] = await db.query<{
    id: string;
    state: string;
    reconcile_checks: number;
    reconcile_at: Date | null;
    support_since: Date | null;
  }>('SELECT id, state, reconcile_checks, reconcile_at, support_since FROM payments WHERE order_id = $1', [orderId]);
  if (!p) throw new Error('no attempt');
  return p;
};
const orderOf = async (db: Db, orderId: number) => {
  const [o] = await db.query<{ status_id: number; pending: boolean }>('SELECT status_id, pending FROM orders WHERE id = $1', [orderId]);
  const [tr] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM transactions WHERE order_id = $1 AND type = 'payment'`, [
    orderId,
  ]);
  return { status: o?.status_id, pending: o?.pending, payments: tr?.n };
};
/** A few runs of the job (every 50 ms) in real time. */
const someRuns = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('the reconciliation job', () => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await createTestDb());
  });
  afterAll(async () => {
    await drop();
  });

  it('asks Fondy about an attempt left pending, keeps its schedule across a restart, and pays the order once', async () => {
    const clock = createTestClock(new Date('2026-03-01T10:00:00Z'));
    const lines: Record<string, unknown>[] = [];
    let app = await startServer(db, clock, lines);
    const order = await newOrder(db);
    const res = await app.inject({ method: 'GET', url: `/checkout/fondy/order/${order.uid}?hashDevice=d` });
    expect(res.headers.location).toBe('https://pay.fondy.test/checkout?token=t');
    const { id } = await attemptOf(db, order.id);
    fondyStatus.set(id, 'processing');

    // Not yet 30 minutes: nobody asks.
    await someRuns();
    expect(asked.get(id)).toBeUndefined();

    clock.advance(31 * MINUTE);
    await expect.poll(() => asked.get(id), { timeout: 5000 }).toBe(1);
    // Fondy's "processing" went through the callbacks' path (created → pending); the next check is the
    // configured delay later.
    await expect.poll(async () => (await attemptOf(db, order.id)).state).toBe('pending');
    const first = await attemptOf(db, order.id);
    expect(first.reconcile_checks).toBe(1);
    expect(first.reconcile_at?.getTime()).toBe(clock.now().getTime() + 30 * MINUTE);

    // Restart: the new process reads the schedule from the database and does not ask again early.
    await app.close();
    fondyStatus.set(id, 'approved');
    app = await startServer(db, clock, lines);
    await someRuns();
    expect(asked.get(id)).toBe(1);

    clock.advance(31 * MINUTE);
    await expect.poll(async () => (await orderOf(db, order.id)).status, { timeout: 5000 }).toBe(2);
    expect(await orderOf(db, order.id)).toEqual({ status: 2, pending: false, payments: 1 });
    await someRuns();
    expect(asked.get(id)).toBe(2);
    await app.close();
  });

  it('asks PayPal about an approved order the buyer never came back from, and pays it from the order GET', async () => {
    const clock = createTestClock(new Date('2026-05-01T10:00:00Z'));
    const app = await startServer(db, clock, []);
    const order = await newOrder(db);
    const res = await app.inject({ method: 'GET', url: `/pp/sdk/redirect?uid=${order.uid}&hashDevice=d` });
    expect(String(res.headers.location)).toMatch(/^https:\/\/paypal\.test\/checkoutnow\?token=/);
    const { id } = await attemptOf(db, order.id);
    const [ref] = [...paypalOrders.entries()].find(([, o]) => o.paymentId === id) ?? [];
    if (!ref) throw new Error('no PayPal order');
    paypalOrders.set(ref, { paymentId: id, capture: 'COMPLETED' });

    clock.advance(31 * MINUTE);
    await expect.poll(async () => (await orderOf(db, order.id)).status, { timeout: 5000 }).toBe(2);
    expect(await orderOf(db, order.id)).toEqual({ status: 2, pending: false, payments: 1 });
    await app.close();
  });

  it('expires an abandoned sandbox attempt (the sandbox answers from its own record)', async () => {
    const clock = createTestClock(new Date('2026-04-01T10:00:00Z'));
    const app = await startServer(db, clock, []);
    // paycore.io has no credentials in this process: its sandbox.
    const sandbox = await newOrder(db);
    const res = await app.inject({ method: 'GET', url: `/checkout/paycoreio/order/${sandbox.uid}?hashDevice=d` });
    expect(new URL(String(res.headers.location)).pathname).toMatch(/^\/sandbox\/paycore\//);

    clock.advance(31 * MINUTE);
    await expect.poll(async () => (await attemptOf(db, sandbox.id)).state, { timeout: 5000 }).toBe('declined');
    expect(await orderOf(db, sandbox.id)).toEqual({ status: 1, pending: false, payments: 0 });
    const [event] = await db.query<{ event_id: string }>('SELECT event_id FROM payment_events WHERE payment_id = $1', [
      (await attemptOf(db, sandbox.id)).id,
    ]);
    expect(event?.event_id).toMatch(/^sandbox-expired:/);
    await app.close();
  });

  it('two instances running at once ask about each due attempt once (claims with SKIP LOCKED and a lease)', async () => {
    const clock = createTestClock(new Date('2026-06-01T10:00:00Z'));
    const config = loadConfig({ ...env(), PAYMENTS_RECONCILE_INTERVAL_SECONDS: '0' });
    const app = await startServer(db, clock, []);
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const order = await newOrder(db);
      await app.inject({ method: 'GET', url: `/checkout/fondy/order/${order.uid}?hashDevice=d` });
      ids.push((await attemptOf(db, order.id)).id);
    }
    await app.close();
    // Two server processes over one database: each has its own reconciler.
    const instance = async () => {
      const repo = createPaymentsRepo(db);
      const providers = await createProviders({ config: config.payments, repo, origin: 'http://localhost:3000' });
      const log = app.log;
      const service = createPaymentsService({ db, repo, providers, clock, log, origin: 'http://localhost:3000' });
      return createReconciler({ db, providers, applyEvent: service.applyEvent, clock, log, ...config.payments.reconcile });
    };
    const [a, b] = await Promise.all([instance(), instance()]);
    clock.advance(31 * MINUTE);
    const claimed = await Promise.all([a.runOnce(), b.runOnce()]);
    expect(claimed[0] + claimed[1]).toBe(6);
    expect(ids.map((id) => asked.get(id))).toEqual([1, 1, 1, 1, 1, 1]);
    // Right after, nothing is due: the next check is a delay away.
    expect(await Promise.all([a.runOnce(), b.runOnce()])).toEqual([0, 0]);
  });
});
