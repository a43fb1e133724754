import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultOrderForm, toOrderBody } from '@app/domain';
import { buildApp } from './app';
import { loadConfig } from './config';
import type { Db } from './db/client';
import { openDatabase } from './db/open';
import { SERVICE_UNAVAILABLE_MESSAGE } from './plugins/error-handler';
import { createTestClock } from './testing/build-test-app';
import { chatFixtures, messageForm } from './testing/chat-fixtures';
import { startThrowawayPostgres, type ThrowawayPostgres } from './testing/throwaway-servers';

/**
 * ADR 0074 "The database down": the app on a PostgreSQL cluster of this test alone, which the test stops,
 * restarts and freezes under mixed traffic (order creation, chat sends) over real HTTP. While the database
 * cannot answer, every request gets a 503 with a message within 10 s (never a hang) and /healthz says 503;
 * once it is back, requests succeed again within seconds, by themselves; every request that was answered
 * 2xx is in the database afterwards, and a retry of a refused one with its Idempotency-Key stores it once.
 */
const HANG_BOUND_MS = 10_000;
const RECOVERY_BOUND_MS = 10_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let cluster: ThrowawayPostgres;
let app: FastifyInstance;
let db: Db;
let base: string;
let fx: ReturnType<typeof chatFixtures>;
/** Customers, each with a paid order to chat on (the chat's send limits are per account). */
const customers: { id: number; token: string; orderId: number }[] = [];

interface Outcome {
  kind: 'order' | 'chat';
  key: string;
  token: string;
  orderId: number;
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
  startedAt: number;
  ms: number;
}

const orderBody = () => ({
  ...toOrderBody({ ...defaultOrderForm(1), subject: 4, title: 'Fault traffic', details: 'Compare solar and wind costs since 2010.' }, 1),
});

/** One request over HTTP; a client-side limit well past the bound only so that a hang fails the test, not the run. */
const call = async (
  method: string,
  path: string,
  init: { token?: string; key?: string; json?: unknown; form?: ReturnType<typeof messageForm> } = {},
) => {
  const startedAt = Date.now();
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.key) headers['idempotency-key'] = init.key;
  let body: string | Buffer | undefined;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.form) {
    Object.assign(headers, init.form.headers);
    body = init.form.payload;
  }
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, { method, headers, body, signal: AbortSignal.timeout(HANG_BOUND_MS * 3) });
  } catch (error) {
    // No answer at all (a hang past the client's patience, a closed connection): status 0, which fails the checks.
    return { status: 0, body: { error: String(error) }, retryAfter: null, startedAt, ms: Date.now() - startedAt };
  }
  const text = await res.text();
  return {
    status: res.status,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
    retryAfter: res.headers.get('retry-after'),
    startedAt,
    ms: Date.now() - startedAt,
  };
};

let sequence = 0;
const createOrder = async (customer: (typeof customers)[number], key = `order-${(sequence += 1)}`): Promise<Outcome> => ({
  kind: 'order',
  key,
  token: customer.token,
  orderId: 0,
  ...(await call('POST', '/api/en/sites/categories/1/orders', { token: customer.token, key, json: orderBody() })),
});
const sendChat = async (customer: (typeof customers)[number], key = `chat-${(sequence += 1)}`): Promise<Outcome> => ({
  kind: 'chat',
  key,
  token: customer.token,
  orderId: customer.orderId,
  ...(await call('POST', `/chat/api/customers/orders/${customer.orderId}/messages`, {
    token: customer.token,
    key,
    form: messageForm({ direction: '2', message: JSON.stringify({ body: `message ${key}` }) }),
  })),
});

/** Workers that create orders and send chat messages until stopped, each request recorded. */
const traffic = (workers: number) => {
  const outcomes: Outcome[] = [];
  let stopped = false;
  let turn = 0;
  const worker = async (w: number) => {
    for (let n = 0; !stopped; n += 1) {
      const customer = customers[(turn += 1) % customers.length];
      if (!customer) throw new Error('no customers');
      outcomes.push(await ((w + n) % 2 === 0 ? createOrder(customer) : sendChat(customer)));
      await sleep(150);
    }
  };
  const running = Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  return {
    outcomes,
    /** Resolves once a request of each kind that started after `since` succeeded. */
    succeededSince: async (since: number, within: number) => {
      const deadline = Date.now() + within;
      const ok = (kind: Outcome['kind']) => outcomes.some((o) => o.kind === kind && o.startedAt >= since && o.status === 200);
      while (!(ok('order') && ok('chat'))) {
        if (Date.now() > deadline)
          throw new Error(
            `no success of both kinds within ${within} ms; last answers: ${JSON.stringify(outcomes.slice(-4).map((o) => [o.kind, o.status, o.body]))}`,
          );
        await sleep(50);
      }
      return Date.now() - since;
    },
    stop: async () => {
      stopped = true;
      await running;
    },
  };
};

/** What the database holds of what was answered 2xx: orders by id, messages by id. */
const stored = async (outcomes: Outcome[]) => {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    const orderIds = outcomes.filter((o) => o.kind === 'order' && o.status === 200).map((o) => Number(o.body.id));
    const messageIds = outcomes.filter((o) => o.kind === 'chat' && o.status === 200).map((o) => Number(o.body.id));
    const orders = (await client.query<{ id: number }>('SELECT id FROM orders WHERE id = ANY($1::int[])', [orderIds])).rows;
    const messages = (await client.query<{ id: number }>('SELECT id FROM messages WHERE id = ANY($1::bigint[])', [messageIds])).rows;
    return { orderIds, messageIds, orders: orders.length, messages: messages.length };
  } finally {
    await client.end();
  }
};

const expectCleanRefusals = (outcomes: Outcome[]) => {
  // Only successes and the outage's 503s: never a 500, never an answer past the bound.
  expect(outcomes.filter((o) => o.status !== 200 && o.status !== 503).map((o) => [o.status, o.body])).toEqual([]);
  for (const o of outcomes.filter((x) => x.status === 503)) {
    expect(o.body).toEqual({ message: SERVICE_UNAVAILABLE_MESSAGE });
    expect(Number(o.retryAfter)).toBeGreaterThan(0);
  }
  expect(Math.max(...outcomes.map((o) => o.ms))).toBeLessThan(HANG_BOUND_MS);
};

const healthz = () => call('GET', '/healthz');

beforeAll(async () => {
  cluster = await startThrowawayPostgres();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: '3000',
    JWT_SECRET: 'fault-test-secret-fault-test-secret-0123456789',
    DATABASE_URL: cluster.url,
    ORDER_CREATE_RATE_PER_HOUR: '100000',
  });
  ({ db } = await openDatabase(config));
  const clock = createTestClock();
  app = await buildApp({ config, db, serveWeb: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  fx = chatFixtures({ db, config, clock });
  for (let i = 0; i < 24; i += 1) {
    const customer = await fx.customer(`fault.pg.${i}@example.com`);
    customers.push({ ...customer, orderId: await fx.order(customer.id) });
  }
});
afterAll(async () => {
  cluster?.thaw();
  await app?.close();
  await db?.close();
  await cluster?.destroy();
});

describe('ADR 0074: PostgreSQL restarted or hung under traffic', () => {
  it('refuses cleanly (503 with a message) while it is down, recovers by itself, and loses no acknowledged write', async () => {
    const load = traffic(4);
    await load.succeededSince(0, 30_000);
    await sleep(500);

    await cluster.stop('fast');
    const downAt = Date.now();
    await sleep(1500);
    const probe = await healthz();
    expect(probe.status).toBe(503);
    expect(probe.ms).toBeLessThan(HANG_BOUND_MS);
    await sleep(1500);

    await cluster.start();
    const upAt = Date.now();
    const recoveredIn = await load.succeededSince(upAt, RECOVERY_BOUND_MS);
    expect((await healthz()).status).toBe(200);
    await sleep(500);
    await load.stop();

    const outcomes = load.outcomes;
    const duringOutage = outcomes.filter((o) => o.startedAt > downAt + 200 && o.startedAt + o.ms < upAt);
    expect(duringOutage.length).toBeGreaterThan(4);
    expect(duringOutage.every((o) => o.status === 503)).toBe(true);
    expectCleanRefusals(outcomes);
    expect(recoveredIn).toBeLessThan(RECOVERY_BOUND_MS);

    // Nothing answered 2xx was lost.
    const held = await stored(outcomes);
    expect(held.orders).toBe(held.orderIds.length);
    expect(held.messages).toBe(held.messageIds.length);
    expect(held.orderIds.length + held.messageIds.length).toBeGreaterThan(10);

    // Each refused request, tried again with its key, is stored once: the retries of those that did commit
    // before the connection went answer the same order or message.
    const refused = outcomes.filter((o) => o.status === 503);
    const byToken = new Map(customers.map((c) => [c.token, c]));
    for (const o of refused) {
      const customer = byToken.get(o.token);
      if (!customer) throw new Error('unknown customer');
      const retry = o.kind === 'order' ? await createOrder(customer, o.key) : await sendChat(customer, o.key);
      expect(retry.status).toBe(200);
    }
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      const keys = outcomes.filter((o) => o.kind === 'order').length;
      const orders = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE title = 'Fault traffic'`);
      expect(orders.rows[0]?.n).toBe(keys);
      const sends = outcomes.filter((o) => o.kind === 'chat').length;
      const messages = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE body LIKE 'message chat-%'`);
      expect(messages.rows[0]?.n).toBe(sends);
    } finally {
      await client.end();
    }
  });

  it('answers 503 within the bound while the server hangs (frozen, connections open), and recovers when it goes on', async () => {
    const customer = customers[0];
    if (!customer) throw new Error('no customer');
    cluster.freeze();
    let outcomes: Outcome[];
    let probe: Awaited<ReturnType<typeof healthz>>;
    try {
      [probe, ...outcomes] = await Promise.all([
        healthz(),
        ...customers.slice(0, 6).map((c) => createOrder(c)),
        ...customers.slice(6, 12).map((c) => sendChat(c)),
      ]);
    } finally {
      cluster.thaw();
    }
    expect(probe.status).toBe(503);
    expect(probe.ms).toBeLessThan(4_000);
    expect(outcomes.map((o) => o.status)).toEqual(outcomes.map(() => 503));
    expectCleanRefusals(outcomes);
    const deadline = Date.now() + RECOVERY_BOUND_MS;
    let answer = await createOrder(customer);
    while (answer.status !== 200 && Date.now() < deadline) {
      await sleep(200);
      answer = await createOrder(customer);
    }
    expect(answer.status).toBe(200);
    expect((await sendChat(customer)).status).toBe(200);
    expect((await healthz()).status).toBe(200);
  });
});
