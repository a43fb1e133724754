import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE, SOCKET_EVENT } from '@app/domain';
import { createAccessTokens } from '../../lib/jwt';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { chatFixtures, messageForm, openSocket, type TestSocket } from '../../testing/chat-fixtures';
import type { ChatHandle } from './index';

let t: TestApp;
let fx: ReturnType<typeof chatFixtures>;
let base: string;
let handle: ChatHandle | undefined;
let writer: { id: number; token: string };
let support: { id: number; token: string };
const sockets: TestSocket[] = [];
let n = 0;

const customerSocket = async (token: string, options = {}) => {
  const socket = await openSocket(`${base}/chat/customers/orders/messages?accessToken=${encodeURIComponent(token)}`, options);
  sockets.push(socket);
  return socket;
};
const staffSocket = async (token: string) => {
  const socket = await openSocket(`${base}/chat/staff/orders/messages?accessToken=${encodeURIComponent(token)}`);
  sockets.push(socket);
  return socket;
};
const newCustomer = async (withWriter = true) => {
  n += 1;
  const customer = await fx.customer(`chat.socket.${n}@example.com`);
  return { ...customer, orderId: await fx.order(customer.id, withWriter ? writer.id : null) };
};
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const post = async (token: string, orderId: number, body: string, side: 'customers' | 'staff', direction = '1') => {
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
  t = await buildTestApp({ onChatReady: (h) => (handle = h) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  fx = chatFixtures(t);
  writer = await fx.writer('chat.socket.writer@example.com');
  support = await fx.support('chat.socket.support@example.com');
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

describe('CONTRACT "Chat": the socket refuses a bad or expired token with 4401', () => {
  it('closes with 4401 for no token, a forged one, an expired one and a staff token on the customer socket', async () => {
    const c = await newCustomer();
    const expired = await createAccessTokens(t.config.jwtSecret ?? '', { now: () => new Date(Date.now() - 3_600_000) }).sign({
      userId: c.id,
      role: ROLE.customer,
    });
    const forged = await createAccessTokens('another-secret-another-secret-another-secret', t.clock).sign({
      userId: c.id,
      role: ROLE.customer,
    });
    for (const url of [
      `${base}/chat/customers/orders/messages`,
      `${base}/chat/customers/orders/messages?accessToken=${forged}`,
      `${base}/chat/customers/orders/messages?accessToken=${expired}`,
      `${base}/chat/customers/orders/messages?accessToken=${support.token}`,
      `${base}/chat/staff/orders/messages?accessToken=${c.token}`,
    ]) {
      const socket = await openSocket(url);
      expect((await socket.closed).code, url.replace(/accessToken=.*/, 'accessToken=…')).toBe(4401);
    }
  });

  it('closes an open socket with 4401 once its token expires (the sweep checks)', async () => {
    const c = await newCustomer();
    const socket = await customerSocket(c.token);
    t.clock.advance(16 * 60_000);
    try {
      handle?.hub.sweep();
      expect((await socket.closed).code).toBe(4401);
    } finally {
      t.clock.advance(-16 * 60_000);
    }
  });
});

describe('keep-alive', () => {
  it('answers ping 2 with pong 3', async () => {
    const c = await newCustomer();
    const socket = await customerSocket(c.token);
    socket.send({ event: SOCKET_EVENT.ping });
    expect((await socket.next((f) => f.event === SOCKET_EVENT.pong)).event).toBe(3);
  });

  it('sends protocol pings and drops a socket that stops answering them', async () => {
    const c = await newCustomer();
    const live = await customerSocket(c.token);
    const dead = await customerSocket(c.token, { autoPong: false });
    // The ping is awaited, not a fixed wait: a sweep also asks every socket's session (ADR 0069), and on a
    // busy machine the in-process database can hold the event loop past 100 ms. Then the pong's way back.
    const pinged = new Promise<boolean>((resolve) => {
      live.ws.once('ping', () => resolve(true));
      setTimeout(() => resolve(false), 5_000);
    });
    handle?.hub.sweep();
    expect(await pinged).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    handle?.hub.sweep();
    expect((await dead.closed).code).toBe(1006);
    expect(live.ws.readyState).toBe(live.ws.OPEN);
  });
});

describe("events reach the order's customer and staff only", () => {
  it('delivers a support message as frame 1 and the unread update as frame 5, and nothing to another customer', async () => {
    const c = await newCustomer();
    const other = await newCustomer();
    const mine = await customerSocket(c.token);
    const theirs = await customerSocket(other.token);
    const staff = await staffSocket(support.token);
    const sent = await post(support.token, c.orderId, 'Hello from support', 'staff');
    const message = await mine.next((f) => f.event === SOCKET_EVENT.newMessage);
    expect(dataOf(message).message).toMatchObject({ id: sent.id, orderId: c.orderId, body: 'Hello from support', direction: { id: 6 } });
    expect(dataOf(await mine.next((f) => f.event === SOCKET_EVENT.unread))).toEqual({
      orderId: c.orderId,
      total: 1,
      writer: 0,
      support: 1,
    });
    expect(dataOf(await staff.next((f) => f.event === SOCKET_EVENT.newMessage)).message).toMatchObject({ id: sent.id });
    expect(await theirs.none(() => true)).toBe(true);
  });

  it("carries the customer's typing (11/12) to staff and support typing (13/14) to the customer, never to another customer", async () => {
    const c = await newCustomer();
    const other = await newCustomer();
    const mine = await customerSocket(c.token);
    const theirs = await customerSocket(other.token);
    const staff = await staffSocket(support.token);
    const writerSocket = await staffSocket(writer.token);
    mine.send({ event: SOCKET_EVENT.customerTypingStart, data: { orderId: c.orderId, chat: 'support' } });
    expect(dataOf(await staff.next((f) => f.event === SOCKET_EVENT.customerTypingStart))).toEqual({ orderId: c.orderId, chat: 'support' });
    // The writer follows the writer chat only.
    expect(await writerSocket.none((f) => f.event === SOCKET_EVENT.customerTypingStart && dataOf(f).chat === 'support')).toBe(true);
    mine.send({ event: SOCKET_EVENT.customerTypingStop, data: { orderId: c.orderId, chat: 'support' } });
    expect(dataOf(await staff.next((f) => f.event === SOCKET_EVENT.customerTypingStop))).toEqual({ orderId: c.orderId, chat: 'support' });
    staff.send({ event: SOCKET_EVENT.supportTypingStart, data: { orderId: c.orderId } });
    expect(dataOf(await mine.next((f) => f.event === SOCKET_EVENT.supportTypingStart))).toEqual({ orderId: c.orderId, chat: 'support' });
    staff.send({ event: SOCKET_EVENT.supportTypingStop, data: { orderId: c.orderId } });
    await mine.next((f) => f.event === SOCKET_EVENT.supportTypingStop);
    // Typing on someone else's order goes nowhere.
    theirs.send({ event: SOCKET_EVENT.customerTypingStart, data: { orderId: c.orderId, chat: 'support' } });
    expect(await staff.none((f) => f.event === SOCKET_EVENT.customerTypingStart)).toBe(true);
    expect(await theirs.none((f) => f.event === SOCKET_EVENT.supportTypingStart)).toBe(true);
  });

  it("tells the customer's other tab the new counts when one tab reads, and staff the read state (6)", async () => {
    const c = await newCustomer();
    const tabA = await customerSocket(c.token);
    const tabB = await customerSocket(c.token);
    const staff = await staffSocket(support.token);
    const sent = await post(support.token, c.orderId, 'read me', 'staff');
    await tabB.next((f) => f.event === SOCKET_EVENT.unread && dataOf(f).total === 1);
    await tabA.next((f) => f.event === SOCKET_EVENT.newMessage);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/chat/api/customers/orders/${c.orderId}/messages/read`,
      headers: auth(c.token),
      payload: { messages: `${sent.id}` },
    });
    expect(res.json()).toMatchObject({ messages: [sent.id], unread: { total: 0 } });
    expect(dataOf(await tabB.next((f) => f.event === SOCKET_EVENT.unread && dataOf(f).total === 0))).toEqual({
      orderId: c.orderId,
      total: 0,
      writer: 0,
      support: 0,
    });
    expect(dataOf(await staff.next((f) => f.event === SOCKET_EVENT.read))).toEqual({
      orderId: c.orderId,
      chat: 'support',
      by: 'customer',
      messageId: sent.id,
      sequence: sent.sequence,
    });
    // Staff reading the customer's message tells the customer (6).
    const mine = await post(c.token, c.orderId, 'did you see?', 'customers', '2');
    await t.app.inject({
      method: 'PUT',
      url: `/chat/api/staff/orders/${c.orderId}/messages/read`,
      headers: auth(support.token),
      payload: { messages: `${mine.id}` },
    });
    expect(dataOf(await tabA.next((f) => f.event === SOCKET_EVENT.read))).toMatchObject({ by: 'support', messageId: mine.id });
  });

  it('says the writer is online (8) while a writer socket is open, and the poll agrees', async () => {
    const lone = await fx.writer(`chat.socket.lone.${n}@example.com`);
    n += 1;
    const customer = await fx.customer(`chat.socket.${n}@example.com`);
    const orderId = await fx.order(customer.id, lone.id);
    const mine = await customerSocket(customer.token);
    const online = async () =>
      (
        await t.app.inject({ method: 'GET', url: `/chat/api/customers/orders/${orderId}/writer/online`, headers: auth(customer.token) })
      ).json() as { online: boolean };
    expect(await online()).toEqual({ online: false });
    const writerSocket = await staffSocket(lone.token);
    expect(dataOf(await mine.next((f) => f.event === SOCKET_EVENT.writerOnline))).toEqual({ orderId, online: true });
    expect(await online()).toEqual({ online: true });
    writerSocket.close();
    expect(dataOf(await mine.next((f) => f.event === SOCKET_EVENT.writerOnline))).toEqual({ orderId, online: false });
    expect(await online()).toEqual({ online: false });
  });
});

describe('socket limits', () => {
  it('closes a socket that sends a frame over 4 KiB with 1009', async () => {
    const c = await newCustomer();
    const socket = await customerSocket(c.token);
    socket.ws.send('x'.repeat(5000));
    expect((await socket.closed).code).toBe(1009);
  });

  it('counts a socket closed for an error no more: ten others of the same customer open after it', async () => {
    const c = await newCustomer();
    const failed = await customerSocket(c.token);
    failed.ws.send('x'.repeat(5000));
    expect((await failed.closed).code).toBe(1009);
    const open: TestSocket[] = [];
    for (let i = 0; i < 10; i += 1) open.push(await customerSocket(c.token));
    // All ten are live: each answers a ping (SPEC §4 event 2 → 3).
    for (const socket of open) {
      socket.ws.send(JSON.stringify({ event: SOCKET_EVENT.ping }));
      expect((await socket.next((f) => f.event === SOCKET_EVENT.pong)).event).toBe(SOCKET_EVENT.pong);
      socket.close();
    }
  });

  it('refuses the eleventh socket of one customer with 4429', async () => {
    const c = await newCustomer();
    const open: TestSocket[] = [];
    for (let i = 0; i < 10; i += 1) open.push(await customerSocket(c.token));
    const extra = await customerSocket(c.token);
    expect((await extra.closed).code).toBe(4429);
    open[0]?.close();
    await open[0]?.closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await customerSocket(c.token);
    expect(await again.none((f) => f.event === -1, 100)).toBe(true);
    expect(again.ws.readyState).toBe(again.ws.OPEN);
  });

  it('answers an unknown frame with an error frame (4) and keeps the socket', async () => {
    const c = await newCustomer();
    const socket = await customerSocket(c.token);
    socket.ws.send('not json');
    expect((await socket.next((f) => f.event === SOCKET_EVENT.error)).data).toEqual({ message: 'Unknown frame' });
    socket.send({ event: SOCKET_EVENT.supportTypingStart, data: { orderId: c.orderId } });
    await socket.next((f) => f.event === SOCKET_EVENT.error);
    socket.send({ event: SOCKET_EVENT.ping });
    await socket.next((f) => f.event === SOCKET_EVENT.pong);
  });
});
