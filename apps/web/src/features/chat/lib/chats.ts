/**
 * SPEC §3 "Message chats" and §4 "Messages": the two chats of an order and which one opens first.
 * Directions: 1 customer to writer, 2 customer to support, 3 writer to customer, 6 support to customer.
 */
export const CHAT_DIRECTION = { toWriter: 1, toSupport: 2, fromWriter: 3, fromSupport: 6 } as const;
export type ChatDirection = (typeof CHAT_DIRECTION)[keyof typeof CHAT_DIRECTION];

export const CHATS = ['writer', 'support'] as const;
export type ChatName = (typeof CHATS)[number];

export const chatOf = (direction: number): ChatName =>
  direction === CHAT_DIRECTION.toSupport || direction === CHAT_DIRECTION.fromSupport ? 'support' : 'writer';

/** The customer's own messages: directions 1 and 2. */
export const isOwn = (direction: number): boolean => direction === CHAT_DIRECTION.toWriter || direction === CHAT_DIRECTION.toSupport;

/** The direction a customer's message to `chat` carries. */
export const outgoingDirection = (chat: ChatName): 1 | 2 => (chat === 'support' ? CHAT_DIRECTION.toSupport : CHAT_DIRECTION.toWriter);

/**
 * SPEC §4: the writer chat by default; support when no writer is assigned, or when only support has
 * unread messages. `?panel=support` (SPEC §2) wins over both.
 */
export const defaultChat = ({
  panel,
  hasWriter,
  unread,
}: {
  panel: string | null;
  hasWriter: boolean;
  unread: { writer: number; support: number };
}): ChatName => {
  if (panel === 'support') return 'support';
  if (panel === 'writer') return 'writer';
  if (!hasWriter) return 'support';
  if (unread.support > 0 && unread.writer === 0) return 'support';
  return 'writer';
};
