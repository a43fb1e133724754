import {
  CUSTOMER_DIRECTIONS,
  MESSAGE_DIRECTION,
  STAFF_DIRECTIONS,
  writerDisplayName,
  type ChatId,
  type MessageDirectionId,
} from '@app/domain';
import type { Db, Queryable } from '../../db/client';
import { inKeyOrder } from '../../lib/batch';
import type { ChatOrder, CustomerUnread, StoredMessage, UnreadPerChat } from './chat.model';
import { createChatSendRepo, CUSTOMER_UNREAD_COLUMNS, customerUnreadOf, type CustomerUnreadRow } from './chat.send.repo';

export type { BatchedMessage, BatchInserted, InsertedMessage, SendTargetKey } from './chat.send.repo';
export type { ChatOrder, CustomerUnread, NewMessageFile, StoredMessage } from './chat.model';

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
  writer_first_name: string | null;
  writer_last_name: string | null;
}

// The other side's pointer decides a message's state: the chat's staff reader is named like the chat.
const SELECT_MESSAGES = `SELECT m.id, m.order_id, m.customer_id, m.sequence, m.chat, m.direction, m.sender_id, m.body, m.sticker, m.emoji,
    m.client_id, m.created_at, w.first_name AS writer_first_name, w.last_name AS writer_last_name,
    CASE WHEN m.direction IN (${CUSTOMER_DIRECTIONS.join(', ')}) THEN m.sequence <= COALESCE(ps.last_read_sequence, 0)
         ELSE m.sequence <= COALESCE(pc.last_read_sequence, 0) END AS read
  FROM messages m
  LEFT JOIN chat_read_pointers pc ON pc.order_id = m.order_id AND pc.chat = m.chat AND pc.reader = 'customer'
  LEFT JOIN chat_read_pointers ps ON ps.order_id = m.order_id AND ps.chat = m.chat AND ps.reader = m.chat
  LEFT JOIN users w ON m.direction = ${MESSAGE_DIRECTION.writerToCustomer} AND w.id = m.sender_id`; // ADR 0095: the writer's name

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
    senderName: writerDisplayName(r.writer_first_name, r.writer_last_name),
  }));
};

const countsOf = (rows: { chat: ChatId; n: number }[]): UnreadPerChat => {
  const counts = { writer: 0, support: 0 };
  for (const r of rows) counts[r.chat] = Number(r.n);
  return counts;
};

/**
 * The customer's unread staff messages per chat of each order, in order (ADR 0066: the staff messages
 * sent less those read, both kept on the order's sequence row); none for an order without messages.
 */
const customerUnreadIn = async (db: Queryable, keys: readonly { customerId: number; orderId: number }[]): Promise<CustomerUnread[]> => {
  const rows = await db.query<{ n: number } & CustomerUnreadRow>(
    `SELECT k.n, ${CUSTOMER_UNREAD_COLUMNS}
     FROM unnest($1::int[], $2::int[]) WITH ORDINALITY AS k(customer_id, order_id, n)
     JOIN orders o ON o.id = k.order_id AND o.customer_id = k.customer_id
     JOIN chat_sequences s ON s.order_id = o.id`,
    [keys.map((k) => k.customerId), keys.map((k) => k.orderId)],
  );
  return inKeyOrder(keys, rows).map((r) => (r ? customerUnreadOf(r) : { writer: 0, support: 0, version: 0 }));
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
  customerUnread: async (key: { customerId: number; orderId: number }): Promise<CustomerUnread> =>
    (await customerUnreadIn(db, [key]))[0] ?? { writer: 0, support: 0, version: 0 },

  /** customerUnread for many orders in one query (ADR 0063: the socket hub's reads of one turn), in order. */
  customerUnreadMany: (keys: readonly { customerId: number; orderId: number }[]): Promise<CustomerUnread[]> => customerUnreadIn(db, keys),

  /** Every order of the customer with unread staff messages, per chat. */
  customerUnreadSummary: async ({
    customerId,
  }: {
    customerId: number;
  }): Promise<{ orderId: number; writer: number; support: number }[]> => {
    const rows = await db.query<{ order_id: number } & CustomerUnreadRow>(
      `SELECT s.order_id, ${CUSTOMER_UNREAD_COLUMNS}
       FROM chat_sequences s JOIN orders o ON o.id = s.order_id
       WHERE o.customer_id = $1 AND (s.staff_writer > s.customer_read_writer OR s.staff_support > s.customer_read_support)
       ORDER BY s.order_id`,
      [customerId],
    );
    return rows.map((r) => {
      const { writer, support } = customerUnreadOf(r);
      return { orderId: r.order_id, writer, support };
    });
  },

  /** The staff side's unread customer messages in one order, for the chats given (each chat's own reader). */
  staffUnread: async ({ orderId, chats }: { orderId: number; chats: readonly ChatId[] }): Promise<UnreadPerChat> =>
    countsOf(
      await db.query<{ chat: ChatId; n: number }>(
        `SELECT m.chat, count(*)::int AS n FROM messages m
         LEFT JOIN chat_read_pointers p ON p.order_id = m.order_id AND p.chat = m.chat AND p.reader = m.chat
         WHERE m.order_id = $1 AND m.chat = ANY($2::text[]) AND m.direction IN (${CUSTOMER_DIRECTIONS.join(', ')}) AND m.sequence > COALESCE(p.last_read_sequence, 0)
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
         WHERE m.chat = $2 AND m.direction IN (${CUSTOMER_DIRECTIONS.join(', ')}) AND m.sequence > COALESCE(p.last_read_sequence, 0) AND ($1::int IS NULL OR o.writer_id = $1)
         GROUP BY m.order_id ORDER BY m.order_id`,
        [writerId, chat],
      )
    ).map((r) => ({ orderId: r.order_id, n: Number(r.n) })),

  /**
   * Marks the other side's messages among `ids` read for `reader`: per chat the pointer moves to the
   * highest of them, never back. Returns the ids that are now read and the pointers that moved; when the
   * customer read, also their counts after it (ADR 0066: moved on the order's sequence row in the same
   * statement as the pointers).
   */
  markRead: async (r: {
    orderId: number;
    customerId: number | null;
    reader: Reader;
    chats: readonly ChatId[];
    ids: number[];
    now: Date;
  }): Promise<{ ids: number[]; moved: { chat: ChatId; sequence: number; messageId: number }[]; customerUnread?: CustomerUnread }> => {
    if (r.ids.length === 0) return { ids: [], moved: [] };
    const directions = r.reader === 'customer' ? STAFF_DIRECTIONS : CUSTOMER_DIRECTIONS;
    const rows = await db.query<{ id: number; chat: ChatId; sequence: number; staff_ordinal: number | null }>(
      `SELECT m.id, m.chat, m.sequence, m.staff_ordinal FROM messages m
       WHERE m.order_id = $1 AND ($2::int IS NULL OR m.customer_id = $2) AND m.id = ANY($3::int[]) AND m.direction = ANY($4::int[])
         AND m.chat = ANY($5::text[])`,
      [r.orderId, r.customerId, r.ids, [...directions], [...r.chats]],
    );
    const top = new Map<ChatId, { sequence: number; messageId: number; ordinal: number }>();
    for (const row of rows) {
      const best = top.get(row.chat);
      if (!best || row.sequence > best.sequence)
        top.set(row.chat, { sequence: row.sequence, messageId: row.id, ordinal: Number(row.staff_ordinal ?? 0) });
    }
    const ids = rows.map((row) => row.id).sort((a, b) => a - b);
    if (top.size === 0) return { ids, moved: [] };
    const chats = [...top.keys()];
    const byCustomer = r.reader === 'customer';
    const [answer] = await db.query<{ moved: ChatId[] | null } & ({ unread_version: null } | CustomerUnreadRow)>(
      `WITH moved AS (
         INSERT INTO chat_read_pointers (order_id, chat, reader, last_read_sequence, updated_at)
         SELECT $1, t.chat, t.reader, t.sequence, $5 FROM unnest($2::text[], $3::text[], $4::int[]) AS t(chat, reader, sequence)
         ON CONFLICT (order_id, chat, reader) DO UPDATE SET last_read_sequence = EXCLUDED.last_read_sequence, updated_at = EXCLUDED.updated_at
           WHERE chat_read_pointers.last_read_sequence < EXCLUDED.last_read_sequence
         RETURNING chat),
       counters AS (
         UPDATE chat_sequences SET customer_read_writer = GREATEST(customer_read_writer, $6), customer_read_support = GREATEST(customer_read_support, $7),
           unread_version = unread_version + 1
         WHERE order_id = $1 AND $8::boolean AND (customer_read_writer < $6 OR customer_read_support < $7)
         RETURNING ${CUSTOMER_UNREAD_COLUMNS})
       SELECT (SELECT array_agg(chat) FROM moved) AS moved, c.unread_writer, c.unread_support, c.unread_version
       FROM (SELECT 1) AS one LEFT JOIN counters c ON true`,
      [
        r.orderId,
        chats,
        chats.map((chat) => (byCustomer ? 'customer' : chat)),
        chats.map((chat) => top.get(chat)?.sequence ?? 0),
        r.now,
        top.get('writer')?.ordinal ?? 0,
        top.get('support')?.ordinal ?? 0,
        byCustomer,
      ],
    );
    const moved = chats
      .filter((chat) => answer?.moved?.includes(chat))
      .map((chat) => ({ chat, sequence: top.get(chat)?.sequence ?? 0, messageId: top.get(chat)?.messageId ?? 0 }));
    // No counters row moved (a staff reader, or nothing new read): no counts.
    const customerUnread = answer && answer.unread_version !== null ? customerUnreadOf(answer) : undefined;
    return { ids, moved, ...(customerUnread ? { customerUnread } : {}) };
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
