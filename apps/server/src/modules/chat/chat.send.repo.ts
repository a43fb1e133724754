import { isUniqueViolation, type Db } from '../../db/client';
import { inKeyOrder } from '../../lib/batch';
import type { ChatOrder, NewMessageFile, StoredMessage } from './chat.model';

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

/** A stored message (`created`), or the one stored before under the same client id (`created: false`). */
export interface InsertedMessage {
  id: number;
  created: boolean;
  stored?: StoredMessage;
}

/** What was stored, as it reads back: a new message is unread by the other side. */
const storedAs = (m: NewMessage, id: number, sequence: number, fileIds: number[]): StoredMessage => ({
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
   * schedules the unseen-message mail (`unseenDueAt`).
   */
  insert: async (m: NewMessage): Promise<InsertedMessage> => {
    // One statement: the order's sequence row is bumped (and locked until the statement commits, so a
    // concurrent send waits and takes the next sequence, and ids grow with sequences), the message and its
    // files are stored, and a staff message schedules the unseen-message mail (a pending one keeps its
    // time; never within the hour after the last mail). A second send with the same client id fails on
    // the unique index and rolls back whole, sequence included: the first one is answered instead.
    let row: { id: number; sequence: number; file_ids: number[] | null } | undefined;
    try {
      [row] = await db.query<{ id: number; sequence: number; file_ids: number[] | null }>(
        `WITH next AS (
           INSERT INTO chat_sequences (order_id, last_sequence) VALUES ($1, 1)
           ON CONFLICT (order_id) DO UPDATE SET last_sequence = chat_sequences.last_sequence + 1
           RETURNING last_sequence),
         msg AS (
           INSERT INTO messages (order_id, customer_id, sequence, chat, direction, sender_id, body, sticker, emoji, client_id, created_at)
           SELECT $1, $2, next.last_sequence, $3, $4, $5, $6, $7, $8, $9, $10 FROM next RETURNING id, sequence),
         files AS (
           INSERT INTO message_files (message_id, order_id, customer_id, uploaded_by, name, type_name, size_bytes, storage_key, created_at)
           SELECT msg.id, $1, $2, $5, f.name, f.type_name, f.size_bytes, f.storage_key, $10
           FROM msg, unnest($12::text[], $13::text[], $14::bigint[], $15::text[]) WITH ORDINALITY AS f(name, type_name, size_bytes, storage_key, n)
           ORDER BY f.n RETURNING id),
         unseen AS (
           INSERT INTO chat_unseen_mail (order_id, chat, due_at) SELECT $1, $3, $11::timestamptz FROM msg WHERE $11::timestamptz IS NOT NULL
           ON CONFLICT (order_id, chat) DO UPDATE
             SET due_at = COALESCE(chat_unseen_mail.due_at, GREATEST(EXCLUDED.due_at, chat_unseen_mail.last_mailed_at + interval '1 hour')))
         SELECT msg.id, msg.sequence, (SELECT array_agg(id ORDER BY id) FROM files) AS file_ids FROM msg`,
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
      );
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
    return { id: row.id, created: true, stored: storedAs(m, row.id, row.sequence, (row.file_ids ?? []).map(Number)) };
  },

  /**
   * ADR 0063: the messages without files sent in one event-loop turn, stored in one statement that does
   * for each what `insert` does (in the order given, per order: sequences without gaps, ids growing with
   * them; the unseen-message mail scheduled once per order and chat, at the earliest). The chat_sequences
   * rows are locked in order id order, as every other statement of the chat locks them one at a time, so
   * two batches cannot wait on each other. A repeated client id, or anything else, fails the statement
   * whole: nothing is stored, and the caller stores each on its own (`insert`).
   */
  insertMany: async (ms: readonly NewMessage[]): Promise<InsertedMessage[]> => {
    if (ms.some((m) => m.files.length > 0)) throw new Error('insertMany takes messages without files');
    const rows = await db.query<{ n: number; id: number; sequence: number }>(
      `WITH input AS (
         SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::int[], $5::int[], $6::text[], $7::int[], $8::text[], $9::text[],
           $10::timestamptz[], $11::timestamptz[])
           WITH ORDINALITY AS i(order_id, customer_id, chat, direction, sender_id, body, sticker, emoji, client_id, created_at, unseen_due_at, n)),
       counts AS (SELECT order_id, count(*)::int AS c FROM input GROUP BY order_id),
       next AS (
         INSERT INTO chat_sequences (order_id, last_sequence) SELECT order_id, c FROM counts ORDER BY order_id
         ON CONFLICT (order_id) DO UPDATE SET last_sequence = chat_sequences.last_sequence + EXCLUDED.last_sequence
         RETURNING order_id, last_sequence),
       numbered AS (
         SELECT i.*, (next.last_sequence - counts.c + row_number() OVER (PARTITION BY i.order_id ORDER BY i.n))::int AS sequence
         FROM input i JOIN next USING (order_id) JOIN counts USING (order_id)),
       msg AS (
         INSERT INTO messages (order_id, customer_id, sequence, chat, direction, sender_id, body, sticker, emoji, client_id, created_at)
         SELECT order_id, customer_id, sequence, chat, direction, sender_id, body, sticker, emoji, client_id, created_at
         FROM numbered ORDER BY order_id, sequence
         RETURNING id, order_id, sequence),
       unseen AS (
         INSERT INTO chat_unseen_mail (order_id, chat, due_at)
         SELECT DISTINCT ON (order_id, chat) order_id, chat, unseen_due_at FROM input WHERE unseen_due_at IS NOT NULL
         ORDER BY order_id, chat, unseen_due_at
         ON CONFLICT (order_id, chat) DO UPDATE
           SET due_at = COALESCE(chat_unseen_mail.due_at, GREATEST(EXCLUDED.due_at, chat_unseen_mail.last_mailed_at + interval '1 hour')))
       SELECT numbered.n, msg.id, msg.sequence FROM msg JOIN numbered USING (order_id, sequence)`,
      [
        ms.map((m) => m.orderId),
        ms.map((m) => m.customerId),
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
    const stored = inKeyOrder(ms, rows);
    return ms.map((m, i) => {
      const row = stored[i];
      if (!row) throw new Error('the message was not stored');
      return { id: row.id, created: true, stored: storedAs(m, row.id, row.sequence, []) };
    });
  },
});
