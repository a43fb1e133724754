import type { ChatId, ChatMessage, MessageDirectionId } from '@app/domain';

// The messenger's stored shapes, shared by its repos (chat.repo.ts, chat.send.repo.ts), and their wire form.

/** The order a chat call is about, with who takes part. */
export interface ChatOrder {
  orderId: number;
  customerId: number;
  writerId: number | null;
}

export interface StoredMessage {
  id: number;
  orderId: number;
  customerId: number;
  sequence: number;
  chat: ChatId;
  direction: MessageDirectionId;
  senderId: number;
  body: string;
  sticker: number | null;
  emoji: string | null;
  clientId: string | null;
  createdAt: Date;
  /** read by the other side (SPEC §3 state 2) */
  read: boolean;
  files: { id: number; name: string; typeName: string; size: number }[];
  /** ADR 0095: a writer's message, the writer's display name as read back; null otherwise (and on a message just stored) */
  senderName: string | null;
}

/** A stored message as the API and the socket send it (CONTRACT "Chat"). */
export const toWireMessage = (m: StoredMessage): ChatMessage => ({
  id: m.id,
  orderId: m.orderId,
  sequence: m.sequence,
  direction: { id: m.direction },
  state: { id: m.read ? 2 : 1 },
  body: m.body,
  sticker: m.sticker,
  emoji: m.emoji,
  files: m.files,
  dateCreated: m.createdAt.toISOString(),
  clientId: m.clientId,
  ...(m.senderName !== null ? { senderName: m.senderName } : {}),
});

export interface NewMessageFile {
  name: string;
  typeName: string;
  size: number;
  storageKey: string;
}

/** One order's unread messages per chat, as the repository counts them; the wire's OrderUnread adds the total. */
export interface UnreadPerChat {
  writer: number;
  support: number;
}

/**
 * ADR 0066: the customer's unread staff messages per chat of one order, as the order's sequence row
 * holds them, and that row's version of them (it grows with every change, so older counts are known).
 */
export interface CustomerUnread extends UnreadPerChat {
  version: number;
}
