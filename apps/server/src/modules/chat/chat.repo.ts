import type { ChatId, MessageDirectionId } from '@app/domain';
import type { Db, Queryable } from '../../db/client';
import type { ChatOrder, StoredMessage } from './chat.model';
import { createChatSendRepo } from './chat.send.repo';

export type { InsertedMessage, NewMessage, SendTargetKey } from './chat.send.repo';
export type { ChatOrder, NewMessageFile, StoredMessage } from './chat.model';

/** Who reads a chat: the customer, or the chat's staff side (the writer chat's writer, the support team). */
export type Reader = 'customer' | 'writer' | 'support';

interface MessageRow {
  id: number;
  order_id: number;
  customer_id: number;
  sequence: number;
  chat: ChatId;
  direction: number;
  sender_id: number;
  body: string;
  sticker: number | null;
  emoji: string | null;
  client_id: string | null;
  created_at: Date | string;
  read: boolean;
}

// The other side's pointer decides a message's state: the chat's staff reader is named like the chat.
const SELECT_MESSAGES = `SELECT m.id, m.order_id, m.customer_id, m.sequence, m.chat, m.direction, m.sender_id, m.body, m.sticker, m.emoji,
    m.client_id, m.created_at,
    CASE WHEN m.direction IN (1, 2) THEN m.sequence <= COALESCE(ps.last_read_sequence, 0)
         ELSE m.sequence <= COALESCE(pc.last_read_sequence, 0) END AS read
  FROM messages m
  LEFT JOIN chat_read_pointers pc ON pc.order_id = m.order_id AND pc.chat = m.chat AND pc.reader = 'customer'
  LEFT JOIN chat_read_pointers ps ON ps.order_id = m.order_id AND ps.chat = m.chat AND ps.reader = m.chat`;

const withFiles = async (db: Queryable, rows: MessageRow[]): Promise<StoredMessage[]> => {
  const ids = rows.map((r) => r.id);
  const files = new Map<number, StoredMessage['files']>();
  if (ids.length > 0) {
    const fileRows = await db.query<{ id: number; message_id: number; name: string; type_name: string; size_bytes: string | number }>(
      'SELECT id, message_id, name, type_name, size_bytes FROM message_files WHERE message_id = ANY($1::int[]) ORDER BY id',
      [ids],
    );
    for (const f of fileRows) {
      const list = files.get(f.message_id) ?? [];
      list.push({ id: f.id, name: f.name, typeName: f.type_name, size: Number(f.size_bytes) });
      files.set(f.message_id, list);
    }
  }
  return rows.map((r) => ({
    id: r.id,
    orderId: r.order_id,
    customerId: r.customer_id,
    sequence: r.sequence,
    chat: r.chat,
    direction: r.direction as MessageDirectionId,
    senderId: r.sender_id,
    body: r.body,
    sticker: r.sticker,
    emoji: r.emoji,
    clientId: r.client_id,
    createdAt: new Date(r.created_at),
    read: r.read,
    files: files.get(r.id) ?? [],
  }));
};

export interface UnreadCounts {
  writer: number;
  support: number;
}

const countsOf = (rows: { chat: ChatId; n: number }[]): UnreadCounts => {
  const counts = { writer: 0, support: 0 };
  for (const r of rows) counts[r.chat] = Number(r.n);
  return counts;
};

/** The customer's unread staff messages per chat of each order (its read pointer per chat), in order. */
const customerUnreadIn = async (db: Queryable, keys: readonly { customerId: number; orderId: number }[]): Promise<UnreadCounts[]> => {
  const rows = await db.query<{ n: number; chat: ChatId; count: number }>(
    `SELECT k.n, m.chat, count(*)::int AS count
     FROM unnest($1::int[], $2::int[]) WITH ORDINALITY AS k(customer_id, order_id, n)
     JOIN messages m ON m.customer_id = k.customer_id AND m.order_id = k.order_id AND m.direction IN (3, 6)
     LEFT JOIN chat_read_pointers p ON p.order_id = m.order_id AND p.chat = m.chat AND p.reader = 'customer'
     WHERE m.sequence > COALESCE(p.last_read_sequence, 0)
     GROUP BY k.n, m.chat`,
    [keys.map((k) => k.customerId), keys.map((k) => k.orderId)],
  );
  const counts = keys.map(() => ({ writer: 0, support: 0 }));
  for (const r of rows) {
    const c = counts[Number(r.n) - 1];
    if (c) c[r.chat] = Number(r.count);
  }
  return counts;
};

/**
 * The messenger's SQL (ADR 0047). A customer's query carries the customer id in its WHERE
 * (DESIGN rule 3); a staff query is scoped by the order found through `staffOrder`.
 */
export const createChatRepo = (db: Db) => ({
  /** One of the customer's orders; null when it is not theirs. */
  customerOrder: async ({ customerId, orderId }: { customerId: number; orderId: number }): Promise<ChatOrder | null> => {
    const [row] = await db.query<{ id: number; customer_id: number; writer_id: number | null }>(
      'SELECT id, customer_id, writer_id FROM orders WHERE id = $1 AND customer_id = $2',
      [orderId, customerId],
    );
    return row ? { orderId: row.id, customerId: row.customer_id, writerId: row.writer_id } : null;
  },

  /** An order as staff see it: any for support (writerId null), only one assigned to the writer. */
  staffOrder: async ({ orderId, writerId }: { orderId: number; writerId: number | null }): Promise<ChatOrder | null> => {
    const [row] = await db.query<{ id: number; customer_id: number; writer_id: number | null }>(
      'SELECT id, customer_id, writer_id FROM orders WHERE id = $1 AND ($2::int IS NULL OR writer_id = $2)',
      [orderId, writerId],
    );
    return row ? { orderId: row.id, customerId: row.customer_id, writerId: row.writer_id } : null;
  },

  /** The orders of these customers assigned to the writer (who hears that writer's online state). */
  ordersOfWriterFor: async ({
    writerId,
    customerIds,
  }: {
    writerId: number;
    customerIds: number[];
  }): Promise<{ orderId: number; customerId: number }[]> =>
    (
      await db.query<{ id: number; customer_id: number }>(
        'SELECT id, customer_id FROM orders WHERE writer_id = $1 AND customer_id = ANY($2::int[])',
        [writerId, customerIds],
      )
    ).map((r) => ({ orderId: r.id, customerId: r.customer_id })),

  // A send's reads and writes (ADR 0063): chat.send.repo.ts.
  ...createChatSendRepo(db),

  /** Messages by id with their files and read state; `customerId` scopes a customer's call. */
  byIds: async ({ ids, customerId }: { ids: number[]; customerId: number | null }): Promise<StoredMessage[]> => {
    if (ids.length === 0) return [];
    const rows = await db.query<MessageRow>(
      `${SELECT_MESSAGES} WHERE m.id = ANY($1::int[]) AND ($2::int IS NULL OR m.customer_id = $2) ORDER BY m.id`,
      [ids, customerId],
    );
    return withFiles(db, rows);
  },

  /**
   * A page of the order's messages in `chats`, oldest first: the newest `limit` before `before` (or the
   * newest of all), or the oldest `limit` after `after`. Ids grow with sequences within an order.
   */
  list: async (q: {
    orderId: number;
    customerId: number | null;
    chats: readonly ChatId[];
    before: number | undefined;
    after: number | undefined;
    limit: number;
  }): Promise<StoredMessage[]> => {
    const scope = 'm.order_id = $1 AND ($2::int IS NULL OR m.customer_id = $2) AND m.chat = ANY($3::text[])';
    const params = [q.orderId, q.customerId, [...q.chats], q.limit];
    const rows =
      q.after !== undefined
        ? await db.query<MessageRow>(`${SELECT_MESSAGES} WHERE ${scope} AND m.id > $5 ORDER BY m.id ASC LIMIT $4`, [...params, q.after])
        : (
            await db.query<MessageRow>(`${SELECT_MESSAGES} WHERE ${scope} AND ($5::int IS NULL OR m.id < $5) ORDER BY m.id DESC LIMIT $4`, [
              ...params,
              q.before ?? null,
            ])
          ).reverse();
    return withFiles(db, rows);
  },

  /** The customer's unread staff messages in one order, per chat. */
  customerUnread: async (key: { customerId: number; orderId: number }): Promise<UnreadCounts> =>
    (await customerUnreadIn(db, [key]))[0] ?? { writer: 0, support: 0 },

  /** customerUnread for many orders in one query (ADR 0063: the socket hub's reads of one turn), in order. */
  customerUnreadMany: (keys: readonly { customerId: number; orderId: number }[]): Promise<UnreadCounts[]> => customerUnreadIn(db, keys),

  /** Every order of the customer with unread staff messages, per chat. */
  customerUnreadSummary: async ({
    customerId,
  }: {
    customerId: number;
  }): Promise<{ orderId: number; writer: number; support: number }[]> => {
    const rows = await db.query<{ order_id: number; chat: ChatId; n: number }>(
      `SELECT m.order_id, m.chat, count(*)::int AS n FROM messages m
       LEFT JOIN chat_read_pointers p ON p.order_id = m.order_id AND p.chat = m.chat AND p.reader = 'customer'
       WHERE m.customer_id = $1 AND m.direction IN (3, 6) AND m.sequence > COALESCE(p.last_read_sequence, 0)
       GROUP BY m.order_id, m.chat ORDER BY m.order_id`,
      [customerId],
    );
    const byOrder = new Map<number, { orderId: number; writer: number; support: number }>();
    for (const r of rows) {
      const entry = byOrder.get(r.order_id) ?? { orderId: r.order_id, writer: 0, support: 0 };
      entry[r.chat] = Number(r.n);
      byOrder.set(r.order_id, entry);
    }
    return [...byOrder.values()];
  },

  /** The staff side's unread customer messages in one order, for the chats given (each chat's own reader). */
  staffUnread: async ({ orderId, chats }: { orderId: number; chats: readonly ChatId[] }): Promise<UnreadCounts> =>
    countsOf(
      await db.query<{ chat: ChatId; n: number }>(
        `SELECT m.chat, count(*)::int AS n FROM messages m
         LEFT JOIN chat_read_pointers p ON p.order_id = m.order_id AND p.chat = m.chat AND p.reader = m.chat
         WHERE m.order_id = $1 AND m.chat = ANY($2::text[]) AND m.direction IN (1, 2) AND m.sequence > COALESCE(p.last_read_sequence, 0)
         GROUP BY m.chat`,
        [orderId, [...chats]],
      ),
    ),

  /** Orders with customer messages the staff side has not read: a writer's assigned orders' writer chat, or support's support chat. */
  staffUnreadSummary: async ({ writerId, chat }: { writerId: number | null; chat: ChatId }): Promise<{ orderId: number; n: number }[]> =>
    (
      await db.query<{ order_id: number; n: number }>(
        `SELECT m.order_id, count(*)::int AS n FROM messages m
         JOIN orders o ON o.id = m.order_id
         LEFT JOIN chat_read_pointers p ON p.order_id = m.order_id AND p.chat = m.chat AND p.reader = m.chat
         WHERE m.chat = $2 AND m.direction IN (1, 2) AND m.sequence > COALESCE(p.last_read_sequence, 0) AND ($1::int IS NULL OR o.writer_id = $1)
         GROUP BY m.order_id ORDER BY m.order_id`,
        [writerId, chat],
      )
    ).map((r) => ({ orderId: r.order_id, n: Number(r.n) })),

  /**
   * Marks the other side's messages among `ids` read for `reader`: per chat the pointer moves to the
   * highest of them, never back. Returns the ids that are now read and the pointers that moved.
   */
  markRead: async (r: {
    orderId: number;
    customerId: number | null;
    reader: Reader;
    chats: readonly ChatId[];
    ids: number[];
    now: Date;
  }): Promise<{ ids: number[]; moved: { chat: ChatId; sequence: number; messageId: number }[] }> => {
    if (r.ids.length === 0) return { ids: [], moved: [] };
    const directions = r.reader === 'customer' ? [3, 6] : [1, 2];
    const rows = await db.query<{ id: number; chat: ChatId; sequence: number }>(
      `SELECT m.id, m.chat, m.sequence FROM messages m
       WHERE m.order_id = $1 AND ($2::int IS NULL OR m.customer_id = $2) AND m.id = ANY($3::int[]) AND m.direction = ANY($4::int[])
         AND m.chat = ANY($5::text[])`,
      [r.orderId, r.customerId, r.ids, directions, [...r.chats]],
    );
    const top = new Map<ChatId, { sequence: number; messageId: number }>();
    for (const row of rows) {
      const best = top.get(row.chat);
      if (!best || row.sequence > best.sequence) top.set(row.chat, { sequence: row.sequence, messageId: row.id });
    }
    const moved: { chat: ChatId; sequence: number; messageId: number }[] = [];
    for (const [chat, { sequence, messageId }] of top) {
      const reader = r.reader === 'customer' ? 'customer' : chat;
      const updated = await db.query(
        `INSERT INTO chat_read_pointers (order_id, chat, reader, last_read_sequence, updated_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (order_id, chat, reader) DO UPDATE SET last_read_sequence = EXCLUDED.last_read_sequence, updated_at = EXCLUDED.updated_at
           WHERE chat_read_pointers.last_read_sequence < EXCLUDED.last_read_sequence
         RETURNING last_read_sequence`,
        [r.orderId, chat, reader, sequence, r.now],
      );
      if (updated.length > 0) moved.push({ chat, sequence, messageId });
    }
    return { ids: rows.map((row) => row.id).sort((a, b) => a - b), moved };
  },

  /** A file of a message of the order, for download; `customerId` scopes a customer's call, `chats` a staff member's. */
  findFile: async ({
    orderId,
    fileId,
    customerId,
    chats,
  }: {
    orderId: number;
    fileId: number;
    customerId: number | null;
    chats: readonly ChatId[];
  }): Promise<{ name: string; size: number; storageKey: string } | null> => {
    const [row] = await db.query<{ name: string; size_bytes: string | number; storage_key: string }>(
      `SELECT f.name, f.size_bytes, f.storage_key FROM message_files f JOIN messages m ON m.id = f.message_id
       WHERE f.id = $1 AND f.order_id = $2 AND ($3::int IS NULL OR f.customer_id = $3) AND m.chat = ANY($4::text[])`,
      [fileId, orderId, customerId, [...chats]],
    );
    return row ? { name: row.name, size: Number(row.size_bytes), storageKey: row.storage_key } : null;
  },
});
export type ChatRepo = ReturnType<typeof createChatRepo>;
