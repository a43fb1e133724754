import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { CHAT_MESSAGE, CHAT_SEND_BURST, SOCKET_EVENT } from '@app/domain';
import { postgresDb, type Db } from '../../db/client';
import { REDIS_BACK_MESSAGE, REDIS_DOWN_MESSAGE } from '../../lib/redis';
import { buildTestApp, createTestClock, createTestDb, type TestApp } from '../../testing/build-test-app';
import { chatFixtures, messageForm, openSocket, type TestSocket } from '../../testing/chat-fixtures';
import { startThrowawayRedis, type ThrowawayRedis } from '../../testing/throwaway-servers';

/**
 * ADR 0074 "Redis gone": two app instances on one PostgreSQL database and a Redis of this test alone,
 * which the test kills and starts again. While it is away the chat still works on each instance (its own
 * sockets hear its own wake-ups; rate limits count per instance), no request waits for Redis or fails
 * because of it, each instance logs the outage once; when Redis is back, fan-out across the instances
 * and shared counters return by themselves.
 */
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
const WITHIN_MS = 1000;
/** A request while Redis is away answers within this (no offline queue, no retries to wait for). */
const FAST_MS = 1500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let redis: ThrowawayRedis;
let a: TestApp;
let b: TestApp;
let dbB: Db;
let drop: () => Promise<void>;
let fx: ReturnType<typeof chatFixtures>;
const sockets: TestSocket[] = [];
const logs = { a: [] as { level: number; msg: string }[], b: [] as { level: number; msg: string }[] };
const logStream = (into: { level: number; msg: string }[]) => ({
  write: (line: string) => {
    const { level, msg } = JSON.parse(line) as { level: number; msg: string };
    into.push({ level, msg });
  },
});
let consoleErrors: MockInstance<typeof console.error>;

const wsBase = (t: TestApp) => `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/chat`;
const open = async (t: TestApp, side: 'customers' | 'staff', token: string) => {
  const socket = await openSocket(`${wsBase(t)}/${side}/orders/messages?accessToken=${token}`);
  sockets.push(socket);
  return socket;
};
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const post = async (t: TestApp, token: string, orderId: number, body: string, side: 'customers' | 'staff') => {
  const form = messageForm({ direction: '2', message: JSON.stringify({ body }) });
  const started = Date.now();
  const res = await t.app.inject({
    method: 'POST',
    url: `/chat/api/${side}/orders/${orderId}/messages`,
    headers: { ...auth(token), ...form.headers },
    payload: form.payload,
  });
  return { status: res.statusCode, body: res.json() as { id: number; message?: string }, ms: Date.now() - started };
};
const dataOf = (frame: { data?: unknown }) => frame.data as Record<string, unknown>;
const isMessage = (id: number) => (f: { event: number; data?: unknown }) =>
  f.event === SOCKET_EVENT.newMessage && (dataOf(f).message as { id: number }).id === id;
let n = 0;
const newOrder = async () => {
  n += 1;
  const customer = await fx.customer(`chat.faults.${n}@example.com`);
  const support = await fx.support(`chat.faults.support.${n}@example.com`);
  return { customer, support, orderId: await fx.order(customer.id) };
};
const ioredisOnConsole = () =>
  consoleErrors.mock.calls.map((args) => args.map(String).join(' ')).filter((line) => line.includes('ioredis'));

beforeAll(async () => {
  // ioredis prints every error nobody listens to with console.error: watched, not replaced.
  consoleErrors = vi.spyOn(console, 'error');
  redis = await startThrowawayRedis();
  const created = await createTestDb();
  drop = created.drop;
  if (!created.url) throw new Error('this test needs a PostgreSQL server (TEST_DATABASE_URL)');
  dbB = postgresDb(created.url, { onIdleError: () => undefined });
  const clock = createTestClock();
  const env = { REDIS_URL: redis.url, LOG_LEVEL: 'info' };
  a = await buildTestApp({ db: created.db, clock, env, logStream: logStream(logs.a) });
  b = await buildTestApp({ db: dbB, clock, env, logStream: logStream(logs.b) });
  await Promise.all([a.app.listen({ port: 0, host: '127.0.0.1' }), b.app.listen({ port: 0, host: '127.0.0.1' })]);
  fx = chatFixtures(a);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await Promise.all([a?.close(), b?.close()]);
  await dbB?.close();
  await drop?.();
  await redis?.destroy();
  vi.restoreAllMocks();
});

describe('ADR 0074: Redis stopped and started again under two instances', () => {
  it('keeps the chat working on each instance while Redis is away, logs it once, and heals when it returns', async () => {
    // Healthy: a message posted through A reaches the customer's socket on B.
    const first = await newOrder();
    const customerOnB = await open(b, 'customers', first.customer.token);
    const before = await post(a, first.support.token, first.orderId, 'before the outage', 'staff');
    expect(before.status).toBe(200);
    await customerOnB.next(isMessage(before.body.id), WITHIN_MS);

    await redis.stop();
    await sleep(300);

    // This instance's sockets still hear this instance's messages, both ways, at once.
    const second = await newOrder();
    const customerOnA = await open(a, 'customers', second.customer.token);
    const staffOnA = await open(a, 'staff', second.support.token);
    const fromSupport = await post(a, second.support.token, second.orderId, 'while Redis is away', 'staff');
    expect(fromSupport.status).toBe(200);
    expect(fromSupport.ms).toBeLessThan(FAST_MS);
    await customerOnA.next(isMessage(fromSupport.body.id), WITHIN_MS);
    expect(dataOf(await customerOnA.next((f) => f.event === SOCKET_EVENT.unread, WITHIN_MS))).toMatchObject({
      orderId: second.orderId,
      total: 1,
    });
    const fromCustomer = await post(a, second.customer.token, second.orderId, 'and back', 'customers');
    expect(fromCustomer.status).toBe(200);
    await staffOnA.next(isMessage(fromCustomer.body.id), WITHIN_MS);
    const online = await a.app.inject({
      method: 'GET',
      url: `/chat/api/customers/orders/${second.orderId}/writer/online`,
      headers: auth(second.customer.token),
    });
    expect(online.statusCode).toBe(200);

    // Rate limits hold per instance: the burst limit on A, counted in A's memory; B counts its own.
    const burst = await newOrder();
    const answers: { status: number; ms: number; message?: string }[] = [];
    for (let i = 0; i <= CHAT_SEND_BURST.max; i += 1) {
      const sent = await post(a, burst.customer.token, burst.orderId, `burst ${i}`, 'customers');
      answers.push({ status: sent.status, ms: sent.ms, message: sent.body.message });
    }
    expect(answers.slice(0, CHAT_SEND_BURST.max).map((x) => x.status)).toEqual(Array(CHAT_SEND_BURST.max).fill(200));
    expect(answers.at(-1)).toMatchObject({ status: 429, message: CHAT_MESSAGE.tooFast });
    expect(Math.max(...answers.map((x) => x.ms))).toBeLessThan(FAST_MS);
    expect((await post(b, burst.customer.token, burst.orderId, 'burst on B', 'customers')).status).toBe(200);

    // A message posted through A while Redis was away is not pushed to B's socket, but it is not lost: B's
    // client gets it with the catch-up it makes when it reconnects.
    const missed = await post(a, first.support.token, first.orderId, 'missed by B', 'staff');
    expect(await customerOnB.none(isMessage(missed.body.id), 300)).toBe(true);
    const catchUp = await b.app.inject({
      method: 'GET',
      url: `/chat/api/customers/orders/${first.orderId}/messages?after=${before.body.id}`,
      headers: auth(first.customer.token),
    });
    expect((catchUp.json() as { messages: { id: number }[] }).messages.map((m) => m.id)).toContain(missed.body.id);

    // One warning per instance for the whole outage, however many requests and reconnection attempts.
    await sleep(1500);
    for (const lines of [logs.a, logs.b]) {
      expect(lines.filter((l) => l.level >= 40).map((l) => l.msg)).toEqual([REDIS_DOWN_MESSAGE]);
    }
    expect(ioredisOnConsole()).toEqual([]);

    // Back: fan-out across the instances again (the subscriptions renewed), within seconds, by itself.
    await redis.start();
    const healedBy = Date.now() + 10_000;
    let healed = false;
    while (!healed && Date.now() < healedBy) {
      const probe = await post(a, first.support.token, first.orderId, 'after the outage', 'staff');
      expect(probe.status).toBe(200);
      healed = await customerOnB
        .next(isMessage(probe.body.id), 500)
        .then(() => true)
        .catch(() => false);
    }
    expect(healed).toBe(true);
    for (const lines of [logs.a, logs.b]) {
      expect(lines.filter((l) => l.msg === REDIS_BACK_MESSAGE)).toHaveLength(1);
      expect(lines.filter((l) => l.level >= 40).map((l) => l.msg)).toEqual([REDIS_DOWN_MESSAGE]);
    }
    // And the counters are shared again: they are in Redis. The rate limiter's own connection heals on its
    // own schedule (its reconnection back-off), so a busy machine may need a few more requests for it.
    const direct = new Redis(redis.url);
    try {
      const countersBy = Date.now() + 10_000;
      let counters = (await direct.keys('rl:*')).length;
      while (counters === 0 && Date.now() < countersBy) {
        expect((await post(a, first.support.token, first.orderId, 'counted in Redis', 'staff')).status).toBe(200);
        await sleep(250);
        counters = (await direct.keys('rl:*')).length;
      }
      expect(counters).toBeGreaterThan(0);
    } finally {
      direct.disconnect();
    }
  });

  it('starts without Redis, and closes promptly while it is away', async () => {
    await redis.stop();
    const lines: { level: number; msg: string }[] = [];
    const started = Date.now();
    const lone = await buildTestApp({ db: dbB, env: { REDIS_URL: redis.url, LOG_LEVEL: 'info' }, logStream: logStream(lines) });
    expect(Date.now() - started).toBeLessThan(5_000);
    const order = await newOrder();
    expect((await post(lone, order.customer.token, order.orderId, 'no Redis at start', 'customers')).status).toBe(200);
    const closing = Date.now();
    await lone.app.close();
    expect(Date.now() - closing).toBeLessThan(3_000);
    expect(lines.filter((l) => l.level >= 40).map((l) => l.msg)).toEqual([REDIS_DOWN_MESSAGE]);
    await redis.start();
  });
});
