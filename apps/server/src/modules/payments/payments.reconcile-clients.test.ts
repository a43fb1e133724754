import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECONCILE_MAX_CHECKS, ROLE } from '@app/domain';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import type { Db } from '../../db/client';
import { createTestClock, createTestDb, type TestClock } from '../../testing/build-test-app';
import { insertOrder } from '../../testing/factories';
import { createAccessTokens } from '../auth';
import { createPaymentsRepo } from './payments.repo';
import { createReconciler } from './payments.reconcile';
import { createPaymentsService } from './payments.service';
import { createProviders } from './providers';
import { paycoreSignature } from './providers/paycore/paycore.adapter';
import { paymentwallSignature } from './providers/paymentwall/paymentwall.adapter';

/**
 * ADR 0058: the reconciliation job asks paycore.io (Commerce private API invoice read) and
 * Paymentwall (Payment Status API) about attempts left open. Each provider is a local HTTP server that
 * checks our credential or signature as the provider does and answers in its documented shape; the
 * answer goes through the callbacks' exactly-once path.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const PAYCORE_SECRET = 'pc-secret-key';
const PW_SECRET = 'pw-secret-key';

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => resolve(body));
  });
const send = (res: ServerResponse, status: number, doc: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(doc));
};

/** paycore.io invoices by id: our attempt id, amount, and the status its read shows. */
const invoices = new Map<string, { referenceId: string; amount: number; status: string }>();
/** How often each invoice was read with the right bearer, and how many reads were refused. */
const invoiceReads = new Map<string, number>();
let refusedReads = 0;
let paycore: Server;
let paycoreUrl: string;

/** Paymentwall: per attempt id, what its Payment Status API answers ('error' → HTTP 500). */
const pwAnswers = new Map<string, { risk: string; amount: string; ref: string } | 'error' | 'unknown'>();
const pwAsked = new Map<string, number>();
let pwBadSignatures = 0;
let paymentwall: Server;
let paymentwallUrl: string;

beforeAll(async () => {
  paycore = createServer((req, res) => {
    void readBody(req).then((body) => {
      if (req.method === 'POST' && req.url === '/public-api/payment-invoices') {
        const doc = JSON.parse(body) as { reference_id: string; amount: number; currency: string; public_key: string };
        if (doc.public_key !== 'pk_test_ours') return send(res, 403, { errors: [{ title: 'Forbidden' }] });
        const id = `cpi_${String(invoices.size + 1).padStart(6, '0')}`;
        invoices.set(id, { referenceId: doc.reference_id, amount: doc.amount, status: 'created' });
        return send(res, 201, {
          data: {
            type: 'payment-invoices',
            id,
            attributes: {
              status: 'created',
              amount: doc.amount,
              currency: doc.currency,
              reference_id: doc.reference_id,
              hpp_url: `https://hpp.paycore.test/${id}`,
            },
          },
        });
      }
      const match = /^\/payment-invoices\/([^/?]+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && match) {
        if (req.headers.authorization !== `Bearer ${PAYCORE_SECRET}`) {
          refusedReads += 1;
          return send(res, 401, { errors: [{ title: 'Unauthorized' }] });
        }
        const id = decodeURIComponent(match[1] ?? '');
        const invoice = invoices.get(id);
        if (!invoice) return send(res, 404, { errors: [{ title: 'Not found' }] });
        invoiceReads.set(id, (invoiceReads.get(id) ?? 0) + 1);
        return send(res, 200, {
          data: {
            type: 'payment-invoices',
            id,
            attributes: { status: invoice.status, amount: invoice.amount, currency: 'USD', reference_id: invoice.referenceId },
          },
        });
      }
      send(res, 404, {});
    });
  });
  await new Promise<void>((resolve) => paycore.listen(0, '127.0.0.1', resolve));
  paycoreUrl = `http://127.0.0.1:${(paycore.address() as AddressInfo).port}`;

  paymentwall = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method !== 'GET' || url.pathname !== '/api/rest/payment') return send(res, 404, {});
    const params = Object.fromEntries(url.searchParams);
    // Paymentwall checks the request's signature (widget signature, the version the request names).
    const version = params.sign_version === '2' ? 2 : 3;
    if (params.key !== 'pw-project' || params.sign !== paymentwallSignature(params, PW_SECRET, version)) {
      pwBadSignatures += 1;
      return send(res, 403, { type: 'Error', object: 'Error', error: 'Wrong signature', code: 5000 });
    }
    const paymentId = params.ag_external_id ?? '';
    pwAsked.set(paymentId, (pwAsked.get(paymentId) ?? 0) + 1);
    const answer = pwAnswers.get(paymentId) ?? 'unknown';
    if (answer === 'error') return send(res, 500, { type: 'Error', error: 'Internal error' });
    if (answer === 'unknown') return send(res, 200, { type: 'Error', object: 'Error', error: 'Payment not found', code: 4003 });
    send(res, 200, {
      object: 'payment',
      id: answer.ref,
      created: 1490101573,
      amount: answer.amount,
      currency: 'USD',
      refunded: false,
      risk: answer.risk,
      uid: params.uid,
      product_id: paymentId,
      payment_system: 'gateway',
    });
  });
  await new Promise<void>((resolve) => paymentwall.listen(0, '127.0.0.1', resolve));
  paymentwallUrl = `http://127.0.0.1:${(paymentwall.address() as AddressInfo).port}/api`;
});
afterAll(async () => {
  await new Promise((resolve) => paycore.close(resolve));
  await new Promise((resolve) => paymentwall.close(resolve));
});

const env = () => ({
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  PORT: '3000',
  JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
  PAYCORE_PUBLIC_KEY: 'pk_test_ours',
  PAYCORE_SECRET_KEY: PAYCORE_SECRET,
  PAYCORE_API_URL: paycoreUrl,
  PAYMENTWALL_PROJECT_KEY: 'pw-project',
  PAYMENTWALL_SECRET_KEY: PW_SECRET,
  PAYMENTWALL_API_URL: paymentwallUrl,
  PAYMENTS_RECONCILE_AFTER_MINUTES: '30',
  PAYMENTS_RECONCILE_INTERVAL_SECONDS: '0.05',
});

const startServer = async (db: Db, clock: TestClock, lines: Record<string, unknown>[] = []): Promise<FastifyInstance> => {
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
    [`asked-${seq}@example.com`],
  );
  const uid = `asked-${String(seq).padStart(4, '0')}-abcdefghijklmnop`;
  if (!user) throw new Error('no customer');
  const order = await insertOrder(db, { customerId: user.id, uid, title: 'Asked essay' });
  return { id: order.id, uid, customerId: user.id };
};
const attemptOf = async (db: Db, orderId: number) => {
  const [p] = await db.query<{
    id: string;
    state: string;
    provider_ref: string | null;
    reconcile_checks: number;
    reconcile_at: Date | null;
    support_since: Date | null;
    support_reason: string | null;
  }>('SELECT id, state, provider_ref, reconcile_checks, reconcile_at, support_since, support_reason FROM payments WHERE order_id = $1', [
    orderId,
  ]);
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
const someRuns = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('reconciliation asks paycore.io and Paymentwall', () => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await createTestDb());
  });
  afterAll(async () => {
    await drop();
  });

  it('paycore.io: reads the invoice with the secret key, survives a restart, pays once; the same state called back later is a duplicate', async () => {
    const clock = createTestClock(new Date('2026-07-01T10:00:00Z'));
    let app = await startServer(db, clock);
    const order = await newOrder(db);
    const res = await app.inject({ method: 'GET', url: `/checkout/paycoreio/order/${order.uid}?hashDevice=d` });
    expect(String(res.headers.location)).toMatch(/^https:\/\/hpp\.paycore\.test\/cpi_/);
    const attempt = await attemptOf(db, order.id);
    const invoiceId = attempt.provider_ref ?? '';
    const invoice = invoices.get(invoiceId);
    if (!invoice) throw new Error('no invoice');
    expect(invoice.referenceId).toBe(attempt.id);
    invoice.status = 'processing';

    await someRuns();
    expect(invoiceReads.get(invoiceId)).toBeUndefined();
    clock.advance(31 * MINUTE);
    await expect.poll(() => invoiceReads.get(invoiceId), { timeout: 5000 }).toBe(1);
    await expect.poll(async () => (await attemptOf(db, order.id)).state).toBe('pending');
    expect((await attemptOf(db, order.id)).reconcile_at?.getTime()).toBe(clock.now().getTime() + 30 * MINUTE);

    // Restart in the middle: the schedule is on the row; the new process does not ask early.
    await app.close();
    invoice.status = 'processed';
    app = await startServer(db, clock);
    await someRuns();
    expect(invoiceReads.get(invoiceId)).toBe(1);
    clock.advance(31 * MINUTE);
    await expect.poll(async () => (await orderOf(db, order.id)).status, { timeout: 5000 }).toBe(2);
    expect(await orderOf(db, order.id)).toEqual({ status: 2, pending: false, payments: 1 });
    expect(refusedReads).toBe(0);

    // paycore.io's own callback of the same state arrives late: signed, accepted, and nothing more happens.
    const body = JSON.stringify({
      data: {
        type: 'payment-invoices',
        id: invoiceId,
        attributes: { status: 'processed', amount: invoice.amount, currency: 'USD', reference_id: attempt.id },
      },
    });
    const callback = await app.inject({
      method: 'POST',
      url: '/api/payments/paycore/callback',
      headers: { 'content-type': 'application/json', 'x-signature': paycoreSignature(body, PAYCORE_SECRET) },
      payload: body,
    });
    expect(callback.statusCode).toBe(200);
    expect(await orderOf(db, order.id)).toEqual({ status: 2, pending: false, payments: 1 });
    await someRuns();
    expect(invoiceReads.get(invoiceId)).toBe(2);
    await app.close();
  });

  it('Paymentwall: a signed Payment Status request; an approved payment pays the order once, and its pingback later is a duplicate', async () => {
    const clock = createTestClock(new Date('2026-08-01T10:00:00Z'));
    const app = await startServer(db, clock);
    const order = await newOrder(db);
    const res = await app.inject({ method: 'GET', url: `/checkout/paymentwall/order/${order.uid}?hashDevice=d` });
    expect(String(res.headers.location).startsWith(`${paymentwallUrl}/subscription?`)).toBe(true);
    const { id } = await attemptOf(db, order.id);
    pwAnswers.set(id, { risk: 'approved', amount: '24.00', ref: 'b777001' });

    clock.advance(31 * MINUTE);
    await expect.poll(async () => (await orderOf(db, order.id)).status, { timeout: 5000 }).toBe(2);
    expect(await orderOf(db, order.id)).toEqual({ status: 2, pending: false, payments: 1 });
    expect(pwAsked.get(id)).toBe(1);
    expect(pwBadSignatures).toBe(0);

    const params: Record<string, string> = {
      uid: String(order.customerId),
      goodsid: id,
      slength: '',
      speriod: '',
      type: '0',
      ref: 'b777001',
      sign_version: '3',
    };
    params.sig = paymentwallSignature(params, PW_SECRET, 3);
    const pingback = await app.inject({
      method: 'GET',
      url: `/api/payments/paymentwall/callback?${new URLSearchParams(params).toString()}`,
    });
    expect(pingback.statusCode).toBe(200);
    expect(await orderOf(db, order.id)).toEqual({ status: 2, pending: false, payments: 1 });
    const events = await db.query<{ event_id: string }>('SELECT event_id FROM payment_events WHERE payment_id = $1', [id]);
    expect(events.map((e) => e.event_id)).toEqual(['b777001:0']);
    await app.close();
  });

  it('Paymentwall: an answer about another amount never pays the order (parked for support)', async () => {
    const clock = createTestClock(new Date('2026-08-15T10:00:00Z'));
    const app = await startServer(db, clock);
    const order = await newOrder(db);
    await app.inject({ method: 'GET', url: `/checkout/paymentwall/order/${order.uid}?hashDevice=d` });
    const { id } = await attemptOf(db, order.id);
    pwAnswers.set(id, { risk: 'approved', amount: '1.00', ref: 'b777002' });
    clock.advance(31 * MINUTE);
    await expect.poll(async () => (await attemptOf(db, order.id)).state, { timeout: 5000 }).toBe('parked');
    expect((await orderOf(db, order.id)).status).toBe(1);
    await app.close();
  });

  it('a provider error backs off (the delay doubles), then the attempt is flagged for support with the reason, and support sees it', async () => {
    const clock = createTestClock(new Date('2026-09-01T10:00:00Z'));
    const lines: Record<string, unknown>[] = [];
    const app = await startServer(db, clock, lines);
    const order = await newOrder(db);
    await app.inject({ method: 'GET', url: `/checkout/paymentwall/order/${order.uid}?hashDevice=d` });
    const { id } = await attemptOf(db, order.id);
    pwAnswers.set(id, 'error');

    clock.advance(31 * MINUTE);
    await expect.poll(async () => (await attemptOf(db, order.id)).reconcile_checks, { timeout: 5000 }).toBe(1);
    await expect.poll(async () => (await attemptOf(db, order.id)).reconcile_at?.getTime()).toBe(clock.now().getTime() + 30 * MINUTE);
    // The log line follows the row's update: wait for it rather than read it at once (it raced under load).
    await expect.poll(() => lines.some((l) => String(l.msg).includes('the provider did not answer') && l.paymentId === id)).toBe(true);
    clock.advance(31 * MINUTE);
    await expect.poll(async () => (await attemptOf(db, order.id)).reconcile_checks, { timeout: 5000 }).toBe(2);
    // Backed off: the next check is twice the delay away.
    await expect.poll(async () => (await attemptOf(db, order.id)).reconcile_at?.getTime()).toBe(clock.now().getTime() + 60 * MINUTE);
    expect((await attemptOf(db, order.id)).support_since).toBeNull();

    for (let check = 3; check <= RECONCILE_MAX_CHECKS; check += 1) {
      clock.advance(DAY);
      await expect.poll(async () => (await attemptOf(db, order.id)).reconcile_checks, { timeout: 5000 }).toBe(check);
    }
    await expect.poll(async () => (await attemptOf(db, order.id)).support_reason, { timeout: 5000 }).toBe('provider_error');
    expect(pwAsked.get(id)).toBe(RECONCILE_MAX_CHECKS);
    expect(await orderOf(db, order.id)).toEqual({ status: 1, pending: true, payments: 0 });
    expect(lines.find((l) => String(l.msg).includes('left to support') && l.paymentId === id)).toMatchObject({
      level: 40,
      reason: 'provider_error',
    });

    // The job stops asking; support sees it in its queue.
    clock.advance(2 * DAY);
    await someRuns();
    expect(pwAsked.get(id)).toBe(RECONCILE_MAX_CHECKS);
    const [staff] = await db.query<{ id: number }>(`SELECT id FROM users WHERE role = $1 ORDER BY id LIMIT 1`, [ROLE.support]);
    const token = await createAccessTokens(loadConfig(env()).jwtSecret ?? '', clock).sign({ userId: staff?.id ?? 0, role: ROLE.support });
    const list = await app.inject({ method: 'GET', url: '/api/staff/payments/attention', headers: { authorization: `Bearer ${token}` } });
    expect(list.json<{ attempts: unknown[] }>().attempts).toContainEqual(
      expect.objectContaining({
        paymentId: id,
        orderId: order.id,
        provider: 'paymentwall',
        reason: 'provider_error',
        checks: RECONCILE_MAX_CHECKS,
        amount: 24,
      }),
    );
    await app.close();
  });

  it('an adapter without a status query hands the attempt to support at once (no_status_api)', async () => {
    const clock = createTestClock(new Date('2026-10-01T10:00:00Z'));
    const config = loadConfig({ ...env(), PAYMENTS_RECONCILE_INTERVAL_SECONDS: '0' });
    const app = await startServer(db, clock);
    const order = await newOrder(db);
    await app.inject({ method: 'GET', url: `/checkout/paymentwall/order/${order.uid}?hashDevice=d` });
    await app.close();
    const repo = createPaymentsRepo(db);
    const providers = await createProviders({ config: config.payments, repo, origin: 'http://localhost:3000' });
    const { queryStatus: _dropped, ...withoutQuery } = providers.paymentwall;
    const service = createPaymentsService({ db, repo, providers, clock, log: app.log, origin: 'http://localhost:3000' });
    const reconciler = createReconciler({
      db,
      providers: { ...providers, paymentwall: withoutQuery },
      applyEvent: service.applyEvent,
      clock,
      log: app.log,
      ...config.payments.reconcile,
    });
    clock.advance(31 * MINUTE);
    expect(await reconciler.runOnce()).toBeGreaterThanOrEqual(1);
    const attempt = await attemptOf(db, order.id);
    expect(attempt.support_reason).toBe('no_status_api');
    expect(attempt.support_since?.getTime()).toBe(clock.now().getTime());
  });
});
