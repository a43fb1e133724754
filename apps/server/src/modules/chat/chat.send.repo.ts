import { isCustomerDirection, MESSAGE_DIRECTION, STAFF_DIRECTIONS } from '@app/domain';
import { isUniqueViolation, type Db, type Queryable } from '../../db/client';
import { inKeyOrder } from '../../lib/batch';
import type { ChatOrder, CustomerUnread, NewMessageFile, StoredMessage } from './chat.model';

/** A send's read before its body (`sendTargets`). */
export interface SendTargetKey {
  orderId: number;
  customerId: number | null;
  writerId: number | null;
  senderId: number;
  clientId: string | null;
}

/** A message to store (`insert`, `insertMany`). A staff message schedules the unseen-message mail (`unseenDueAt`). */
export interface NewMessage extends Pick<
  StoredMessage,
  'orderId' | 'customerId' | 'chat' | 'direction' | 'senderId' | 'body' | 'sticker' | 'emoji' | 'clientId'
> {
  files: NewMessageFile[];
  now: Date;
  unseenDueAt: Date | null;
}

/**
 * A stored message (`created`), or the one stored before under the same client id (`created: false`).
 * A new staff message comes with the customer's unread counts of its order right after it (ADR 0066).
 */
export interface InsertedMessage {
  id: number;
  created: boolean;
  stored?: StoredMessage;
  customerUnread?: CustomerUnread;
}

/**
 * A message without files for `insertMany`: the order it goes to as its sender may see it (ADR 0066),
 * the message row taking the order's customer.
 */
export interface BatchedMessage extends Omit<NewMessage, 'customerId' | 'files'> {
  files?: readonly NewMessageFile[];
  /** a customer's send: the order must be theirs */
  viewerCustomerId?: number | null;
  /** a writer's send: the order must be assigned to them */
  viewerWriterId?: number | null;
}
/** What `insertMany` answers for a message whose order its sender may see, with that order. */
export interface BatchInserted extends InsertedMessage {
  order: ChatOrder;
}

/**
 * ADR 0066: the customer's counts on an order's chat_sequences row, as every statement that reads or
 * moves them returns them (the row's own columns, unqualified), and the counts they make.
 */
export const CUSTOMER_UNREAD_COLUMNS = `staff_writer - customer_read_writer AS unread_writer,
  staff_support - customer_read_support AS unread_support, unread_version`;
export interface CustomerUnreadRow {
  unread_writer: number;
  unread_support: number;
  unread_version: number;
}
export const customerUnreadOf = (row: CustomerUnreadRow): CustomerUnread => ({
  writer: Number(row.unread_writer),
  support: Number(row.unread_support),
  version: Number(row.unread_version),
});
/** The customer's counts a send read back from the order's sequence row; none after a customer's own message. */
const unreadAfter = (m: Pick<NewMessage, 'direction'>, row: CustomerUnreadRow): CustomerUnread | undefined =>
  isCustomerDirection(m.direction) ? undefined : customerUnreadOf(row);

// How a send moves the row on conflict: its messages, and the staff ones among them per chat (direction 3
// is the writer's, 6 support's); the version moves when the customer's counts do.
const BUMP_COUNTERS = `staff_writer = chat_sequences.staff_writer + EXCLUDED.staff_writer,
  staff_support = chat_sequences.staff_support + EXCLUDED.staff_support,
  unread_version = chat_sequences.unread_version + EXCLUDED.unread_version`;

/** What was stored, as it reads back: a new message is unread by the other side. */
const storedAs = (m: NewMessage, { id, sequence, fileIds }: { id: number; sequence: number; fileIds: number[] }): StoredMessage => ({
  id,
  orderId: m.orderId,
  customerId: m.customerId,
  sequence,
  chat: m.chat,
  direction: m.direction,
  senderId: m.senderId,
  body: m.body,
  sticker: m.sticker,
  emoji: m.emoji,
  clientId: m.clientId,
  createdAt: m.now,
  read: false,
  files: m.files.map((f, i) => ({ id: fileIds[i] ?? 0, name: f.name, typeName: f.typeName, size: f.size })),
  senderName: null,
});

/**
 * A send's SQL (ADR 0047, 0063): its one read before the body (`sendTargets`), and the message stored on
 * its own (`insert`) or with the other sends of its turn (`insertMany`). Part of `createChatRepo`.
 */
export const createChatSendRepo = (db: Db) => ({
  /**
   * A send's one read before its body: the order as the sender may see it (a customer's own; any for
   * support, `customerId` and `writerId` null; a writer's assigned one) and the id of the message this
   * sender already stored on it under `clientId`, if any. Null when the order is not the sender's.
   * Many sends' reads in one query, answered in their order.
   */
  sendTargets: async (targets: readonly SendTargetKey[]): Promise<({ order: ChatOrder; existingId: number | null } | null)[]> => {
    const rows = await db.query<{ n: number; id: number; customer_id: number; writer_id: number | null; existing_id: number | null }>(
      `SELECT k.n, o.id, o.customer_id, o.writer_id,
         (SELECT m.id FROM messages m WHERE m.order_id = o.id AND m.sender_id = k.sender_id AND m.client_id = k.client_id) AS existing_id
       FROM unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::text[]) WITH ORDINALITY AS k(order_id, customer_id, writer_id, sender_id, client_id, n)
       JOIN orders o ON o.id = k.order_id
       WHERE (k.customer_id IS NULL OR o.customer_id = k.customer_id) AND (k.writer_id IS NULL OR o.writer_id = k.writer_id)`,
      [
        targets.map((t) => t.orderId),
        targets.map((t) => t.customerId),
        targets.map((t) => t.writerId),
        targets.map((t) => t.senderId),
        targets.map((t) => t.clientId),
      ],
    );
    return inKeyOrder(targets, rows).map((row) =>
      row ? { order: { orderId: row.id, customerId: row.customer_id, writerId: row.writer_id }, existingId: row.existing_id } : null,
    );
  },

  /**
   * Stores a message and its files in one transaction. The order's sequence row is locked first, so the
   * order's messages get sequences without gaps and ids in the same order, and a second request with the
   * same client id waits, then finds the first (`created: false`, nothing stored). A staff message also
   * schedules the unseen-message mail (`unseenDueAt`). With `first` (a message with files, ADR 0073), the
   * statement runs in a transaction that `first` opens (the files' quota charge): when it throws, nothing
   * is stored.
   */
  insert: async (m: NewMessage, first?: (tx: Queryable) => Promise<void>): Promise<InsertedMessage> => {
    // One statement: the order's sequence row is bumped (and locked until the statement commits, so a
    // concurrent send waits and takes the next sequence, and ids grow with sequences), the message and its
    // files are stored, and a staff message schedules the unseen-message mail (a pending one keeps its
    // time; never within the hour after the last mail). A second send with the same client id fails on
    // the unique index and rolls back whole, sequence included: the first one is answered instead.
    type Row = { id: number; sequence: number; file_ids: number[] | null } & CustomerUnreadRow;
    let row: Row | undefined;
    const run = async (q: Queryable): Promise<Row | undefined> =>
      (
        await q.query<Row>(
          `WITH next AS (
           INSERT INTO chat_sequences (order_id, last_sequence, staff_writer, staff_support, unread_version)
           VALUES ($1, 1, ($4 = ${MESSAGE_DIRECTION.writerToCustomer})::int, ($4 = ${MESSAGE_DIRECTION.supportToCustomer})::int,
             ($4 IN (${STAFF_DIRECTIONS.join(', ')}))::int)
           ON CONFLICT (order_id) DO UPDATE SET last_sequence = chat_sequences.last_sequence + 1, ${BUMP_COUNTERS}
           RETURNING last_sequence, staff_writer, staff_support, ${CUSTOMER_UNREAD_COLUMNS}),
         msg AS (
           INSERT INTO messages (order_id, customer_id, sequence, chat, direction, sender_id, body, sticker, emoji, client_id, created_at, staff_ordinal)
           SELECT $1, $2, next.last_sequence, $3, $4, $5, $6, $7, $8, $9, $10,
             CASE $4::int WHEN ${MESSAGE_DIRECTION.writerToCustomer} THEN next.staff_writer WHEN ${MESSAGE_DIRECTION.supportToCustomer} THEN next.staff_support END
           FROM next RETURNING id, sequence),
         files AS (
           INSERT INTO message_files (message_id, order_id, customer_id, uploaded_by, name, type_name, size_bytes, storage_key, created_at)
           SELECT msg.id, $1, $2, $5, f.name, f.type_name, f.size_bytes, f.storage_key, $10
           FROM msg, unnest($12::text[], $13::text[], $14::bigint[], $15::text[]) WITH ORDINALITY AS f(name, type_name, size_bytes, storage_key, n)
           ORDER BY f.n RETURNING id),
         unseen AS (
           INSERT INTO chat_unseen_mail (order_id, chat, due_at) SELECT $1, $3, $11::timestamptz FROM msg WHERE $11::timestamptz IS NOT NULL
           ON CONFLICT (order_id, chat) DO UPDATE
             SET due_at = COALESCE(chat_unseen_mail.due_at, GREATEST(EXCLUDED.due_at, chat_unseen_mail.last_mailed_at + interval '1 hour')))
         SELECT msg.id, msg.sequence, (SELECT array_agg(id ORDER BY id) FROM files) AS file_ids,
           next.unread_writer, next.unread_support, next.unread_version FROM msg, next`,
          [
            m.orderId,
            m.customerId,
            m.chat,
            m.direction,
            m.senderId,
            m.body,
            m.sticker,
            m.emoji,
            m.clientId,
            m.now,
            m.unseenDueAt,
            m.files.map((f) => f.name),
            m.files.map((f) => f.typeName),
            m.files.map((f) => f.size),
            m.files.map((f) => f.storageKey),
          ],
        )
      )[0];
    try {
      row = first
        ? await db.transaction(async (tx) => {
            await first(tx);
            return run(tx);
          })
        : await run(db);
    } catch (error) {
      // A client id already stored.
      if (m.clientId === null || !isUniqueViolation(error)) throw error;
      const [existing] = await db.query<{ id: number }>(
        'SELECT id FROM messages WHERE order_id = $1 AND sender_id = $2 AND client_id = $3',
        [m.orderId, m.senderId, m.clientId],
      );
      if (!existing) throw error;
      return { id: existing.id, created: false };
    }
    if (!row) throw new Error('the message was not stored');
    // Ids are serial: the files' ids follow their order in the form.
    return {
      id: row.id,
      created: true,
      stored: storedAs(m, { id: row.id, sequence: row.sequence, fileIds: (row.file_ids ?? []).map(Number) }),
      customerUnread: unreadAfter(m, row),
    };
  },

  /**
   * ADR 0063, 0066: the messages without files sent in one event-loop turn, each checked and stored in
   * one statement:
   * - the order as its sender may see it (`viewerCustomerId`: a customer's own; `viewerWriterId`: a
   *   writer's assigned one; both null: any, for support). An order the sender may not see stores nothing
   *   and answers null (a 404), and the message row takes the order's customer;
   * - a client id this sender already stored on the order stores nothing and answers that message
   *   (`created: false`);
   * - the rest does what `insert` does, in the order given. Per order: sequences without gaps, ids
   *   growing with them, the unseen-message mail scheduled once per order and chat (at the earliest).
   * The chat_sequences rows are locked in order id order, as every other statement of the chat locks them
   * one at a time, so two batches cannot wait on each other. A client id repeated within the batch, or
   * anything else, fails the statement whole and stores nothing; the caller then sends each on its own.
   */
  insertMany: async (ms: readonly BatchedMessage[]): Promise<(BatchInserted | null)[]> => {
    if (ms.some((m) => (m.files?.length ?? 0) > 0)) throw new Error('insertMany takes messages without files');
    const rows = await db.query<
      {
        n: number;
        id: number;
        sequence: number | null;
        created: boolean;
        customer_id: number;
        writer_id: number | null;
      } & CustomerUnreadRow
    >(
      `WITH input AS (
         SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::int[], $6::int[], $7::text[], $8::int[], $9::text[], $10::text[],
           $11::timestamptz[], $12::timestamptz[])
           WITH ORDINALITY AS i(order_id, viewer_customer_id, viewer_writer_id, chat, direction, sender_id, body, sticker, emoji, client_id,
             created_at, unseen_due_at, n)),
       target AS (
         SELECT i.*, o.customer_id, o.writer_id,
           (SELECT m.id FROM messages m WHERE m.order_id = i.order_id AND m.sender_id = i.sender_id AND m.client_id = i.client_id) AS existing_id
         FROM input i JOIN orders o ON o.id = i.order_id
         WHERE (i.viewer_customer_id IS NULL OR o.customer_id = i.viewer_customer_id)
           AND (i.viewer_writer_id IS NULL OR o.writer_id = i.viewer_writer_id)),
       fresh AS (SELECT * FROM target WHERE existing_id IS NULL),
       counts AS (
         SELECT order_id, count(*)::int AS c, count(*) FILTER (WHERE direction = ${MESSAGE_DIRECTION.writerToCustomer})::int AS w,
           count(*) FILTER (WHERE direction = ${MESSAGE_DIRECTION.supportToCustomer})::int AS s
         FROM fresh GROUP BY order_id),
       next AS (
         INSERT INTO chat_sequences (order_id, last_sequence, staff_writer, staff_support, unread_version)
         SELECT order_id, c, w, s, (w + s > 0)::int FROM counts ORDER BY order_id
         ON CONFLICT (order_id) DO UPDATE SET last_sequence = chat_sequences.last_sequence + EXCLUDED.last_sequence, ${BUMP_COUNTERS}
         RETURNING order_id, last_sequence, staff_writer, staff_support, ${CUSTOMER_UNREAD_COLUMNS}),
       numbered AS (
         SELECT f.*, (next.last_sequence - counts.c + row_number() OVER (PARTITION BY f.order_id ORDER BY f.n))::int AS sequence,
           (CASE f.direction WHEN ${MESSAGE_DIRECTION.writerToCustomer} THEN next.staff_writer - counts.w
             WHEN ${MESSAGE_DIRECTION.supportToCustomer} THEN next.staff_support - counts.s END
             + row_number() OVER (PARTITION BY f.order_id, f.direction ORDER BY f.n))::int AS staff_ordinal,
           next.unread_writer, next.unread_support, next.unread_version
         FROM fresh f JOIN next USING (order_id) JOIN counts USING (order_id)),
       msg AS (
         INSERT INTO messages (order_id, customer_id, sequence, chat, direction, sender_id, body, sticker, emoji, client_id, created_at, staff_ordinal)
         SELECT order_id, customer_id, sequence, chat, direction, sender_id, body, sticker, emoji, client_id, created_at, staff_ordinal
         FROM numbered ORDER BY order_id, sequence
         RETURNING id, order_id, sequence),
       unseen AS (
         INSERT INTO chat_unseen_mail (order_id, chat, due_at)
         SELECT DISTINCT ON (order_id, chat) order_id, chat, unseen_due_at FROM fresh WHERE unseen_due_at IS NOT NULL
         ORDER BY order_id, chat, unseen_due_at
         ON CONFLICT (order_id, chat) DO UPDATE
           SET due_at = COALESCE(chat_unseen_mail.due_at, GREATEST(EXCLUDED.due_at, chat_unseen_mail.last_mailed_at + interval '1 hour')))
       SELECT t.n, t.customer_id, t.writer_id, COALESCE(msg.id, t.existing_id) AS id, msg.sequence, msg.id IS NOT NULL AS created,
         numbered.unread_writer, numbered.unread_support, numbered.unread_version
       FROM target t LEFT JOIN numbered ON numbered.n = t.n LEFT JOIN msg ON msg.order_id = numbered.order_id AND msg.sequence = numbered.sequence`,
      [
        ms.map((m) => m.orderId),
        ms.map((m) => m.viewerCustomerId ?? null),
        ms.map((m) => m.viewerWriterId ?? null),
        ms.map((m) => m.chat),
        ms.map((m) => m.direction),
        ms.map((m) => m.senderId),
        ms.map((m) => m.body),
        ms.map((m) => m.sticker),
        ms.map((m) => m.emoji),
        ms.map((m) => m.clientId),
        ms.map((m) => m.now),
        ms.map((m) => m.unseenDueAt),
      ],
    );
    return inKeyOrder(ms, rows).map((row, i) => {
      const m = ms[i];
      if (!row || !m) return null;
      const order = { orderId: m.orderId, customerId: row.customer_id, writerId: row.writer_id };
      if (!row.created) return { id: row.id, created: false, order };
      if (row.sequence === null) throw new Error('the message was not stored');
      const stored = storedAs({ ...m, customerId: row.customer_id, files: [] }, { id: row.id, sequence: row.sequence, fileIds: [] });
      return { id: row.id, created: true, stored, customerUnread: unreadAfter(m, row), order };
    });
  },
});
