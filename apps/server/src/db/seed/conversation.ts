import { chatOfDirection, type ChatId, isCustomerDirection, MESSAGE_DIRECTION, type MessageDirectionId } from '@app/domain';
import type { Queryable } from '../client';

/** ADR 0047: a demo order's messages, oldest first, as [direction, hours after creation, body, seen by the customer]. */
export type DemoConversation = readonly (readonly [MessageDirectionId, number, string, boolean])[];

/** The order's messages with their sequences, and the read pointers (ADR 0047) that leave the unseen ones unread. */
export const seedConversation = async (
  q: Queryable,
  c: {
    orderId: number;
    customerId: number;
    writerId: number;
    supportId: number | null;
    at: (hoursAfterCreation: number) => Date;
    messages: DemoConversation;
  },
): Promise<void> => {
  const customerRead: Record<ChatId, number> = { writer: 0, support: 0 };
  const staffRead: Record<ChatId, number> = { writer: 0, support: 0 };
  // ADR 0066: each chat's staff messages numbered, and the number of the last one the customer saw.
  const staffSent: Record<ChatId, number> = { writer: 0, support: 0 };
  const staffSeen: Record<ChatId, number> = { writer: 0, support: 0 };
  let sequence = 0;
  for (const [direction, hours, body, seen] of c.messages) {
    sequence += 1;
    const chat = chatOfDirection(direction);
    const sender =
      direction === MESSAGE_DIRECTION.writerToCustomer
        ? c.writerId
        : direction === MESSAGE_DIRECTION.supportToCustomer
          ? c.supportId
          : c.customerId;
    if (sender === null) throw new Error('the demo support account was not created');
    const fromStaff = !isCustomerDirection(direction);
    if (fromStaff) staffSent[chat] += 1;
    await q.query(
      `INSERT INTO messages (order_id, customer_id, sequence, chat, direction, sender_id, body, created_at, staff_ordinal)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [c.orderId, c.customerId, sequence, chat, direction, sender, body, c.at(hours), fromStaff ? staffSent[chat] : null],
    );
    if (seen || !fromStaff) {
      customerRead[chat] = sequence;
      staffSeen[chat] = staffSent[chat];
    }
    staffRead[chat] = sequence;
  }
  await q.query(
    `INSERT INTO chat_sequences (order_id, last_sequence, staff_writer, staff_support, customer_read_writer, customer_read_support)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [c.orderId, sequence, staffSent.writer, staffSent.support, staffSeen.writer, staffSeen.support],
  );
  const last = c.at(c.messages[c.messages.length - 1]?.[1] ?? 0);
  for (const [chat, reader, through] of [
    ['writer', 'customer', customerRead.writer],
    ['support', 'customer', customerRead.support],
    ['writer', 'writer', staffRead.writer],
    ['support', 'support', staffRead.support],
  ] as const) {
    await q.query('INSERT INTO chat_read_pointers (order_id, chat, reader, last_read_sequence, updated_at) VALUES ($1, $2, $3, $4, $5)', [
      c.orderId,
      chat,
      reader,
      through,
      last,
    ]);
  }
};

/**
 * Demo accounts, codes and orders, inserted once: nothing is done when demo@example.com exists, so a
 * restart or an operator's edits are never overwritten.
 */
