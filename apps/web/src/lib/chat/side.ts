import {
  CHAT_PATH,
  customerDirectionOf,
  isCustomerDirection,
  SOCKET_EVENT,
  staffDirectionOf,
  type ChatId,
  type MessageDirectionId,
} from '@app/domain/chat/rules';

/**
 * The two ends of one chat protocol (CONTRACT "Chat", ADR 0047, ADR 0076): a customer on their orders, or
 * staff (a writer, support) in the console. Everything that differs between them is in this table; the
 * engine (connection, session, messages, outbox, typing, reads) is the same code for both.
 */
export type ChatSide = 'customer' | 'staff';

interface SideRules {
  /** the socket's path under the chat's WebSocket base */
  socket: string;
  messages: (orderId: number) => string;
  read: (orderId: number) => string;
  unread: (orderId: number) => string;
  unreadAll: string;
  file: (orderId: number, fileId: number) => string;
  /** the direction of this side's own message into a chat (the server takes staff's from the token) */
  direction: (chat: ChatId) => MessageDirectionId;
  /** this side's own messages */
  isOwn: (direction: number) => boolean;
  /** the typing frames this side sends, and the other side's it shows */
  typingSent: { start: number; stop: number };
  typingShown: { start: number; stop: number };
  /**
   * The outbox (ADR 0049, 0059): the customer's is kept in localStorage and retried until the server
   * stores or refuses it; staff's lives as long as the console and shows any failure at once, with Retry.
   */
  outbox: 'persisted' | 'memory';
}

export const CHAT_SIDE: Record<ChatSide, SideRules> = {
  customer: {
    socket: CHAT_PATH.customerSocket,
    messages: CHAT_PATH.customerMessages,
    read: CHAT_PATH.customerRead,
    unread: CHAT_PATH.customerUnread,
    unreadAll: CHAT_PATH.customerUnreadAll,
    file: CHAT_PATH.customerFile,
    direction: customerDirectionOf,
    isOwn: isCustomerDirection,
    typingSent: { start: SOCKET_EVENT.customerTypingStart, stop: SOCKET_EVENT.customerTypingStop },
    typingShown: { start: SOCKET_EVENT.supportTypingStart, stop: SOCKET_EVENT.supportTypingStop },
    outbox: 'persisted',
  },
  staff: {
    socket: CHAT_PATH.staffSocket,
    messages: CHAT_PATH.staffMessages,
    read: CHAT_PATH.staffRead,
    unread: CHAT_PATH.staffUnread,
    unreadAll: CHAT_PATH.staffUnreadAll,
    file: CHAT_PATH.staffFile,
    direction: staffDirectionOf,
    isOwn: (direction) => !isCustomerDirection(direction),
    typingSent: { start: SOCKET_EVENT.supportTypingStart, stop: SOCKET_EVENT.supportTypingStop },
    typingShown: { start: SOCKET_EVENT.customerTypingStart, stop: SOCKET_EVENT.customerTypingStop },
    outbox: 'memory',
  },
};
