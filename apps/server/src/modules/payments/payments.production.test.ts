import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_UNAVAILABLE_MESSAGE, ROLE, siteSettingsSchema } from '@app/domain';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import type { Db } from '../../db/client';
import { createTestClock, createTestDb } from '../../testing/build-test-app';
import { insertOrder } from '../../testing/factories';
import { createAccessTokens } from '../auth';
import { paycoreSignature } from './providers/paycore/paycore.adapter';

/**
 * ADR 0036: with NODE_ENV=production a provider without credentials is
 * not offered and its routes refuse, unless PAYMENTS_SANDBOX=1 (logged loudly at start).
 */

interface ProdApp {
  app: FastifyInstance;
  db: Db;
  lines: Record<string, unknown>[];
  token: (userId: number) => Promise<string>;
  close: () => Promise<void>;
}

let fondyApi: Server;
let fondyUrl: string;

beforeAll(async () => {
  // Fondy's checkout/url, answered by a local server (the real adapter talks to it).
  fondyApi = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ response: { response_status: 'success', checkout_url: 'https://pay.fondy.test/checkout?token=t1' } }));
    });
  });
  await new Promise<void>((resolve) => fondyApi.listen(0, '127.0.0.1', resolve));
  fondyUrl = `http://127.0.0.1:${(fondyApi.address() as AddressInfo).port}/api`;
});
afterAll(async () => {
  await new Promise((resolve) => fondyApi.close(resolve));
});

const startProduction = async (env: Record<string, string>): Promise<ProdApp> => {
  const { db, drop } = await createTestDb();
  const config = loadConfig({
    NODE_ENV: 'production',
    PUBLIC_ORIGIN: 'https://writing.example',
    LOG_LEVEL: 'warn',
    PORT: '3000',
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    FONDY_MERCHANT_ID: '1500001',
    FONDY_SECRET_KEY: 'fondy-key',
    FONDY_API_URL: fondyUrl,
    ...env,
  });
  const lines: Record<string, unknown>[] = [];
  const clock = createTestClock();
  const app = await buildApp({
    config,
    db,
    clock,
    serveWeb: false,
    logStream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  await app.ready();
  const tokens = createAccessTokens(config.jwtSecret ?? '', clock);
  return {
    app,
    db,
    lines,
    token: (userId) => tokens.sign({ userId, role: ROLE.customer }),
    close: async () => {
      await app.close();
      await drop();
    },
  };
};

let seq = 0;
const newOrder = async (db: Db) => {
  seq += 1;
  const [user] = await db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id) VALUES (1, $1, 'x', 1) RETURNING id`,
    [`prod-payer-${seq}@example.com`],
  );
  const uid = `prod-${String(seq).padStart(4, '0')}-abcdefghijklmnop`;
  if (!user) throw new Error('no customer');
  const order = await insertOrder(db, { customerId: user.id, uid, title: 'Production essay' });
  return { id: order.id, uid, customerId: user.id };
};
const attempts = async (db: Db, orderId: number) =>
  (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE order_id = $1', [orderId]))[0]?.n;
const orderStatus = async (db: Db, orderId: number) =>
  (await db.query<{ status_id: number }>('SELECT status_id FROM orders WHERE id = $1', [orderId]))[0]?.status_id;

describe('production without PAYMENTS_SANDBOX: only providers with credentials (Fondy here)', () => {
  let p: ProdApp;
  beforeAll(async () => {
    p = await startProduction({});
  });
  afterAll(async () => {
    await p.close();
  });

  it('offers only Fondy in the site settings the chooser reads', async () => {
    const res = await p.app.inject({ method: 'GET', url: '/api/en/sites/settings' });
    expect(res.statusCode).toBe(200);
    const settings = siteSettingsSchema.parse(res.json());
    const offered = new Set(Object.values(settings.payments_rules).flatMap((byWorkType) => Object.values(byWorkType).flat()));
    expect([...offered]).toEqual(['fondy']);
  });

  it('refuses checkout for a provider without credentials (404 with a clear message) and starts no attempt', async () => {
    const order = await newOrder(p.db);
    for (const url of [
      `/checkout/paycoreio/order/${order.uid}?hashDevice=d`,
      `/checkout/paymentwall/order/${order.uid}?hashDevice=d`,
      `/pp/sdk/redirect?uid=${order.uid}&hashDevice=d`,
    ]) {
      const res = await p.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ message: PAYMENT_UNAVAILABLE_MESSAGE });
    }
    expect(await attempts(p.db, order.id)).toBe(0);
    // The provider with credentials goes to its real page.
    const fondy = await p.app.inject({ method: 'GET', url: `/checkout/fondy/order/${order.uid}?hashDevice=d` });
    expect(fondy.statusCode).toBe(302);
    expect(fondy.headers.location).toBe('https://pay.fondy.test/checkout?token=t1');
  });

  it('refuses the sandbox page, its Pay and the callback signed with the sandbox key: the order stays unpaid', async () => {
    const order = await newOrder(p.db);
    // An attempt left from a sandbox deployment of the same database.
    await p.db.query(
      `INSERT INTO payments (id, order_id, customer_id, provider, amount_cents, sandbox) VALUES ('sandbox-attempt-000001', $1, $2, 'paycore', 2400, true)`,
      [order.id, order.customerId],
    );
    expect((await p.app.inject({ method: 'GET', url: '/sandbox/paycore/sandbox-attempt-000001' })).statusCode).toBe(404);
    const pay = await p.app.inject({ method: 'POST', url: '/sandbox/paycore/sandbox-attempt-000001/pay' });
    expect(pay.statusCode).toBe(404);
    expect(pay.json()).toEqual({ message: PAYMENT_UNAVAILABLE_MESSAGE });

    const [secret] = await p.db.query<{ value: string }>(`SELECT value FROM app_secrets WHERE name = 'payments_sandbox_paycore'`);
    const body = JSON.stringify({
      data: {
        type: 'payment-invoices',
        id: 'cpi_x',
        attributes: { status: 'processed', amount: 24, currency: 'USD', reference_id: 'sandbox-attempt-000001' },
      },
    });
    const callback = await p.app.inject({
      method: 'POST',
      url: '/api/payments/paycore/callback',
      headers: { 'content-type': 'application/json', 'x-signature': paycoreSignature(body, secret?.value ?? '') },
      payload: body,
    });
    expect(callback.statusCode).toBe(404);
    expect(await orderStatus(p.db, order.id)).toBe(1);
  });

  it('logs at start that the providers without credentials are not offered', () => {
    expect(p.lines.some((l) => l.level === 40 && String(l.msg).includes('not offered in production'))).toBe(true);
    expect(p.lines.some((l) => l.level === 50)).toBe(false);
  });
});

describe('production with PAYMENTS_SANDBOX=1', () => {
  let p: ProdApp;
  beforeAll(async () => {
    p = await startProduction({ PAYMENTS_SANDBOX: '1' });
  });
  afterAll(async () => {
    await p.close();
  });

  it('logs an error-level line at start naming the sandboxed providers', () => {
    const line = p.lines.find((l) => String(l.msg).startsWith('PAYMENTS_SANDBOX=1 in production'));
    expect(line?.level).toBe(50);
    expect(line?.providers).toEqual(['paycore', 'paypal', 'paymentwall']);
  });

  it('pays through the sandbox and marks the transaction as a sandbox one', async () => {
    const order = await newOrder(p.db);
    const res = await p.app.inject({ method: 'GET', url: `/checkout/paycoreio/order/${order.uid}?hashDevice=d` });
    expect(res.statusCode).toBe(302);
    const path = new URL(String(res.headers.location)).pathname;
    expect(path).toMatch(/^\/sandbox\/paycore\//);
    expect((await p.app.inject({ method: 'POST', url: `${path}/pay` })).headers.location).toBe(
      `/orderinfo/${order.id}/details?payment=success`,
    );
    expect(await orderStatus(p.db, order.id)).toBe(2);

    const list = await p.app.inject({
      method: 'GET',
      url: '/api/en/customers/transactions?page=1&limit=16',
      headers: { authorization: `Bearer ${await p.token(order.customerId)}` },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 1, transactions: [{ orderId: order.id, type: 'payment', sandbox: true }] });
  });
});
