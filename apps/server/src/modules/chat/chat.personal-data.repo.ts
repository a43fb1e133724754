import type { Queryable } from '../../db/client';

/**
 * The chat module's part of an account deletion (ADR 0052): what the customer wrote in the chats is erased,
 * and the files they attached go (the orphan sweep takes the bytes); the writer's and support's side stays,
 * with the order, for the staff.
 */
export const eraseCustomerMessages = async (tx: Queryable, { customerId }: { customerId: number }): Promise<void> => {
  await tx.query(`UPDATE messages SET body = '', sticker = NULL, emoji = NULL WHERE customer_id = $1 AND sender_id = $1`, [customerId]);
  await tx.query('DELETE FROM message_files WHERE customer_id = $1 AND uploaded_by = $1', [customerId]);
};

/** The report's `messages` section (ADR 0052): both chats of every order (migration 0010), each message with its attachments' names. */
export const messagesReport = (
  q: Queryable,
  { customerId, afterId, limit }: { customerId: number; afterId: number; limit: number },
): Promise<Record<string, unknown>[]> =>
  q.query(
    `SELECT m.id, m.order_id AS "orderId", m.chat, m.direction, m.body, m.sticker, m.emoji, m.created_at AS "dateCreated",
      (SELECT COALESCE(json_agg(json_build_object('id', f.id, 'name', f.name, 'typeName', f.type_name, 'sizeBytes', f.size_bytes) ORDER BY f.id), '[]'::json)
        FROM message_files f WHERE f.message_id = m.id AND f.customer_id = $1) AS files
    FROM messages m WHERE m.customer_id = $1 AND m.id > $2 ORDER BY m.id LIMIT $3`,
    [customerId, afterId, limit],
  );
