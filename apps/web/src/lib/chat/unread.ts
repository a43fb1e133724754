import type { ChatMessage, OrderUnread } from '@app/domain/chat';
import { chatOf, isOwn, type ChatName } from './chats';
import type { ChatSide } from './side';

/** The customer's unread messages of one order, counted from the messages held: staff messages in state 1. */
export const countUnread = (messages: readonly ChatMessage[]): OrderUnread => {
  let writer = 0;
  let support = 0;
  for (const message of messages) {
    if (isOwn(message.direction.id) || message.state.id !== 1) continue;
    if (chatOf(message.direction.id) === 'support') support += 1;
    else writer += 1;
  }
  return { total: writer + support, writer, support };
};

/**
 * Unread from read pointers (ADR 0049): the customer has read every staff message of a chat up to the
 * pointer; later staff messages are unread. Pointers only move forward (`advancePointer`), so a late
 * or repeated read answer can never bring a read message back to unread.
 */
export type ReadPointers = Record<ChatName, number>;

export const advancePointer = (pointers: ReadPointers, chat: ChatName, upTo: number): ReadPointers =>
  upTo > pointers[chat] ? { ...pointers, [chat]: upTo } : pointers;

export const unreadFromPointers = (messages: readonly ChatMessage[], pointers: ReadPointers): OrderUnread => {
  let writer = 0;
  let support = 0;
  for (const message of messages) {
    if (isOwn(message.direction.id)) continue;
    const chat = chatOf(message.direction.id);
    if (message.id <= pointers[chat]) continue;
    if (chat === 'support') support += 1;
    else writer += 1;
  }
  return { total: writer + support, writer, support };
};

/**
 * The other side's messages of `chat` still unread, oldest first: the ones the read call may carry once
 * seen (the customer's: staff's messages; staff's: the customer's), and the console's tab badge.
 */
export const unreadIdsOf = (messages: readonly ChatMessage[], chat: ChatName, side: ChatSide = 'customer'): number[] =>
  messages.filter((m) => !isOwn(m.direction.id, side) && m.state.id === 1 && chatOf(m.direction.id) === chat).map((m) => m.id);
