import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { chatFixtures } from '../../testing/chat-fixtures';
import { createChatRepo } from './chat.repo';
import type { NewMessage } from './chat.send.repo';

// ADR 0066: the customer's unread counts kept on the order's sequence row. Every answer a send or a read
// gives, and every later lookup, equals a recount of the staff messages past the customer's read pointers;
// racing sends and reads on one order leave them equal too. Runs on PGlite and on the PostgreSQL server.
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

const anOrder = () => fx.orderWithParties('chat.counters');
type Order = Awaited<ReturnType<typeof anOrder>>;

const message = (o: Order, from: 'writer' | 'support' | 'customer-writer' | 'customer-support', body = 'hi'): NewMessage => {
  const direction = ({ writer: 3, support: 6, 'customer-writer': 1, 'customer-support': 2 } as const)[from];
  return {
    orderId: o.orderId,
    customerId: o.customerId,
    chat: direction === 1 || direction === 3 ? 'writer' : 'support',
    direction,
    senderId: direction === 3 ? o.writerId : direction === 6 ? o.supportId : o.customerId,
    body,
    sticker: null,
    emoji: null,
    clientId: null,
    files: [],
    now: new Date('2026-11-24T10:00:00Z'),
    unseenDueAt: null,
  };
};

/** The counts as ADR 0047 defined them: the staff messages past the customer's read pointer, per chat. */
const recount = async (orderId: number): Promise<{ writer: number; support: number }> => {
  const rows = await t.db.query<{ chat: 'writer' | 'support'; n: number }>(
    `SELECT m.chat, count(*)::int AS n FROM messages m
     LEFT JOIN chat_read_pointers p ON p.order_id = m.order_id AND p.chat = m.chat AND p.reader = 'customer'
     WHERE m.order_id = $1 AND m.direction IN (3, 6) AND m.sequence > COALESCE(p.last_read_sequence, 0) GROUP BY m.chat`,
    [orderId],
  );
  const counts = { writer: 0, support: 0 };
  for (const r of rows) counts[r.chat] = Number(r.n);
  return counts;
};
const staffIds = async (orderId: number, chat: 'writer' | 'support') =>
  (
    await t.db.query<{ id: number }>(
      'SELECT id FROM messages WHERE order_id = $1 AND chat = $2 AND direction IN (3, 6) ORDER BY sequence',
      [orderId, chat],
    )
  ).map((r) => r.id);
const readByCustomer = (o: Order, ids: number[]) =>
  repo.markRead({ orderId: o.orderId, customerId: o.customerId, reader: 'customer', chats: ['writer', 'support'], ids, now: new Date() });

describe('the customer unread counters', () => {
  it('answer every send and read with the counts a recount gives, and a version that grows with each change', async () => {
    const o = await anOrder();
    expect(await repo.customerUnread(o)).toEqual({ writer: 0, support: 0, version: 0 });

    const first = await repo.insert(message(o, 'writer'));
    expect(first.customerUnread).toEqual({ writer: 1, support: 0, version: 1 });
    const batch = await repo.insertMany([
      message(o, 'support'),
      message(o, 'customer-writer'),
      message(o, 'writer'),
      message(o, 'support'),
    ]);
    // Each staff message of the batch carries the counts after the batch; the customer's own carries none.
    expect(batch.map((b) => b?.customerUnread)).toEqual([
      { writer: 2, support: 2, version: 2 },
      undefined,
      { writer: 2, support: 2, version: 2 },
      { writer: 2, support: 2, version: 2 },
    ]);
    expect(await repo.customerUnread(o)).toEqual({ ...(await recount(o.orderId)), version: 2 });

    // Reading the first writer message: one left there.
    const [w1, w2] = await staffIds(o.orderId, 'writer');
    const read = await readByCustomer(o, [w1 ?? 0]);
    expect(read.customerUnread).toEqual({ writer: 1, support: 2, version: 3 });
    expect(await recount(o.orderId)).toEqual({ writer: 1, support: 2 });

    // The same read again, or an older one, changes nothing.
    expect((await readByCustomer(o, [w1 ?? 0])).customerUnread).toBeUndefined();
    expect(await repo.customerUnread(o)).toEqual({ writer: 1, support: 2, version: 3 });

    // Both chats in one read.
    const [, s2] = await staffIds(o.orderId, 'support');
    expect((await readByCustomer(o, [s2 ?? 0, w2 ?? 0])).customerUnread).toEqual({ writer: 0, support: 0, version: 4 });
    expect(await recount(o.orderId)).toEqual({ writer: 0, support: 0 });

    // A staff read moves nothing of the customer's; a customer's message neither.
    const customerIds = (
      await t.db.query<{ id: number }>('SELECT id FROM messages WHERE order_id = $1 AND direction = 1', [o.orderId])
    ).map((r) => r.id);
    const staffRead = await repo.markRead({
      orderId: o.orderId,
      customerId: null,
      reader: 'writer',
      chats: ['writer'],
      ids: customerIds,
      now: new Date(),
    });
    expect(staffRead.moved).toHaveLength(1);
    expect(staffRead.customerUnread).toBeUndefined();
    expect((await repo.insert(message(o, 'customer-support'))).customerUnread).toBeUndefined();
    expect(await repo.customerUnread(o)).toEqual({ writer: 0, support: 0, version: 4 });
    expect(await repo.customerUnreadSummary({ customerId: o.customerId })).toEqual([]);
  });

  it('stay equal to a recount when sends and reads of one order race', async () => {
    const o = await anOrder();
    for (let i = 0; i < 4; i += 1) await repo.insert(message(o, i % 2 ? 'support' : 'writer'));
    const versions: number[] = [];
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 24; i += 1) {
      if (i % 3 === 2) {
        work.push(
          Promise.all([staffIds(o.orderId, 'writer'), staffIds(o.orderId, 'support')]).then(async ([w, s]) => {
            const answer = await readByCustomer(o, [w[w.length - 1] ?? 0, s[s.length - 2] ?? 0]);
            if (answer.customerUnread) versions.push(answer.customerUnread.version);
          }),
        );
      } else if (i % 3 === 1) {
        work.push(
          repo.insertMany([message(o, 'writer'), message(o, 'support')]).then((a) => versions.push(a[0]?.customerUnread?.version ?? -1)),
        );
      } else {
        work.push(repo.insert(message(o, i % 2 ? 'support' : 'writer')).then((a) => versions.push(a.customerUnread?.version ?? -1)));
      }
    }
    await Promise.all(work);
    const final = await repo.customerUnread(o);
    expect({ writer: final.writer, support: final.support }).toEqual(await recount(o.orderId));
    // Every change answered its own version, the last of them the one the row holds now.
    expect(new Set(versions).size).toBe(versions.length);
    expect(Math.max(...versions)).toBe(final.version);
    const [summary] = await repo.customerUnreadSummary({ customerId: o.customerId });
    expect(summary).toEqual({ orderId: o.orderId, writer: final.writer, support: final.support });
    // The staff ordinals of each chat are 1, 2, 3 … in sequence order.
    for (const chat of ['writer', 'support'] as const) {
      const rows = await t.db.query<{ staff_ordinal: number }>(
        'SELECT staff_ordinal FROM messages WHERE order_id = $1 AND chat = $2 AND direction IN (3, 6) ORDER BY sequence',
        [o.orderId, chat],
      );
      expect(rows.map((r) => r.staff_ordinal)).toEqual(rows.map((_, i) => i + 1));
    }
  });

  it('are filled in for messages stored before them by the migration (0014)', async () => {
    const o = await anOrder();
    for (const from of ['writer', 'customer-writer', 'support', 'writer', 'support', 'writer'] as const)
      await repo.insert(message(o, from));
    const [w1, w2] = await staffIds(o.orderId, 'writer');
    await readByCustomer(o, [w2 ?? 0]);
    const before = await repo.customerUnread(o);
    // As the rows were before the migration: no ordinals, no counters.
    await t.db.query('UPDATE messages SET staff_ordinal = NULL WHERE order_id = $1', [o.orderId]);
    await t.db.query(
      `UPDATE chat_sequences SET staff_writer = 0, staff_support = 0, customer_read_writer = 0, customer_read_support = 0 WHERE order_id = $1`,
      [o.orderId],
    );
    const migration = readFileSync(path.join(import.meta.dirname, '../../db/migrations/0014_chat_unread_counters.sql'), 'utf8');
    const backfill = migration.slice(migration.indexOf('-- The messages stored before this migration.'));
    for (const statement of backfill.split(';').filter((s) => s.replace(/--.*$/gm, '').trim() !== '')) await t.db.query(statement);
    expect(await repo.customerUnread(o)).toEqual(before);
    expect(before).toMatchObject({ writer: 1, support: 2 });
    expect(await recount(o.orderId)).toEqual({ writer: 1, support: 2 });
    // And they go on from there.
    expect((await readByCustomer(o, [w1 ?? 0])).customerUnread).toBeUndefined();
    expect((await repo.insert(message(o, 'writer'))).customerUnread).toMatchObject({ writer: 2, support: 2 });
  });
});
