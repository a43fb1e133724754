import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE, SOCKET_EVENT } from '@app/domain';
import { postgresDb, type Db } from '../../db/client';
import { buildTestApp, createTestClock, createTestDb, type TestApp } from '../../testing/build-test-app';
import { chatFixtures, messageForm, openSocket, type TestSocket } from '../../testing/chat-fixtures';
import { sessionIdOf, signedInStaff, signedUpCustomer, signIn, TEST_PASSWORD, type TestSession } from '../../testing/sessions';

/**
 * ADR 0069 across instances: two apps on one PostgreSQL database and one Redis (as chat.redis.test.ts).
 * A session ended through one instance's HTTP route closes the sockets it opened on the other with 4401
 * within a second, and they hear nothing more.
 */
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// A channel and keys of this run only: parallel runs on the same Redis never hear each other.
const PREFIX = `chat-sessions-test:${randomBytes(6).toString('hex')}:`;
const WITHIN_MS = 1000;

let a: TestApp;
let b: TestApp;
let dbB: Db;
let drop: () => Promise<void>;
let fx: ReturnType<typeof chatFixtures>;
let support: { id: number; token: string };
const sockets: TestSocket[] = [];

const open = async (t: TestApp, side: 'customers' | 'staff', s: TestSession) => {
  const port = (t.app.server.address() as AddressInfo).port;
  const socket = await openSocket(`ws://127.0.0.1:${port}/chat/${side}/orders/messages?accessToken=${encodeURIComponent(s.accessToken)}`);
  sockets.push(socket);
  expect(socket.ws.readyState).toBe(socket.ws.OPEN);
  return socket;
};
const closedWithin = async (socket: TestSocket, ms = WITHIN_MS): Promise<number | null> =>
  Promise.race([socket.closed.then((c) => c.code), new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);
const staffMessage = async (t: TestApp, orderId: number, body: string) => {
  const form = messageForm({ direction: '6', message: JSON.stringify({ body }) });
  const res = await t.app.inject({
    method: 'POST',
    url: `/chat/api/staff/orders/${orderId}/messages`,
    headers: { authorization: `Bearer ${support.token}`, ...form.headers },
    payload: form.payload,
  });
  expect(res.statusCode).toBe(200);
};
const hears = (socket: TestSocket, body: string) =>
  socket.next((f) => f.event === SOCKET_EVENT.newMessage && (f.data as { message: { body: string } }).message.body === body, WITHIN_MS);

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
  support = await fx.support(`chat.sessions.redis.support.${randomBytes(4).toString('hex')}@example.com`);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await Promise.all([a?.close(), b?.close()]);
  await dbB?.close();
  await drop?.();
});

describe('ADR 0069: an ended session closes its sockets on every instance', () => {
  it('ending a session through A closes its socket on B with 4401 within 1 s; the other session’s socket on B hears the next message', async () => {
    const c = await signedUpCustomer(a, { tag: 'redis-end-one' });
    const phone = await signIn(a, c.email);
    const orderId = await fx.order(c.id);
    const laptopOnB = await open(b, 'customers', c.session);
    const phoneOnB = await open(b, 'customers', phone);
    const phoneOnA = await open(a, 'customers', phone);
    const phoneId = await sessionIdOf(a, phone, c.session);
    const started = Date.now();
    const res = await a.app.inject({ method: 'DELETE', url: `/api/en/customers/customer/sessions/${phoneId}`, headers: c.session.auth });
    expect(res.statusCode).toBe(200);
    expect(await closedWithin(phoneOnB)).toBe(4401);
    expect(await closedWithin(phoneOnA)).toBe(4401);
    expect(Date.now() - started).toBeLessThan(WITHIN_MS);
    await staffMessage(a, orderId, 'across instances');
    await hears(laptopOnB, 'across instances');
    expect(phoneOnB.frames.some((f) => f.event === SOCKET_EVENT.newMessage || f.event === SOCKET_EVENT.unread)).toBe(false);
  });

  it('a password changed through B closes the other sessions’ sockets on A', async () => {
    const c = await signedUpCustomer(b, { tag: 'redis-password' });
    const phone = await signIn(b, c.email);
    const orderId = await fx.order(c.id);
    const laptopOnA = await open(a, 'customers', c.session);
    const phoneOnA = await open(a, 'customers', phone);
    const res = await b.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/password',
      headers: c.session.auth,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'another-pass-2' },
    });
    expect(res.statusCode).toBe(200);
    expect(await closedWithin(phoneOnA)).toBe(4401);
    await staffMessage(b, orderId, 'after the change');
    await hears(laptopOnA, 'after the change');
    expect(phoneOnA.frames.some((f) => f.event === SOCKET_EVENT.newMessage)).toBe(false);
  });

  it('a staff member’s logout through A closes their staff socket on B', async () => {
    const writer = await signedInStaff(a, { role: ROLE.writer, tag: 'redis-writer' });
    const onB = await open(b, 'staff', writer.session);
    const res = await a.app.inject({
      method: 'POST',
      url: '/api/en/auth/jwt/logout',
      headers: { authorization: `Bearer ${writer.session.refreshToken}` },
    });
    expect(res.statusCode).toBeLessThan(300);
    expect(await closedWithin(onB)).toBe(4401);
  });
});
