import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { chatFixtures } from '../../testing/chat-fixtures';
import { createChatRepo, type BatchedMessage } from './chat.repo';
import type { NewMessage } from './chat.send.repo';

// ADR 0063: the messages without files of one turn are stored in one statement that must do for each what
// a single insert does. Runs on PGlite in test:unit and on the PostgreSQL server in test:pg.
let t: TestApp;
let fx: ReturnType<typeof chatFixtures>;
let repo: ReturnType<typeof createChatRepo>;

beforeAll(async () => {
  t = await buildTestApp();
  fx = chatFixtures(t);
  repo = createChatRepo(t.db);
});
afterAll(async () => {
  await t.close();
});

const anOrder = () => fx.orderWithParties('chat.many');

const message = (
  o: { orderId: number; customerId: number },
  senderId: number,
  body: string,
  extra: Partial<NewMessage> & Pick<BatchedMessage, 'viewerCustomerId' | 'viewerWriterId'> = {},
): NewMessage & BatchedMessage => ({
  orderId: o.orderId,
  customerId: o.customerId,
  chat: 'writer',
  direction: 3,
  senderId,
  body,
  sticker: null,
  emoji: null,
  clientId: null,
  files: [],
  now: new Date('2026-11-24T10:00:00Z'),
  unseenDueAt: null,
  ...extra,
});

const stored = async (orderId: number) =>
  t.db.query<{ id: number; sequence: number; body: string }>(
    'SELECT id, sequence, body FROM messages WHERE order_id = $1 ORDER BY sequence',
    [orderId],
  );

describe('insertMany', () => {
  it('gives each order gap-free sequences after the ones it has, ids growing with them, in the order given', async () => {
    const a = await anOrder();
    const b = await anOrder();
    await repo.insert(message(a, a.writerId, 'a0'));
    const answers = await repo.insertMany([
      message(b, b.writerId, 'b1'),
      message(a, a.writerId, 'a1'),
      message(b, b.writerId, 'b2'),
      message(a, a.writerId, 'a2'),
      message(a, a.customerId, 'a3', { direction: 1 }),
    ]);
    expect(answers.map((x) => [x?.stored?.body, x?.stored?.sequence, x?.created])).toEqual([
      ['b1', 1, true],
      ['a1', 2, true],
      ['b2', 2, true],
      ['a2', 3, true],
      ['a3', 4, true],
    ]);
    for (const orderId of [a.orderId, b.orderId]) {
      const rows = await stored(orderId);
      expect(rows.map((r) => r.sequence)).toEqual(rows.map((_, i) => i + 1));
      expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((x, y) => x - y));
      for (const answer of answers.filter((x) => x?.stored?.orderId === orderId)) {
        expect(rows.find((r) => r.id === answer?.id)?.body).toBe(answer?.stored?.body);
      }
    }
    // The next single insert continues the sequence.
    expect((await repo.insert(message(a, a.writerId, 'a4'))).stored?.sequence).toBe(5);
  });

  it('schedules the unseen-message mail once per order and chat, at the earliest time given', async () => {
    const a = await anOrder();
    const early = new Date('2026-11-24T10:05:00Z');
    const late = new Date('2026-11-24T10:06:00Z');
    await repo.insertMany([
      message(a, a.writerId, 'late', { unseenDueAt: late }),
      message(a, a.writerId, 'early', { unseenDueAt: early }),
      message(a, a.customerId, 'from the customer', { direction: 1 }),
    ]);
    const rows = await t.db.query<{ chat: number; due_at: Date }>('SELECT chat, due_at FROM chat_unseen_mail WHERE order_id = $1', [
      a.orderId,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.due_at.toISOString()).toBe(early.toISOString());
  });

  it('answers a client id stored before with that message and stores the rest; one repeated within the batch stores nothing', async () => {
    const a = await anOrder();
    const first = await repo.insert(message(a, a.writerId, 'first', { clientId: 'k1' }));
    const answers = await repo.insertMany([
      message(a, a.writerId, 'new', { clientId: 'k2' }),
      message(a, a.writerId, 'first again', { clientId: 'k1' }),
    ]);
    expect(answers[0]).toMatchObject({ created: true, stored: { sequence: 2, body: 'new' } });
    expect(answers[1]).toEqual({
      id: first.id,
      created: false,
      order: { orderId: a.orderId, customerId: a.customerId, writerId: a.writerId },
    });
    expect((await stored(a.orderId)).map((r) => r.body)).toEqual(['first', 'new']);

    const twice = [message(a, a.writerId, 'one', { clientId: 'k3' }), message(a, a.writerId, 'one again', { clientId: 'k3' })];
    await expect(repo.insertMany(twice)).rejects.toThrow();
    expect((await stored(a.orderId)).map((r) => r.body)).toEqual(['first', 'new']);
    // Each on its own, racing: whichever lands first is stored, the other is answered with it.
    const answersTwice = await Promise.all(twice.map((m) => repo.insert(m)));
    const created = answersTwice.find((x) => x.created);
    const again = answersTwice.find((x) => !x.created);
    expect(created).toMatchObject({ created: true, stored: { sequence: 3 } });
    expect(again).toEqual({ id: created?.id, created: false });
    expect((await stored(a.orderId)).map((r) => r.body)).toEqual(['first', 'new', created?.stored?.body]);
  });

  it('stores nothing on an order the sender may not see, and answers null for it alone (ADR 0066)', async () => {
    const a = await anOrder();
    const b = await anOrder();
    const answers = await repo.insertMany([
      // a's customer on b's order, and on their own
      message(b, a.customerId, 'not yours', { direction: 1, viewerCustomerId: a.customerId }),
      message(a, a.customerId, 'mine', { direction: 1, viewerCustomerId: a.customerId }),
      // a's writer on b's order (assigned to b's writer), and on their own
      message(b, a.writerId, 'not assigned', { viewerWriterId: a.writerId }),
      message(a, a.writerId, 'assigned', { viewerWriterId: a.writerId }),
      // support on any order
      message(b, b.supportId, 'support', { chat: 'support', direction: 6 }),
    ]);
    expect(answers.map((x) => x?.stored?.body ?? null)).toEqual([null, 'mine', null, 'assigned', 'support']);
    expect(answers[4]?.order).toEqual({ orderId: b.orderId, customerId: b.customerId, writerId: b.writerId });
    expect((await stored(a.orderId)).map((r) => [r.body, r.sequence])).toEqual([
      ['mine', 1],
      ['assigned', 2],
    ]);
    expect((await stored(b.orderId)).map((r) => [r.body, r.sequence])).toEqual([['support', 1]]);
    // A message row takes the order's customer, whoever sent it.
    const [row] = await t.db.query<{ customer_id: number }>('SELECT customer_id FROM messages WHERE order_id = $1', [b.orderId]);
    expect(row?.customer_id).toBe(b.customerId);
  });

  it('takes no message with files', async () => {
    const a = await anOrder();
    const withFile = message(a, a.writerId, 'x', { files: [{ name: 'a.pdf', typeName: 'pdf', size: 1, storageKey: 'k' }] });
    await expect(repo.insertMany([withFile, message(a, a.writerId, 'y')])).rejects.toThrow('without files');
  });
});
