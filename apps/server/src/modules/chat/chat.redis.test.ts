import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENT } from '@app/domain';
import { postgresDb, type Db } from '../../db/client';
import { buildTestApp, createTestClock, createTestDb, type TestApp } from '../../testing/build-test-app';
import { chatFixtures, messageForm, openSocket, type TestSocket } from '../../testing/chat-fixtures';

/**
 * ADR 0048 "Several instances": two app instances, each with its own pool on one PostgreSQL database,
 * and one Redis. Whatever happens on one reaches the sockets of the other within a second.
 */
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// A channel and keys of this run only: parallel runs on the same Redis never hear each other.
const PREFIX = `chat-test:${randomBytes(6).toString('hex')}:`;
const WITHIN_MS = 1000;

let a: TestApp;
let b: TestApp;
let dbB: Db;
let drop: () => Promise<void>;
let fx: ReturnType<typeof chatFixtures>;
const sockets: TestSocket[] = [];
let writer: { id: number; token: string };
let support: { id: number; token: string };
let n = 0;

const wsBase = (t: TestApp) => `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/chat`;
const open = async (t: TestApp, side: 'customers' | 'staff', token: string) => {
  const socket = await openSocket(`${wsBase(t)}/${side}/orders/messages?accessToken=${token}`);
  sockets.push(socket);
  return socket;
};
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const newCustomer = async (writerId: number | null = writer.id) => {
  n += 1;
  const customer = await fx.customer(`chat.redis.${n}.${PREFIX}@example.com`.replace(/:/g, '-'));
  return { ...customer, orderId: await fx.order(customer.id, writerId) };
};
const post = async (t: TestApp, token: string, orderId: number, body: string, side: 'customers' | 'staff', direction = '2') => {
  const form = messageForm({ direction, message: JSON.stringify({ body }) });
  const res = await t.app.inject({
    method: 'POST',
    url: `/chat/api/${side}/orders/${orderId}/messages`,
    headers: { ...auth(token), ...form.headers },
    payload: form.payload,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { id: number; sequence: number };
};
const dataOf = (frame: { data?: unknown }) => frame.data as Record<string, unknown>;

beforeAll(async () => {
  const created = await createTestDb();
  drop = created.drop;
  if (!created.url) throw new Error('this test needs a PostgreSQL server (TEST_DATABASE_URL)');
  dbB = postgresDb(created.url, { onIdleError: () => undefined });
  const clock = createTestClock();
  const env = { REDIS_URL, CHAT_REDIS_PREFIX: PREFIX };
  a = await buildTestApp({ db: created.db, clock, env });
  b = await buildTestApp({ db: dbB, clock, env });
  await Promise.all([a.app.listen({ port: 0, host: '127.0.0.1' }), b.app.listen({ port: 0, host: '127.0.0.1' })]);
  fx = chatFixtures(a);
  writer = await fx.writer(`chat.redis.writer.${PREFIX}@example.com`.replace(/:/g, '-'));
  support = await fx.support(`chat.redis.support.${PREFIX}@example.com`.replace(/:/g, '-'));
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await Promise.all([a?.close(), b?.close()]);
  await dbB?.close();
  await drop?.();
});

describe('ADR 0048: two instances on one PostgreSQL and one Redis', () => {
  it('delivers a message posted through one to a socket on the other within 1 s, with the unread update', async () => {
    const c = await newCustomer();
    const other = await newCustomer();
    const onB = await open(b, 'customers', c.token);
    const intruderOnB = await open(b, 'customers', other.token);
    const started = Date.now();
    const sent = await post(a, support.token, c.orderId, 'across instances', 'staff');
    expect(dataOf(await onB.next((f) => f.event === SOCKET_EVENT.newMessage, WITHIN_MS)).message).toMatchObject({
      id: sent.id,
      body: 'across instances',
    });
    expect(Date.now() - started).toBeLessThan(WITHIN_MS);
    expect(dataOf(await onB.next((f) => f.event === SOCKET_EVENT.unread, WITHIN_MS))).toEqual({
      orderId: c.orderId,
      total: 1,
      writer: 0,
      support: 1,
    });
    expect(await intruderOnB.none(() => true)).toBe(true);
    // And back: the customer's message through B reaches support's socket on A.
    const staffOnA = await open(a, 'staff', support.token);
    const reply = await post(b, c.token, c.orderId, 'got it', 'customers');
    expect(
      dataOf(
        await staffOnA.next((f) => f.event === SOCKET_EVENT.newMessage && (dataOf(f).message as { id: number }).id === reply.id, WITHIN_MS),
      ).message,
    ).toMatchObject({ body: 'got it' });
  });

  it('carries typing both ways and read state and unread counts to the other instance', async () => {
    const c = await newCustomer();
    const customerOnA = await open(a, 'customers', c.token);
    const otherTabOnB = await open(b, 'customers', c.token);
    const staffOnB = await open(b, 'staff', support.token);
    customerOnA.send({ event: SOCKET_EVENT.customerTypingStart, data: { orderId: c.orderId, chat: 'support' } });
    expect(dataOf(await staffOnB.next((f) => f.event === SOCKET_EVENT.customerTypingStart, WITHIN_MS))).toEqual({
      orderId: c.orderId,
      chat: 'support',
    });
    staffOnB.send({ event: SOCKET_EVENT.supportTypingStart, data: { orderId: c.orderId } });
    expect(dataOf(await customerOnA.next((f) => f.event === SOCKET_EVENT.supportTypingStart, WITHIN_MS))).toEqual({
      orderId: c.orderId,
      chat: 'support',
    });
    const sent = await post(b, support.token, c.orderId, 'read me', 'staff');
    await otherTabOnB.next((f) => f.event === SOCKET_EVENT.unread && dataOf(f).total === 1, WITHIN_MS);
    await a.app.inject({
      method: 'PUT',
      url: `/chat/api/customers/orders/${c.orderId}/messages/read`,
      headers: auth(c.token),
      payload: { messages: String(sent.id) },
    });
    expect(dataOf(await otherTabOnB.next((f) => f.event === SOCKET_EVENT.unread && dataOf(f).total === 0, WITHIN_MS))).toMatchObject({
      orderId: c.orderId,
    });
    expect(dataOf(await staffOnB.next((f) => f.event === SOCKET_EVENT.read, WITHIN_MS))).toMatchObject({
      by: 'customer',
      messageId: sent.id,
    });
  });

  it('shows the writer online on the other instance (event 8 and the poll) and offline when they leave', async () => {
    const lone = await fx.writer(`chat.redis.lone.${PREFIX}@example.com`.replace(/:/g, '-'));
    const c = await newCustomer(lone.id);
    const customerOnB = await open(b, 'customers', c.token);
    const online = async (t: TestApp) =>
      (
        (
          await t.app.inject({ method: 'GET', url: `/chat/api/customers/orders/${c.orderId}/writer/online`, headers: auth(c.token) })
        ).json() as { online: boolean }
      ).online;
    expect(await online(b)).toBe(false);
    const writerOnA = await open(a, 'staff', lone.token);
    expect(dataOf(await customerOnB.next((f) => f.event === SOCKET_EVENT.writerOnline, WITHIN_MS))).toEqual({
      orderId: c.orderId,
      online: true,
    });
    expect(await online(b)).toBe(true);
    writerOnA.close();
    expect(dataOf(await customerOnB.next((f) => f.event === SOCKET_EVENT.writerOnline, WITHIN_MS))).toEqual({
      orderId: c.orderId,
      online: false,
    });
    expect(await online(b)).toBe(false);
  });

  it('heals a missed wake-up with the catch-up: what was posted while a socket was away is in ?after=', async () => {
    const c = await newCustomer();
    const first = await post(a, support.token, c.orderId, 'one', 'staff');
    // No socket anywhere: the wake-ups go nowhere. The client reconnects and asks for what follows its last id.
    await post(b, support.token, c.orderId, 'two', 'staff');
    await post(a, writer.token, c.orderId, 'three', 'staff');
    const res = await b.app.inject({
      method: 'GET',
      url: `/chat/api/customers/orders/${c.orderId}/messages?after=${first.id}`,
      headers: auth(c.token),
    });
    expect((res.json() as { messages: { body: string; sequence: number }[] }).messages.map((m) => [m.sequence, m.body])).toEqual([
      [2, 'two'],
      [3, 'three'],
    ]);
  });
});
