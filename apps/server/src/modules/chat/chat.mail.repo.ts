import { STAFF_DIRECTIONS, type ChatId } from '@app/domain';
import type { Db } from '../../db/client';

export interface DueMail {
  orderId: number;
  chat: ChatId;
  claimedUntil: Date;
  lastMailedSequence: number;
  lastMailedAt: Date | null;
}

export interface UnseenMessage {
  id: number;
  sequence: number;
  body: string;
  sticker: number | null;
  emoji: string | null;
  fileNames: string[];
  createdAt: Date;
}

/** The unseen-message mail job's SQL (ADR 0048). */
export const createChatMailRepo = (db: Db) => ({
  /** Claims due rows with a lease (`claimedUntil`); rows claimed by another run stay theirs until it ends. */
  claimDue: async ({ now, claimedUntil, limit }: { now: Date; claimedUntil: Date; limit: number }): Promise<DueMail[]> =>
    (
      await db.query<{
        order_id: number;
        chat: ChatId;
        claimed_until: Date | string;
        last_mailed_sequence: number;
        last_mailed_at: Date | string | null;
      }>(
        `UPDATE chat_unseen_mail SET claimed_until = $2
         WHERE (order_id, chat) IN (
           SELECT order_id, chat FROM chat_unseen_mail
           WHERE due_at <= $1 AND (claimed_until IS NULL OR claimed_until < $1)
           ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING order_id, chat, claimed_until, last_mailed_sequence, last_mailed_at`,
        [now, claimedUntil, limit],
      )
    ).map((r) => ({
      orderId: r.order_id,
      chat: r.chat,
      claimedUntil: new Date(r.claimed_until),
      lastMailedSequence: r.last_mailed_sequence,
      lastMailedAt: r.last_mailed_at === null ? null : new Date(r.last_mailed_at),
    })),

  /** The customer and the staff messages of the chat they have not read and no mail has named yet, oldest first. */
  unseen: async ({ orderId, chat, afterSequence }: { orderId: number; chat: ChatId; afterSequence: number }) => {
    const [customer] = await db.query<{ email: string; first_name: string; customer_id: number }>(
      'SELECT u.email, u.first_name, o.customer_id FROM orders o JOIN users u ON u.id = o.customer_id WHERE o.id = $1',
      [orderId],
    );
    const rows = await db.query<{
      id: number;
      sequence: number;
      body: string;
      sticker: number | null;
      emoji: string | null;
      created_at: Date | string;
      files: string[] | null;
    }>(
      `SELECT m.id, m.sequence, m.body, m.sticker, m.emoji, m.created_at,
         (SELECT array_agg(f.name ORDER BY f.id) FROM message_files f WHERE f.message_id = m.id) AS files
       FROM messages m
       LEFT JOIN chat_read_pointers p ON p.order_id = m.order_id AND p.chat = m.chat AND p.reader = 'customer'
       WHERE m.order_id = $1 AND m.chat = $2 AND m.direction IN (${STAFF_DIRECTIONS.join(', ')})
         AND m.sequence > GREATEST(COALESCE(p.last_read_sequence, 0), $3)
       ORDER BY m.sequence`,
      [orderId, chat, afterSequence],
    );
    return {
      customer: customer ? { id: customer.customer_id, email: customer.email, firstName: customer.first_name } : null,
      messages: rows.map((r): UnseenMessage => ({
        id: r.id,
        sequence: r.sequence,
        body: r.body,
        sticker: r.sticker,
        emoji: r.emoji,
        fileNames: r.files ?? [],
        createdAt: new Date(r.created_at),
      })),
    };
  },

  /**
   * Settles a claimed row: records the mail (when `mailedSequence` is given) and the next due time (null:
   * nothing waits), only while the claim is still this run's. False when the claim was lost.
   */
  settle: async (s: {
    orderId: number;
    chat: ChatId;
    claimedUntil: Date;
    dueAt: Date | null;
    mailed: { at: Date; sequence: number } | null;
  }): Promise<boolean> =>
    (
      await db.query(
        `UPDATE chat_unseen_mail SET due_at = $4, claimed_until = NULL,
           last_mailed_at = COALESCE($5, last_mailed_at), last_mailed_sequence = COALESCE($6, last_mailed_sequence),
           mails_sent = mails_sent + CASE WHEN $5::timestamptz IS NULL THEN 0 ELSE 1 END
         WHERE order_id = $1 AND chat = $2 AND claimed_until = $3 RETURNING order_id`,
        [s.orderId, s.chat, s.claimedUntil, s.dueAt, s.mailed?.at ?? null, s.mailed?.sequence ?? null],
      )
    ).length > 0,

  /** A mail that could not be sent: the row goes back as it was before the claim, due again at `dueAt`. */
  restore: async (r: {
    orderId: number;
    chat: ChatId;
    dueAt: Date;
    lastMailedAt: Date | null;
    lastMailedSequence: number;
  }): Promise<void> => {
    await db.query(
      `UPDATE chat_unseen_mail SET due_at = $3, last_mailed_at = $4, last_mailed_sequence = $5, mails_sent = GREATEST(mails_sent - 1, 0)
       WHERE order_id = $1 AND chat = $2`,
      [r.orderId, r.chat, r.dueAt, r.lastMailedAt, r.lastMailedSequence],
    );
  },
});
