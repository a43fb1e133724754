import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_MESSAGE,
  chatMessageSchema,
  FILE_MESSAGE,
  messageListSchema,
  orderUnreadSchema,
  readAnswerSchema,
  unreadSummarySchema,
} from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { chatFixtures, messageForm } from '../../testing/chat-fixtures';

let t: TestApp;
let filesDir: string;
let fx: ReturnType<typeof chatFixtures>;
let writer: { id: number; token: string };
let support: { id: number; token: string };
let n = 0;
/** A new customer with an order assigned to the writer: each test its own, so rate limits do not meet. */
const newCustomer = async () => {
  n += 1;
  const customer = await fx.customer(`chat.api.${n}@example.com`);
  const orderId = await fx.order(customer.id, writer.id);
  return { ...customer, orderId };
};
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

const post = (
  token: string,
  orderId: number,
  fields: Record<string, string>,
  opts: { key?: string; staff?: boolean; files?: { name: string; content: Buffer }[] } = {},
) => {
  const form = messageForm(fields, opts.files);
  return t.app.inject({
    method: 'POST',
    url: `/chat/api/${opts.staff ? 'staff' : 'customers'}/orders/${orderId}/messages`,
    headers: { ...auth(token), ...form.headers, ...(opts.key ? { 'idempotency-key': opts.key } : {}) },
    payload: form.payload,
  });
};
const say = (token: string, orderId: number, body: string, direction = '1', key?: string) =>
  post(token, orderId, { direction, message: JSON.stringify({ body }) }, key ? { key } : {});
const staffSay = (token: string, orderId: number, body: string, key?: string) =>
  post(token, orderId, { message: JSON.stringify({ body }) }, { staff: true, ...(key ? { key } : {}) });
const history = async (token: string, orderId: number, query = '', side = 'customers') => {
  const res = await t.app.inject({ method: 'GET', url: `/chat/api/${side}/orders/${orderId}/messages${query}`, headers: auth(token) });
  expect(res.statusCode).toBe(200);
  return messageListSchema.parse(res.json()).messages;
};
const unread = async (token: string, orderId: number, side = 'customers') =>
  orderUnreadSchema.parse(
    (await t.app.inject({ method: 'GET', url: `/chat/api/${side}/orders/${orderId}/messages/unread`, headers: auth(token) })).json(),
  );

beforeAll(async () => {
  filesDir = await mkdtemp(path.join(tmpdir(), 'chat-files-'));
  t = await buildTestApp({ env: { FILES_DIR: filesDir } });
  fx = chatFixtures(t);
  writer = await fx.writer('chat.api.writer@example.com');
  support = await fx.support('chat.api.support@example.com');
});
afterAll(async () => {
  await t.close();
  await rm(filesDir, { recursive: true, force: true });
});

describe('CONTRACT "Chat": sending and history', () => {
  it('stores a customer message with its direction and a sequence, and lists both chats oldest first', async () => {
    const c = await newCustomer();
    const first = await say(c.token, c.orderId, 'Hello writer', '1');
    expect(first.statusCode).toBe(200);
    const stored = chatMessageSchema.parse(first.json());
    expect(stored).toMatchObject({
      orderId: c.orderId,
      sequence: 1,
      direction: { id: 1 },
      state: { id: 1 },
      body: 'Hello writer',
      clientId: null,
    });
    expect((await say(c.token, c.orderId, 'Hello support', '2')).json()).toMatchObject({ sequence: 2, direction: { id: 2 } });
    expect((await staffSay(support.token, c.orderId, 'Support here')).json()).toMatchObject({ sequence: 3, direction: { id: 6 } });
    expect((await staffSay(writer.token, c.orderId, 'Writer here')).json()).toMatchObject({ sequence: 4, direction: { id: 3 } });
    const all = await history(c.token, c.orderId);
    expect(all.map((m) => [m.sequence, m.direction.id, m.body])).toEqual([
      [1, 1, 'Hello writer'],
      [2, 2, 'Hello support'],
      [3, 6, 'Support here'],
      [4, 3, 'Writer here'],
    ]);
  });

  it('pages back with ?before=&limit= and catches up with ?after=&limit=, oldest first, no gap and no overlap', async () => {
    const c = await newCustomer();
    const ids: number[] = [];
    for (let i = 1; i <= 7; i += 1) ids.push(chatMessageSchema.parse((await say(c.token, c.orderId, `m${i}`)).json()).id);
    const newest = await history(c.token, c.orderId, '?limit=3');
    expect(newest.map((m) => m.body)).toEqual(['m5', 'm6', 'm7']);
    const older = await history(c.token, c.orderId, `?before=${newest[0]?.id}&limit=3`);
    expect(older.map((m) => m.body)).toEqual(['m2', 'm3', 'm4']);
    const oldest = await history(c.token, c.orderId, `?before=${older[0]?.id}&limit=3`);
    expect(oldest.map((m) => m.body)).toEqual(['m1']);
    const after = await history(c.token, c.orderId, `?after=${ids[1]}&limit=2`);
    expect(after.map((m) => m.body)).toEqual(['m3', 'm4']);
    expect(await history(c.token, c.orderId, `?after=${ids[6]}`)).toEqual([]);
    expect((await history(c.token, c.orderId, '?after=0&limit=100')).map((m) => m.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("strips HTML from the text (SPEC §5) and refuses 1501 characters with SPEC's message", async () => {
    const c = await newCustomer();
    const res = await say(c.token, c.orderId, 'Hi <b>there</b><script>alert(1)</script><img src=x onerror=alert(1)>!');
    expect(res.json()).toMatchObject({ body: 'Hi therealert(1)!' });
    const long = await say(c.token, c.orderId, 'a'.repeat(1501));
    expect(long.statusCode).toBe(422);
    expect(long.json()).toMatchObject({ message: 'Message cannot be more than 1500 characters long.' });
    expect((await say(c.token, c.orderId, 'a'.repeat(1500))).statusCode).toBe(200);
    // 1500 characters of text inside tags is 1500 characters.
    expect((await say(c.token, c.orderId, `<i>${'b'.repeat(1500)}</i>`)).statusCode).toBe(200);
    const empty = await say(c.token, c.orderId, '  <p></p> ');
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toMatchObject({ message: CHAT_MESSAGE.empty });
  });

  it('takes stickers 1 to 5 and the 39 emoji only, and a direction of 1 or 2 only', async () => {
    const c = await newCustomer();
    expect((await post(c.token, c.orderId, { direction: '1', message: '{"sticker":5}' })).json()).toMatchObject({ sticker: 5, body: '' });
    expect((await post(c.token, c.orderId, { direction: '1', message: '{"sticker":6}' })).statusCode).toBe(422);
    expect((await post(c.token, c.orderId, { direction: '2', message: '{"emoji":"🎉"}' })).json()).toMatchObject({ emoji: '🎉' });
    expect((await post(c.token, c.orderId, { direction: '2', message: '{"emoji":"<b>x</b>"}' })).statusCode).toBe(422);
    expect((await post(c.token, c.orderId, { direction: '3', message: '{"body":"I am the writer"}' })).statusCode).toBe(422);
    expect((await post(c.token, c.orderId, { direction: '1', message: 'not json' })).statusCode).toBe(422);
    expect((await post(c.token, c.orderId, { direction: '1', message: '{"body":"x","sticker":1}' })).statusCode).toBe(422);
  });
});

describe('ADR 0067, 0068: lengths, raw caps and their cost', () => {
  /** The body: 99,999 characters that made the passes to a fixpoint take k passes. */
  const k = 33_333;
  const nested = '<'.repeat(k) + 'a>'.repeat(k);
  const sayJson = (token: string, orderId: number, body: string) =>
    t.app.inject({
      method: 'POST',
      url: `/chat/api/customers/orders/${orderId}/messages`,
      headers: auth(token),
      payload: { direction: '1', message: JSON.stringify({ body }) },
    });
  const timed = async <T>(run: () => Promise<T>): Promise<{ res: T; ms: number }> => {
    const start = performance.now();
    const res = await run();
    return { res, ms: performance.now() - start };
  };
  /** Generous for a busy machine; the quadratic stripping took 2.5 s on this body. */
  const QUICK_MS = 500;

  it("refuses the issue's 99,999-character nested body at once with SPEC's message, for a real order and one that does not exist", async () => {
    const c = await newCustomer();
    expect(nested.length).toBe(99_999);
    for (const orderId of [c.orderId, 2_000_000_000]) {
      const { res, ms } = await timed(() => sayJson(c.token, orderId, nested));
      // Refused before the order is looked up: 422 even for an order that does not exist (it says nothing about it).
      expect(res.statusCode, `order ${orderId}`).toBe(422);
      expect(res.json()).toMatchObject({ message: CHAT_MESSAGE.tooLong, errors: { message: [CHAT_MESSAGE.tooLong] } });
      expect(ms, `order ${orderId}`).toBeLessThan(QUICK_MS);
    }
    // The multipart form the same, as its field arrives (a field holds at most 64 KiB).
    const multipartBody = nested.slice(0, 60_000);
    for (const orderId of [c.orderId, 2_000_000_000]) {
      const { res, ms } = await timed(() => say(c.token, orderId, multipartBody));
      expect(res.statusCode, `order ${orderId}`).toBe(422);
      expect(res.json()).toMatchObject({ message: CHAT_MESSAGE.tooLong });
      expect(ms).toBeLessThan(QUICK_MS);
    }
    expect(await history(c.token, c.orderId)).toHaveLength(0);
  });

  it('refuses a body over the raw cap before storing a file after it, and keeps none', async () => {
    const c = await newCustomer();
    const filesBefore = (await readdir(filesDir, { recursive: true })).length;
    const res = await post(
      c.token,
      c.orderId,
      { direction: '1', message: JSON.stringify({ body: 'x'.repeat(6001) }) },
      { files: [{ name: 'notes.txt', content: Buffer.from('hello') }] },
    );
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: CHAT_MESSAGE.tooLong });
    expect((await readdir(filesDir, { recursive: true })).length).toBe(filesBefore);
  });

  it('takes markup around 1,500 characters up to the raw cap (4 × 1,500 UTF-16 units), and refuses past it', async () => {
    const c = await newCustomer();
    const text = 'b'.repeat(1500);
    const padded = (units: number) => `<i${' '.repeat(units - text.length - 7)}>${text}</i>`;
    expect(padded(6000)).toHaveLength(6000);
    expect((await sayJson(c.token, c.orderId, padded(6000))).statusCode).toBe(200);
    const over = await sayJson(c.token, c.orderId, padded(6001));
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ message: CHAT_MESSAGE.tooLong });
  });

  it('counts characters, not UTF-16 units: 1,500 emoji are taken, 1,501 refused (ADR 0068)', async () => {
    const c = await newCustomer();
    const ok = await say(c.token, c.orderId, '😀'.repeat(1500));
    expect(ok.statusCode).toBe(200);
    expect(chatMessageSchema.parse(ok.json()).body).toBe('😀'.repeat(1500));
    const over = await say(c.token, c.orderId, '😀'.repeat(1501));
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ message: CHAT_MESSAGE.tooLong });
    const staff = await staffSay(support.token, c.orderId, '👍'.repeat(1500));
    expect(staff.statusCode).toBe(200);
  });
});

describe('CONTRACT "Chat": Idempotency-Key', () => {
  it('answers the stored message to a repeated key and stores nothing', async () => {
    const c = await newCustomer();
    const a = await say(c.token, c.orderId, 'once', '1', 'client-1');
    const b = await say(c.token, c.orderId, 'once, retried', '1', 'client-1');
    expect(b.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    expect(a.json()).toMatchObject({ clientId: 'client-1', body: 'once' });
    expect(await history(c.token, c.orderId)).toHaveLength(1);
  });

  it('answers a retry that carries files with the stored message, and keeps none of its files', async () => {
    const c = await newCustomer();
    const a = await say(c.token, c.orderId, 'once', '1', 'file-retry');
    const filesBefore = (await readdir(filesDir, { recursive: true })).length;
    const b = await post(
      c.token,
      c.orderId,
      { direction: '1', message: '{"body":"once"}' },
      { key: 'file-retry', files: [{ name: 'notes.txt', content: Buffer.from('hello') }] },
    );
    expect(b.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    expect((await readdir(filesDir, { recursive: true })).length).toBe(filesBefore);
    expect(await history(c.token, c.orderId)).toHaveLength(1);
  });

  it('stores one message when the same key races, and every answer is that message', async () => {
    const c = await newCustomer();
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => say(c.token, c.orderId, 'race', '2', 'race-key')));
    const ids = new Set(answers.map((r) => (r.json() as { id: number }).id));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(ids.size).toBe(1);
    const all = await history(c.token, c.orderId);
    expect(all).toHaveLength(1);
    expect(all[0]?.sequence).toBe(1);
    // The next message takes the next sequence: no gap left by the refused racers.
    expect((await say(c.token, c.orderId, 'next')).json()).toMatchObject({ sequence: 2 });
  });

  it("keeps keys apart per sender: support using the customer's key stores its own message", async () => {
    const c = await newCustomer();
    await say(c.token, c.orderId, 'mine', '2', 'shared');
    expect((await staffSay(support.token, c.orderId, 'theirs', 'shared')).json()).toMatchObject({ body: 'theirs', direction: { id: 6 } });
    expect(await history(c.token, c.orderId)).toHaveLength(2);
  });

  it('refuses a key that is not 1 to 64 safe characters', async () => {
    const c = await newCustomer();
    expect((await say(c.token, c.orderId, 'x', '1', 'a'.repeat(65))).statusCode).toBe(422);
    expect((await say(c.token, c.orderId, 'x', '1', 'spaces are not ok')).statusCode).toBe(422);
  });
});

describe('CONTRACT "Errors and access": another customer\'s order is a 404 on every chat route', () => {
  it('answers 404 and changes nothing', async () => {
    const owner = await newCustomer();
    const intruder = await newCustomer();
    const own = chatMessageSchema.parse((await staffSay(support.token, owner.orderId, 'private')).json());
    const routes: [string, string, unknown?][] = [
      ['GET', `/chat/api/customers/orders/${owner.orderId}/messages`],
      ['GET', `/chat/api/customers/orders/${owner.orderId}/messages?after=0`],
      ['GET', `/chat/api/customers/orders/${owner.orderId}/messages/unread`],
      ['PUT', `/chat/api/customers/orders/${owner.orderId}/messages/read`, { messages: String(own.id) }],
      ['GET', `/chat/api/customers/orders/${owner.orderId}/writer/online`],
      ['GET', `/chat/api/customers/orders/${owner.orderId}/messages/files/1`],
      ['GET', `/chat/api/customers/orders/999999/messages`],
    ];
    for (const [method, url, payload] of routes) {
      const res = await t.app.inject({
        method: method as 'GET',
        url,
        headers: auth(intruder.token),
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await say(intruder.token, owner.orderId, 'let me in')).statusCode).toBe(404);
    // ADR 0066: the 404 comes first whatever the form holds: a refused text, a wrong direction, a bad key,
    // a key the owner used, or files (checked before the first one is stored).
    expect((await say(intruder.token, owner.orderId, 'x'.repeat(1501))).statusCode).toBe(404);
    expect((await say(intruder.token, owner.orderId, 'hi', '6')).statusCode).toBe(404);
    expect((await say(intruder.token, owner.orderId, 'hi', '1', 'not a key')).statusCode).toBe(404);
    await say(owner.token, owner.orderId, 'owner keyed', '1', 'owner-key');
    expect((await say(intruder.token, owner.orderId, 'hi', '1', 'owner-key')).statusCode).toBe(404);
    const filesBefore = (await readdir(filesDir, { recursive: true })).length;
    const withFile = await post(
      intruder.token,
      owner.orderId,
      { direction: '1', message: '{"body":""}' },
      { files: [{ name: 'notes.txt', content: Buffer.from('hello') }] },
    );
    expect(withFile.statusCode).toBe(404);
    expect((await readdir(filesDir, { recursive: true })).length).toBe(filesBefore);
    const [kept] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM message_files WHERE order_id = $1', [owner.orderId]);
    expect(kept?.n).toBe(0);
    // The intruder's read with the owner's message id, on their own order, reads nothing.
    const mine = await t.app.inject({
      method: 'PUT',
      url: `/chat/api/customers/orders/${intruder.orderId}/messages/read`,
      headers: auth(intruder.token),
      payload: { messages: String(own.id) },
    });
    expect(readAnswerSchema.parse(mine.json()).messages).toEqual([]);
    expect(await unread(owner.token, owner.orderId)).toEqual({ total: 1, writer: 0, support: 1 });
    expect(await history(owner.token, owner.orderId)).toHaveLength(2);
    const summary = unreadSummarySchema.parse(
      (await t.app.inject({ method: 'GET', url: '/chat/api/customers/orders/unread', headers: auth(intruder.token) })).json(),
    );
    expect(summary.orders.map((o) => o.orderId)).not.toContain(owner.orderId);
  });

  it('answers 404 to a customer token on staff routes and to a staff token on customer routes', async () => {
    const c = await newCustomer();
    expect((await staffSay(c.token, c.orderId, 'I am staff')).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/chat/api/staff/orders/${c.orderId}/messages`, headers: auth(c.token) })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/chat/api/staff/orders/unread', headers: auth(c.token) })).statusCode).toBe(404);
    expect((await say(support.token, c.orderId, 'hi')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/chat/api/customers/orders/${c.orderId}/messages` })).statusCode).toBe(401);
  });
});

describe('CONTRACT "Staff side": writers on assigned orders only, support everywhere', () => {
  it('answers 404 to a writer on an order not assigned to them, and shows a writer the writer chat only', async () => {
    const c = await newCustomer();
    const stranger = await fx.writer(`chat.api.writer.${n}@example.com`);
    expect((await staffSay(stranger.token, c.orderId, 'not mine')).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/chat/api/staff/orders/${c.orderId}/messages`, headers: auth(stranger.token) }))
        .statusCode,
    ).toBe(404);
    await say(c.token, c.orderId, 'to writer', '1');
    await say(c.token, c.orderId, 'to support', '2');
    expect((await history(writer.token, c.orderId, '', 'staff')).map((m) => m.body)).toEqual(['to writer']);
    expect((await history(support.token, c.orderId, '', 'staff')).map((m) => m.body)).toEqual(['to writer', 'to support']);
    // A staff form's direction does not choose: the token does.
    expect((await post(writer.token, c.orderId, { direction: '6', message: '{"body":"w"}' }, { staff: true })).json()).toMatchObject({
      direction: { id: 3 },
    });
  });

  it("ADR 0095: a writer's message carries the writer's display name (first name and initial), no other message does", async () => {
    const c = await newCustomer();
    const named = await fx.writer(`chat.api.named.${n}@example.com`);
    await t.db.query(`UPDATE users SET first_name = 'Maria', last_name = 'Smith' WHERE id = $1`, [named.id]);
    await t.db.query('UPDATE orders SET writer_id = $1 WHERE id = $2', [named.id, c.orderId]);
    const sent = chatMessageSchema.parse((await staffSay(named.token, c.orderId, 'Hello, I am your writer')).json());
    expect(sent.senderName).toBe('Maria S.');
    await say(c.token, c.orderId, 'hi writer', '1');
    await staffSay(support.token, c.orderId, 'support here');
    const seen = await history(c.token, c.orderId);
    expect(seen.map((m) => [m.body, m.senderName])).toEqual([
      ['Hello, I am your writer', 'Maria S.'],
      ['hi writer', undefined],
      ['support here', undefined],
    ]);
    // The name on the wire is never the full last name, nor the email.
    expect(JSON.stringify(seen)).not.toMatch(/Smith|chat\.api\.named/);
    // A writer without a name: no field, the web says "Writer".
    await t.db.query(`UPDATE users SET first_name = '', last_name = '' WHERE id = $1`, [named.id]);
    expect((await history(c.token, c.orderId))[0]?.senderName).toBeUndefined();
  });

  it('gives staff their own unread counts and summary', async () => {
    const c = await newCustomer();
    await say(c.token, c.orderId, 'w1', '1');
    await say(c.token, c.orderId, 's1', '2');
    await say(c.token, c.orderId, 's2', '2');
    expect(await unread(writer.token, c.orderId, 'staff')).toEqual({ total: 1, writer: 1, support: 0 });
    expect(await unread(support.token, c.orderId, 'staff')).toEqual({ total: 2, writer: 0, support: 2 });
    const summary = (await t.app.inject({ method: 'GET', url: '/chat/api/staff/orders/unread', headers: auth(support.token) })).json() as {
      orders: { orderId: number; support: number }[];
    };
    expect(summary.orders.find((o) => o.orderId === c.orderId)).toMatchObject({ support: 2 });
  });
});

describe('read pointers', () => {
  it('counts unread per chat, reads up to the highest id given, never moves back, and shows the state to the other side', async () => {
    const c = await newCustomer();
    const s1 = chatMessageSchema.parse((await staffSay(support.token, c.orderId, 's1')).json());
    const s2 = chatMessageSchema.parse((await staffSay(support.token, c.orderId, 's2')).json());
    const w1 = chatMessageSchema.parse((await staffSay(writer.token, c.orderId, 'w1')).json());
    expect(await unread(c.token, c.orderId)).toEqual({ total: 3, writer: 1, support: 2 });
    // The dashboard card's count (the order list's `unread`) is the same count.
    const listUnread = async () =>
      (
        (await t.app.inject({ method: 'GET', url: '/api/en/sites/categories/1/orders?limit=12', headers: auth(c.token) })).json() as {
          orders: { id: number; unread: number }[];
        }
      ).orders.find((o) => o.id === c.orderId)?.unread;
    expect(await listUnread()).toBe(3);
    const read = async (ids: string) =>
      readAnswerSchema.parse(
        (
          await t.app.inject({
            method: 'PUT',
            url: `/chat/api/customers/orders/${c.orderId}/messages/read`,
            headers: auth(c.token),
            payload: { messages: ids },
          })
        ).json(),
      );
    expect(await read(`${s2.id}`)).toEqual({ messages: [s2.id], unread: { total: 1, writer: 1, support: 0 } });
    // An older id later does not bring s2 back.
    expect((await read(`${s1.id}`)).unread).toEqual({ total: 1, writer: 1, support: 0 });
    // Junk and the customer's own messages are ignored.
    const own = chatMessageSchema.parse((await say(c.token, c.orderId, 'mine', '1')).json());
    expect((await read(`${own.id},abc,,-1`)).messages).toEqual([]);
    expect(await read(`${w1.id}`)).toMatchObject({ unread: { total: 0, writer: 0, support: 0 } });
    expect(await listUnread()).toBe(0);
    const staffView = await history(support.token, c.orderId, '', 'staff');
    expect(staffView.find((m) => m.id === s1.id)?.state.id).toBe(2);
    // The customer's own message is read once the writer reads it.
    expect((await history(c.token, c.orderId)).find((m) => m.id === own.id)?.state.id).toBe(1);
    await t.app.inject({
      method: 'PUT',
      url: `/chat/api/staff/orders/${c.orderId}/messages/read`,
      headers: auth(writer.token),
      payload: { messages: [own.id] },
    });
    expect((await history(c.token, c.orderId)).find((m) => m.id === own.id)?.state.id).toBe(2);
    const summary = unreadSummarySchema.parse(
      (await t.app.inject({ method: 'GET', url: '/chat/api/customers/orders/unread', headers: auth(c.token) })).json(),
    );
    expect(summary).toEqual({ total: 0, orders: [] });
  });
});

describe('attachments', () => {
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 1)]);
  it("stores files with a message (empty body allowed), downloads them for the order's customer only, and refuses a wrong type", async () => {
    const c = await newCustomer();
    const res = await post(
      c.token,
      c.orderId,
      { direction: '2', message: '{"body":""}' },
      {
        files: [
          { name: 'shot.png', content: png },
          { name: 'notes.txt', content: Buffer.from('hello') },
        ],
      },
    );
    expect(res.statusCode).toBe(200);
    const message = chatMessageSchema.parse(res.json());
    expect(message.files.map((f) => [f.name, f.typeName, f.size])).toEqual([
      ['shot.png', 'png', png.length],
      ['notes.txt', 'txt', 5],
    ]);
    const fileId = message.files[1]?.id ?? 0;
    const download = await t.app.inject({
      method: 'GET',
      url: `/chat/api/customers/orders/${c.orderId}/messages/files/${fileId}`,
      headers: auth(c.token),
    });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('hello');
    const staff = await t.app.inject({
      method: 'GET',
      url: `/chat/api/staff/orders/${c.orderId}/messages/files/${fileId}`,
      headers: auth(support.token),
    });
    expect(staff.body).toBe('hello');
    const intruder = await newCustomer();
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/chat/api/customers/orders/${c.orderId}/messages/files/${fileId}`,
          headers: auth(intruder.token),
        })
      ).statusCode,
    ).toBe(404);
    // ADR 0080's download link (what a thumbnail asks for, ADR 0095) is refused the same way.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/chat/api/customers/orders/${c.orderId}/messages/files/${fileId}?link=1`,
          headers: auth(intruder.token),
        })
      ).statusCode,
    ).toBe(404);
    // The writer does not see the support chat's files.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/chat/api/staff/orders/${c.orderId}/messages/files/${fileId}`,
          headers: auth(writer.token),
        })
      ).statusCode,
    ).toBe(404);

    const bad = await post(
      c.token,
      c.orderId,
      { direction: '2', message: '{"body":"x"}' },
      { files: [{ name: 'run.exe', content: Buffer.from('MZ') }] },
    );
    expect(bad.statusCode).toBe(422);
    expect((bad.json() as { message: string }).message).toContain(FILE_MESSAGE.invalidFormat([]).trim().split(':')[0]);
    const mismatch = await post(
      c.token,
      c.orderId,
      { direction: '2', message: '{"body":"x"}' },
      { files: [{ name: 'fake.png', content: Buffer.from('not a png at all') }] },
    );
    expect(mismatch.statusCode).toBe(422);
    expect(await history(c.token, c.orderId)).toHaveLength(1);
  });

  it('ADR 0068: stores an attachment name without bidirectional or other format controls, in NFC', async () => {
    const c = await newCustomer();
    const res = await post(
      c.token,
      c.orderId,
      { direction: '1', message: '{"body":""}' },
      {
        files: [
          { name: 'invoice\u202Efdp.exe.txt', content: Buffer.from('hello') },
          { name: 'Re\u0301sume\u0301\u2066\u200F.txt', content: Buffer.from('hello') },
        ],
      },
    );
    expect(res.statusCode).toBe(200);
    expect(chatMessageSchema.parse(res.json()).files.map((f) => f.name)).toEqual(['invoicefdp.exe.txt', 'R\u00e9sum\u00e9.txt']);
    const rows = await t.db.query<{ name: string }>('SELECT name FROM message_files WHERE order_id = $1 ORDER BY id', [c.orderId]);
    expect(rows.map((r) => r.name)).toEqual(['invoicefdp.exe.txt', 'R\u00e9sum\u00e9.txt']);
  });

  it("refuses a file over 15 MB with SPEC's message and keeps nothing", async () => {
    const c = await newCustomer();
    const big = Buffer.alloc(15 * 1024 * 1024 + 1, 0x61);
    const res = await post(
      c.token,
      c.orderId,
      { direction: '1', message: '{"body":"big"}' },
      { files: [{ name: 'big.txt', content: big }] },
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ message: 'Maximum file size - 15MB' });
    expect(await history(c.token, c.orderId)).toHaveLength(0);
  });
});

describe('ADR 0047: send limits', () => {
  it("answers 429 with Retry-After past the burst, with the chat's message", async () => {
    const c = await newCustomer();
    const codes: number[] = [];
    let last;
    for (let i = 0; i < 12; i += 1) {
      last = await say(c.token, c.orderId, `flood ${i}`);
      codes.push(last.statusCode);
    }
    expect(codes.slice(0, 10).every((code) => code === 200)).toBe(true);
    expect(codes.slice(10)).toEqual([429, 429]);
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
    expect(last?.json()).toMatchObject({ message: CHAT_MESSAGE.tooFast });
    expect(await history(c.token, c.orderId, '?limit=100')).toHaveLength(10);
  });
});
