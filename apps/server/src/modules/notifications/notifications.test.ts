import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MARK_READ_IDS_MAX,
  NOTIFICATION_FOLD_MS,
  NOTIFICATION_SOCKET_EVENT,
  NOTIFICATIONS_READ_SOCKET_EVENT,
  ORDER_STATUS,
  ROLE,
  type NotificationList,
} from '@app/domain';
import { createAccessTokens } from '../../lib/jwt';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { openSocket } from '../../testing/chat-fixtures';
import { insertDelivery, insertOrder } from '../../testing/factories';

/**
 * ADR 0088, CONTRACT "Notifications": each event makes one notification and, through the job, one mail
 * in the durable queue (read back from the outbox with its links, headers and attachment); nothing when
 * the type is off; one mail for a burst; none for one seen in the app; the abuse next to it.
 */
let t: TestApp;
let filesDir: string;
let base: string;
let sign: (userId: number, role: number) => Promise<string>;
let seq = 0;
const MIN = 60_000;
const D = 24 * 60 * MIN;

const addUser = async (role: number, email: string, firstName = 'Ann'): Promise<number> => {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id, first_name) VALUES ($1, $2, 'x', 1, $3) RETURNING id`,
    [role, email, firstName],
  );
  if (!row) throw new Error('no user');
  return row.id;
};
let supportId: number;
let writerId: number;

beforeAll(async () => {
  filesDir = await mkdtemp(path.join(tmpdir(), 'notify-files-'));
  t = await buildTestApp({ env: { FILES_DIR: filesDir } });
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  sign = (userId, role) => tokens.sign({ userId, role });
  supportId = await addUser(ROLE.support, 'notify.support@example.com');
  writerId = await addUser(ROLE.writer, 'notify.writer@example.com');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
  await rm(filesDir, { recursive: true, force: true });
});

const auth = async (userId: number, role: number = ROLE.customer) => ({ authorization: `Bearer ${await sign(userId, role)}` });
const customer = async () => {
  seq += 1;
  const email = `notify.c${seq}@example.com`;
  const id = await addUser(ROLE.customer, email);
  return { id, email };
};
const list = async (userId: number): Promise<NotificationList> =>
  (
    await t.app.inject({ method: 'GET', url: '/api/en/customers/notifications?limit=100', headers: await auth(userId) })
  ).json() as NotificationList;
interface Mail {
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  attachments: { filename: string; contentType: string; content: string }[];
}
const outbox = async (to: string): Promise<Mail[]> =>
  ((await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}&limit=100` })).json() as { messages: Mail[] })
    .messages;
/** Runs the job once the fold window of what was made now has passed. */
const runJob = async (later = NOTIFICATION_FOLD_MS + 1000) => {
  t.clock.advance(later);
  const res = await t.app.inject({ method: 'POST', url: '/api/dev/notifications/run', payload: {} });
  expect(res.statusCode).toBe(200);
  return res.json() as { reminders: number; mails: number };
};
const paidOrder = async (customerId: number, status: number = ORDER_STATUS.paid) =>
  (
    await insertOrder(t.db, {
      customerId,
      status,
      title: 'Causes of the war',
      createdAt: t.clock.now(),
      deadline: new Date(t.clock.now().getTime() + 10 * D),
    })
  ).id;
const assign = async (orderId: number) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/staff/orders/${orderId}/writer`,
    headers: await auth(supportId, ROLE.support),
    payload: { idWriter: writerId },
  });
const setPrefs = async (userId: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: '/api/en/customers/notification-preferences', headers: await auth(userId), payload });

describe('an event: one notification, one mail', () => {
  it('payment received (support records a bank transfer): the receipt PDF goes with the mail, which cannot be turned off', async () => {
    const c = await customer();
    const orderId = await paidOrder(c.id, ORDER_STATUS.unpaid);
    const paid = await t.app.inject({
      method: 'POST',
      url: `/api/staff/orders/${orderId}/payments`,
      headers: await auth(supportId, ROLE.support),
      payload: { reference: 'BANK-1' },
    });
    expect(paid.statusCode).toBe(200);
    const { notifications, unread, total } = await list(c.id);
    expect({ total, unread }).toEqual({ total: 1, unread: 1 });
    expect(notifications[0]).toMatchObject({ type: 'payment_received', orderId, link: `/orderinfo/${orderId}/details`, readAt: null });
    // Nothing before the fold window ends.
    expect(await outbox(c.email)).toHaveLength(0);
    await runJob();
    const mails = await outbox(c.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.subject).toBe(`Payment received for order #${orderId}`);
    expect(mail?.text).toContain(`/orderinfo/${orderId}/details`);
    expect(mail?.html).toContain(`/orderinfo/${orderId}/details`);
    expect(mail?.attachments).toHaveLength(1);
    expect(mail?.attachments[0]).toMatchObject({ contentType: 'application/pdf' });
    expect(mail?.attachments[0]?.filename).toMatch(/\.pdf$/);
    expect(
      Buffer.from(mail?.attachments[0]?.content ?? '', 'base64')
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    // A receipt: no unsubscribe, and it cannot be turned off.
    expect(mail?.headers['List-Unsubscribe']).toBeUndefined();
    const off = await setPrefs(c.id, { payment_received: { email: false } });
    expect(off.statusCode).toBe(422);
    // Run again: nothing more.
    await runJob();
    expect(await outbox(c.email)).toHaveLength(1);
  });

  it('writer assigned: the mail links to the order and carries a one-click unsubscribe', async () => {
    const c = await customer();
    const orderId = await paidOrder(c.id);
    expect((await assign(orderId)).statusCode).toBe(200);
    const { notifications } = await list(c.id);
    expect(notifications.map((n) => n.type)).toEqual(['writer_assigned']);
    await runJob();
    const [mail, ...more] = await outbox(c.email);
    expect(more).toHaveLength(0);
    expect(mail?.subject).toBe(`A writer is working on order #${orderId}`);
    expect(mail?.text).toContain(`/orderinfo/${orderId}/details`);
    expect(mail?.headers['List-Unsubscribe']).toMatch(/^<http:\/\/[^>]+\/api\/notifications\/unsubscribe\?token=[\w.-]+>$/);
    expect(mail?.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mail?.html).toContain('Unsubscribe');
    // The staff console's bell: the writer hears of the assignment (bell only, no mail).
    const staffList = (
      await t.app.inject({ method: 'GET', url: '/api/staff/notifications?limit=100', headers: await auth(writerId, ROLE.writer) })
    ).json() as NotificationList;
    expect(staffList.notifications.find((n) => n.orderId === orderId)).toMatchObject({
      type: 'order_assigned',
      link: `/staff/orders/${orderId}`,
    });
    expect(await outbox('notify.writer@example.com')).toHaveLength(0);
  });

  it('delivered and auto-completed (the after-payment job), each its notification; extension requested', async () => {
    const c = await customer();
    const orderId = await paidOrder(c.id, ORDER_STATUS.inProgress);
    await t.db.query('UPDATE orders SET writer_id = $2 WHERE id = $1', [orderId, writerId]);
    await insertDelivery(t.db, { orderId, customerId: c.id, writerId, fileOnly: true });
    const delivered = await t.app.inject({
      method: 'POST',
      url: `/api/staff/orders/${orderId}/delivery`,
      headers: await auth(writerId, ROLE.writer),
      payload: { message: 'Here it is' },
    });
    expect(delivered.statusCode).toBe(200);
    expect((await list(c.id)).notifications.map((n) => n.type)).toEqual(['delivered']);
    await runJob();
    const [mail] = await outbox(c.email);
    expect(mail?.subject).toBe(`Your work for order #${orderId} is ready`);
    expect(mail?.text).toMatch(/accept it or ask for changes by/);
    // The review clock ends: completed.
    t.clock.advance(4 * D);
    const run = await t.app.inject({ method: 'POST', url: '/api/dev/after-payment/run', payload: {} });
    expect(run.statusCode).toBe(200);
    expect((await list(c.id)).notifications.map((n) => n.type)).toEqual(['completed', 'delivered']);
    await runJob();
    expect((await outbox(c.email)).map((m) => m.subject)).toContain(`Order #${orderId} is complete`);

    const other = await paidOrder(c.id, ORDER_STATUS.inProgress);
    await t.db.query('UPDATE orders SET writer_id = $2 WHERE id = $1', [other, writerId]);
    const proposed = await t.app.inject({
      method: 'POST',
      url: `/api/staff/orders/${other}/extensions`,
      headers: await auth(writerId, ROLE.writer),
      payload: { deadline: new Date(t.clock.now().getTime() + 12 * D).toISOString(), reason: 'Sources arrived late' },
    });
    expect(proposed.statusCode).toBe(200);
    expect((await list(c.id)).notifications[0]).toMatchObject({ type: 'extension_requested', orderId: other });
    await runJob();
    expect((await outbox(c.email)).map((m) => m.subject)).toContain(`Your writer asks for more time on order #${other}`);
  });

  it('refund issued (support refunds a paid order): the credit note goes with the mail', async () => {
    const c = await customer();
    const orderId = await paidOrder(c.id, ORDER_STATUS.unpaid);
    await t.app.inject({
      method: 'POST',
      url: `/api/staff/orders/${orderId}/payments`,
      headers: await auth(supportId, ROLE.support),
      payload: { reference: 'BANK-2' },
    });
    await runJob();
    const refunded = await t.app.inject({
      method: 'PUT',
      url: `/api/staff/orders/${orderId}/status`,
      headers: await auth(supportId, ROLE.support),
      payload: { status: ORDER_STATUS.refunded, reason: 'Customer asked' },
    });
    expect(refunded.statusCode).toBe(200);
    expect((await list(c.id)).notifications.map((n) => n.type)).toEqual(['refund_issued', 'payment_received']);
    await runJob();
    const refundMail = (await outbox(c.email)).find((m) => m.subject === `Refund issued for order #${orderId}`);
    expect(refundMail?.attachments).toHaveLength(1);
    expect(refundMail?.headers['List-Unsubscribe']).toBeUndefined();
  });
});

describe('what is not mailed, and what folds', () => {
  it('a type turned off: the notification is made, no mail', async () => {
    const c = await customer();
    const set = await setPrefs(c.id, { writer_assigned: { email: false } });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({
      writer_assigned: { email: false, push: false },
      delivered: { email: true, push: false },
      payment_received: { email: true },
    });
    const orderId = await paidOrder(c.id);
    await assign(orderId);
    expect((await list(c.id)).total).toBe(1);
    await runJob();
    expect(await outbox(c.email)).toHaveLength(0);
  });

  it('turned off while the mail waits: not sent', async () => {
    const c = await customer();
    const orderId = await paidOrder(c.id);
    await assign(orderId);
    await setPrefs(c.id, { writer_assigned: { email: false } });
    await runJob();
    expect(await outbox(c.email)).toHaveLength(0);
  });

  it('a burst of one order within minutes: one mail naming every event', async () => {
    const c = await customer();
    const orderId = await paidOrder(c.id, ORDER_STATUS.unpaid);
    await t.app.inject({
      method: 'POST',
      url: `/api/staff/orders/${orderId}/payments`,
      headers: await auth(supportId, ROLE.support),
      payload: { reference: 'BANK-3' },
    });
    t.clock.advance(MIN);
    await assign(orderId);
    t.clock.advance(MIN);
    await t.db.query('UPDATE orders SET writer_id = $2 WHERE id = $1', [orderId, writerId]);
    await insertDelivery(t.db, { orderId, customerId: c.id, writerId, fileOnly: true });
    await t.app.inject({
      method: 'POST',
      url: `/api/staff/orders/${orderId}/delivery`,
      headers: await auth(writerId, ROLE.writer),
      payload: {},
    });
    expect((await list(c.id)).total).toBe(3);
    await runJob(NOTIFICATION_FOLD_MS - 2 * MIN + 1000);
    const mails = await outbox(c.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe(`Order #${orderId}: Payment received, Writer assigned, Work delivered`);
    expect(mails[0]?.text).toContain('Review the work');
    expect(mails[0]?.attachments).toHaveLength(1);
    // The unsubscribe turns off the newest that can be turned off (the delivery), not the receipt.
    expect(mails[0]?.headers['List-Unsubscribe']).toContain('.delivered.');
  });

  it('an event read in the app before its mail: not mailed', async () => {
    const c = await customer();
    const orderId = await paidOrder(c.id);
    await assign(orderId);
    const [n] = (await list(c.id)).notifications;
    const read = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/notifications/read',
      headers: await auth(c.id),
      payload: { ids: [n?.id] },
    });
    expect(read.json()).toEqual({ unread: 0 });
    await runJob();
    expect(await outbox(c.email)).toHaveLength(0);
    expect((await list(c.id)).notifications[0]?.readAt).not.toBeNull();
  });
});

describe('reminders', () => {
  it('an unpaid order: a reminder at 30 % and at 80 % of its time, once each; none once paid', async () => {
    const c = await customer();
    const start = t.clock.now();
    const orderId = (await insertOrder(t.db, { customerId: c.id, createdAt: start, deadline: new Date(start.getTime() + 10 * D) })).id;
    const paidLater = (await insertOrder(t.db, { customerId: c.id, createdAt: start, deadline: new Date(start.getTime() + 10 * D) })).id;
    const atFraction = (f: number) => new Date(start.getTime() + f * 10 * D + MIN).toISOString();
    const run = async (at: string) =>
      (await t.app.inject({ method: 'POST', url: '/api/dev/notifications/run', payload: { at } })).json() as { reminders: number };
    await run(new Date(start.getTime() + 2 * D).toISOString());
    expect((await list(c.id)).total).toBe(0);
    await run(atFraction(0.3));
    await run(atFraction(0.31));
    const first = (await list(c.id)).notifications.filter((n) => n.type === 'payment_reminder');
    expect(first.map((n) => n.orderId).sort()).toEqual([orderId, paidLater].sort());
    await t.db.query('UPDATE orders SET status_id = $2 WHERE id = $1', [paidLater, ORDER_STATUS.paid]);
    await run(atFraction(0.8));
    const all = (await list(c.id)).notifications.filter((n) => n.type === 'payment_reminder');
    expect(all.map((n) => n.orderId).sort()).toEqual([orderId, orderId, paidLater].sort());
    expect(all[0]?.link).toBe(`/orderinfo/${orderId}/details`);
  });

  it('deadline_soon: 24 h before the deadline of an order being written, once', async () => {
    const c = await customer();
    const start = t.clock.now();
    const orderId = (
      await insertOrder(t.db, {
        customerId: c.id,
        status: ORDER_STATUS.inProgress,
        createdAt: start,
        deadline: new Date(start.getTime() + 3 * D),
      })
    ).id;
    const run = async (ms: number) =>
      t.app.inject({ method: 'POST', url: '/api/dev/notifications/run', payload: { at: new Date(start.getTime() + ms).toISOString() } });
    await run(1 * D);
    expect((await list(c.id)).total).toBe(0);
    await run(2 * D + MIN);
    await run(2 * D + 2 * MIN);
    expect((await list(c.id)).notifications.map((n) => [n.type, n.orderId])).toEqual([['deadline_soon', orderId]]);
  });
});

describe('the API and its abuse', () => {
  it("another customer's ids: 404 and nothing changes; thousands of ids: 422 before any work; { all: true }", async () => {
    const a = await customer();
    const b = await customer();
    await assign(await paidOrder(a.id));
    await assign(await paidOrder(a.id));
    await assign(await paidOrder(b.id));
    const [bOwn] = (await list(b.id)).notifications;
    const aIds = (await list(a.id)).notifications.map((n) => n.id);
    const put = async (userId: number, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: '/api/en/customers/notifications/read', headers: await auth(userId), payload });
    expect((await put(a.id, { ids: [bOwn?.id] })).statusCode).toBe(404);
    expect((await put(a.id, { ids: [...aIds, bOwn?.id] })).statusCode).toBe(404);
    expect((await list(a.id)).unread).toBe(2);
    expect((await list(b.id)).unread).toBe(1);
    const many = await put(a.id, { ids: Array.from({ length: 5000 }, (_, i) => i + 1) });
    expect(many.statusCode).toBe(422);
    expect((await put(a.id, { ids: Array.from({ length: MARK_READ_IDS_MAX + 1 }, (_, i) => i + 1) })).statusCode).toBe(422);
    expect((await put(a.id, { ids: [] })).statusCode).toBe(422);
    expect((await put(a.id, { all: false })).statusCode).toBe(422);
    expect((await put(a.id, { ids: ['1; DROP'] })).statusCode).toBe(422);
    expect((await put(a.id, { all: true })).json()).toEqual({ unread: 0 });
    expect((await list(b.id)).unread).toBe(1);
    // Staff ids and routes: a customer token gets 404 from the staff bell, staff 404 from the customer's.
    expect((await t.app.inject({ method: 'GET', url: '/api/staff/notifications', headers: await auth(a.id) })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/en/customers/notifications', headers: await auth(supportId, ROLE.support) }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/en/customers/notifications' })).statusCode).toBe(401);
  });

  it('preferences: every type with both channels; unknown types refused', async () => {
    const c = await customer();
    const res = await t.app.inject({ method: 'GET', url: '/api/en/customers/notification-preferences', headers: await auth(c.id) });
    const prefs = res.json() as Record<string, { email: boolean; push: boolean }>;
    expect(Object.keys(prefs)).toHaveLength(11);
    expect(prefs.message_unseen).toEqual({ email: true, push: false });
    expect((await setPrefs(c.id, { nonsense: { email: false } })).statusCode).toBe(422);
    expect((await setPrefs(c.id, { delivered: { email: 'no' } })).statusCode).toBe(422);
    expect((await setPrefs(c.id, { delivered: { push: true } })).json()).toMatchObject({ delivered: { email: true, push: true } });
  });

  it('unsubscribe: one click turns the type off; replayed it changes nothing more; forged it is refused; an old link after turning it on again is stale', async () => {
    const c = await customer();
    await assign(await paidOrder(c.id));
    await runJob();
    const [mail] = await outbox(c.email);
    const url = /<(http[^>]+)>/.exec(mail?.headers['List-Unsubscribe'] ?? '')?.[1] ?? '';
    const pathOnly = url.replace(/^https?:\/\/[^/]+/, '');
    // GET (a link checker) changes nothing.
    const page = await t.app.inject({ method: 'GET', url: pathOnly });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post"');
    expect((await setPrefs(c.id, {})).json()).toMatchObject({ writer_assigned: { email: true } });
    const click = () =>
      t.app.inject({
        method: 'POST',
        url: pathOnly,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
    expect((await click()).statusCode).toBe(200);
    expect((await setPrefs(c.id, {})).json()).toMatchObject({ writer_assigned: { email: false } });
    expect((await click()).statusCode).toBe(200);
    // Forged: another type, another user, a changed signature.
    const token = new URL(url).searchParams.get('token') ?? '';
    const [user, type, at, mac] = token.split('.');
    for (const forged of [
      `${user}.delivered.${at}.${mac}`,
      `${Number(user) + 1}.${type}.${at}.${mac}`,
      `${user}.${type}.${at}.${mac?.slice(0, -2)}xx`,
      'x',
      '',
    ]) {
      const res = await t.app.inject({ method: 'POST', url: `/api/notifications/unsubscribe?token=${encodeURIComponent(forged)}` });
      expect(res.statusCode, forged).toBe(400);
    }
    // Turned on again later: the old link is stale and leaves it on.
    t.clock.advance(1000);
    await setPrefs(c.id, { writer_assigned: { email: true } });
    expect((await click()).statusCode).toBe(409);
    expect((await setPrefs(c.id, {})).json()).toMatchObject({ writer_assigned: { email: true } });
  });

  it('socket: event 20 when support assigns a writer, to the customer only; event 21 when read in another tab', async () => {
    const a = await customer();
    const b = await customer();
    const open = async (id: number) =>
      openSocket(`${base}/chat/customers/orders/messages?accessToken=${encodeURIComponent(await sign(id, ROLE.customer))}`);
    const [tabA, tabA2, tabB] = await Promise.all([open(a.id), open(a.id), open(b.id)]);
    try {
      const orderId = await paidOrder(a.id);
      await assign(orderId);
      for (const tab of [tabA, tabA2]) {
        const frame = await tab.next((f) => f.event === NOTIFICATION_SOCKET_EVENT);
        expect(frame.data).toMatchObject({
          unread: 1,
          notification: { type: 'writer_assigned', orderId, link: `/orderinfo/${orderId}/details` },
        });
      }
      expect(await tabB.none((f) => f.event === NOTIFICATION_SOCKET_EVENT, 300)).toBe(true);
      await t.app.inject({ method: 'PUT', url: '/api/en/customers/notifications/read', headers: await auth(a.id), payload: { all: true } });
      expect((await tabA2.next((f) => f.event === NOTIFICATIONS_READ_SOCKET_EVENT)).data).toEqual({ unread: 0 });
    } finally {
      for (const tab of [tabA, tabA2, tabB]) tab.close();
    }
  });
});

describe('Web Push subscriptions (ADR 0088)', () => {
  it('the VAPID public key is made once and kept; a subscription is stored, refused when not https, capped, forgotten', async () => {
    const c = await customer();
    const key = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/en/customers/push/key', headers: await auth(c.id) })).json() as { publicKey: string };
    const first = await key();
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    expect((await key()).publicKey).toBe(first.publicKey);
    const [stored] = await t.db.query<{ value: string }>(`SELECT value FROM app_secrets WHERE name = 'vapid_keys'`);
    expect(JSON.parse(stored?.value ?? '{}')).toMatchObject({ publicKey: first.publicKey });
    const subscribe = async (endpoint: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/en/customers/push/subscriptions',
        headers: await auth(c.id),
        payload: {
          endpoint,
          keys: {
            p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
            auth: 'tBHItJI5svbpez7KI4CCXg',
          },
        },
      });
    expect((await subscribe('http://push.example.com/x')).statusCode).toBe(422);
    expect((await subscribe('javascript:alert(1)')).statusCode).toBe(422);
    for (let i = 0; i < 12; i += 1) {
      t.clock.advance(1000);
      expect((await subscribe(`https://push.example.com/sub/${i}`)).statusCode).toBe(204);
    }
    const rows = await t.db.query<{ endpoint: string }>('SELECT endpoint FROM push_subscriptions WHERE user_id = $1 ORDER BY id', [c.id]);
    expect(rows.map((r) => r.endpoint)).toEqual(Array.from({ length: 10 }, (_, i) => `https://push.example.com/sub/${i + 2}`));
    const forget = await t.app.inject({
      method: 'DELETE',
      url: '/api/en/customers/push/subscriptions',
      headers: await auth(c.id),
      payload: { endpoint: 'https://push.example.com/sub/2' },
    });
    expect(forget.statusCode).toBe(204);
    expect(await t.db.query('SELECT 1 FROM push_subscriptions WHERE user_id = $1', [c.id])).toHaveLength(9);
    // Another customer cannot forget them.
    const other = await customer();
    await t.app.inject({
      method: 'DELETE',
      url: '/api/en/customers/push/subscriptions',
      headers: await auth(other.id),
      payload: { endpoint: 'https://push.example.com/sub/3' },
    });
    expect(await t.db.query('SELECT 1 FROM push_subscriptions WHERE user_id = $1', [c.id])).toHaveLength(9);
  });
});
