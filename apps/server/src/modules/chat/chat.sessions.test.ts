import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE, SOCKET_EVENT } from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { chatFixtures, messageForm, openSocket, type TestSocket } from '../../testing/chat-fixtures';
import { sessionIdOf, signedInStaff, signedUpCustomer, signIn, TEST_PASSWORD, type TestSession } from '../../testing/sessions';
import type { ChatHandle } from './index';

/**
 * ADR 0069: a session that ends (the devices list, logout, a reused refresh token, a password change, the
 * account's deletion) closes the chat sockets it opened with 4401 within a second, and they hear nothing
 * more; the sockets of the account's other sessions stay open. A sweep re-checks every socket's session.
 */
const WITHIN_MS = 1000;

let t: TestApp;
let fx: ReturnType<typeof chatFixtures>;
let base: string;
let handle: ChatHandle | undefined;
let support: { id: number; token: string };
const sockets: TestSocket[] = [];

const open = async (side: 'customers' | 'staff', s: TestSession) => {
  const socket = await openSocket(`${base}/chat/${side}/orders/messages?accessToken=${encodeURIComponent(s.accessToken)}`);
  sockets.push(socket);
  expect(socket.ws.readyState).toBe(socket.ws.OPEN);
  return socket;
};
/** Resolves with the close code if the socket closes within `ms`, else null. */
const closedWithin = async (socket: TestSocket, ms = WITHIN_MS): Promise<number | null> =>
  Promise.race([socket.closed.then((c) => c.code), new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);
const staffMessage = async (orderId: number, body: string) => {
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
const heardNothing = (socket: TestSocket) => socket.none((f) => f.event === SOCKET_EVENT.newMessage || f.event === SOCKET_EVENT.unread);

/** A customer with an order and two sessions (two devices), each with a socket open. */
const customerOnTwoDevices = async (tag: string) => {
  const customer = await signedUpCustomer(t, { tag });
  const laptop = customer.session;
  const phone = await signIn(t, customer.email);
  const orderId = await fx.order(customer.id);
  return {
    ...customer,
    orderId,
    laptop,
    phone,
    laptopSocket: await open('customers', laptop),
    phoneSocket: await open('customers', phone),
  };
};

beforeAll(async () => {
  t = await buildTestApp({ onChatReady: (h) => (handle = h) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  fx = chatFixtures(t);
  support = await fx.support('chat.sessions.support@example.com');
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t.close();
});

describe('ADR 0069: an ended session closes its sockets with 4401 at once', () => {
  it('the devices list ending one session closes that session’s socket; a later message reaches only the other', async () => {
    const c = await customerOnTwoDevices('end-one');
    const phoneId = await sessionIdOf(t, c.phone, c.laptop);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/en/customers/customer/sessions/${phoneId}`, headers: c.laptop.auth });
    expect(res.statusCode).toBe(200);
    expect(await closedWithin(c.phoneSocket)).toBe(4401);
    await staffMessage(c.orderId, 'after the end');
    await hears(c.laptopSocket, 'after the end');
    expect(await heardNothing(c.phoneSocket)).toBe(true);
    expect(c.laptopSocket.ws.readyState).toBe(c.laptopSocket.ws.OPEN);
  });

  it('"end all others" closes every other session’s socket and keeps the one asking', async () => {
    const c = await customerOnTwoDevices('end-others');
    const res = await t.app.inject({ method: 'DELETE', url: '/api/en/customers/customer/sessions', headers: c.laptop.auth });
    expect(res.statusCode).toBe(200);
    expect(await closedWithin(c.phoneSocket)).toBe(4401);
    await staffMessage(c.orderId, 'only the laptop');
    await hears(c.laptopSocket, 'only the laptop');
    expect(await heardNothing(c.phoneSocket)).toBe(true);
  });

  it('a password change closes the other sessions’ sockets; the session that changed it keeps its socket', async () => {
    const c = await customerOnTwoDevices('password');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/password',
      headers: c.laptop.auth,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'another-pass-2' },
    });
    expect(res.statusCode).toBe(200);
    expect(await closedWithin(c.phoneSocket)).toBe(4401);
    await staffMessage(c.orderId, 'new password');
    await hears(c.laptopSocket, 'new password');
    expect(await heardNothing(c.phoneSocket)).toBe(true);
  });

  it('logout closes the sockets of that session only', async () => {
    const c = await customerOnTwoDevices('logout');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/en/auth/jwt/logout',
      headers: { authorization: `Bearer ${c.phone.refreshToken}` },
    });
    expect(res.statusCode).toBeLessThan(300);
    expect(await closedWithin(c.phoneSocket)).toBe(4401);
    await staffMessage(c.orderId, 'after logout');
    await hears(c.laptopSocket, 'after logout');
    expect(await heardNothing(c.phoneSocket)).toBe(true);
  });

  it('a reused refresh token revokes its family and closes its sockets', async () => {
    const c = await customerOnTwoDevices('reuse');
    const rotate = (token: string) =>
      t.app.inject({ method: 'PUT', url: '/api/en/auth/jwt/refresh', headers: { authorization: `Bearer ${token}` } });
    const first = await rotate(c.phone.refreshToken);
    expect(first.statusCode).toBe(200);
    // The child is used, so the old token presented again is theft: the family ends.
    expect((await rotate(first.json<{ refreshToken: string }>().refreshToken)).statusCode).toBe(200);
    expect((await rotate(c.phone.refreshToken)).statusCode).toBe(401);
    expect(await closedWithin(c.phoneSocket)).toBe(4401);
    expect(c.laptopSocket.ws.readyState).toBe(c.laptopSocket.ws.OPEN);
  });

  it('deleting the account closes every socket of the account', async () => {
    const c = await customerOnTwoDevices('delete');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/deactivate',
      headers: c.laptop.auth,
      payload: { password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(await closedWithin(c.laptopSocket)).toBe(4401);
    expect(await closedWithin(c.phoneSocket)).toBe(4401);
    await staffMessage(c.orderId, 'to nobody');
    expect(await heardNothing(c.laptopSocket)).toBe(true);
  });

  it('a staff member’s logout closes their staff socket', async () => {
    const writer = await signedInStaff(t, { role: ROLE.writer, tag: 'chat-sessions-writer' });
    const other = await signIn(t, writer.email);
    const ended = await open('staff', writer.session);
    const kept = await open('staff', other);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/en/auth/jwt/logout',
      headers: { authorization: `Bearer ${writer.session.refreshToken}` },
    });
    expect(res.statusCode).toBeLessThan(300);
    expect(await closedWithin(ended)).toBe(4401);
    kept.send({ event: SOCKET_EVENT.ping });
    await kept.next((f) => f.event === SOCKET_EVENT.pong);
  });

  it('the sweep closes a socket whose session ended without a wake-up (the safety net)', async () => {
    const c = await customerOnTwoDevices('sweep');
    const phoneId = await sessionIdOf(t, c.phone, c.laptop);
    // Revoked behind the app's back: no wake-up is published.
    await t.db.query('UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1', [phoneId]);
    expect(await closedWithin(c.phoneSocket, 200)).toBeNull();
    handle?.hub.sweep();
    expect(await closedWithin(c.phoneSocket)).toBe(4401);
    expect(c.laptopSocket.ws.readyState).toBe(c.laptopSocket.ws.OPEN);
  });
});
