import { z } from 'zod';
import {
  CHAT_MESSAGE,
  CHATS,
  CLIENT_ID_PATTERN,
  MESSAGE_BODY_RAW_MAX_LENGTH,
  MESSAGES_PAGE_MAX,
  MESSAGES_PAGE_SIZE,
  READ_IDS_MAX,
  SOCKET_EVENT,
} from './rules/index';

const id = z.number().int();
const chatIdSchema = z.enum(CHATS as unknown as ['writer', 'support']);

/** A file of a message; downloaded at `CHAT_PATH.customerFile(orderId, id)` (or the staff path). */
export const messageFileSchema = z.object({ id, name: z.string(), typeName: z.string(), size: z.number().int() });
export type MessageFile = z.infer<typeof messageFileSchema>;

/**
 * SPEC §3 "Message" as the chat API returns it (ADR 0047). `sequence` counts the order's messages from 1
 * with no gap; `state` is 2 once the other side has read it; `clientId` is the Idempotency-Key it was
 * sent with (the client merges its outbox by it), null when none was sent.
 */
export const chatMessageSchema = z.object({
  id,
  orderId: id,
  sequence: id,
  /** SPEC §3 direction{id}: 1, 2, 3 or 6 (MESSAGE_DIRECTIONS) */
  direction: z.object({ id: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(6)]) }),
  state: z.object({ id: z.union([z.literal(1), z.literal(2)]) }),
  body: z.string(),
  sticker: z.number().int().nullable(),
  emoji: z.string().nullable(),
  files: z.array(messageFileSchema),
  dateCreated: z.string(),
  clientId: z.string().nullable(),
  /**
   * ADR 0095 (a field added to CONTRACT's message): on a writer's message (direction 3), the writer's display
   * name (`writerDisplayName`); absent on every other message, and when the writer has no name.
   */
  senderName: z.string().optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** `GET …/messages?before|after&limit` → `{ messages }`, oldest first, both chats in one list (CONTRACT). */
export const messageListSchema = z.object({ messages: z.array(chatMessageSchema) });
export type MessageList = z.infer<typeof messageListSchema>;

const messageIdParam = z.coerce.number().int().min(0).max(2_147_483_647);
export const messageListQuerySchema = z.object({
  before: messageIdParam.optional(),
  after: messageIdParam.optional(),
  limit: z.coerce.number().int().min(1).max(MESSAGES_PAGE_MAX).default(MESSAGES_PAGE_SIZE),
});
export type MessageListQuery = z.infer<typeof messageListQuerySchema>;

/**
 * The multipart field `message`, parsed from its JSON string: one of body, sticker, emoji (CONTRACT). The
 * body's raw cap (ADR 0067) is checked before this, with the SPEC text; here it only bounds what is read.
 */
export const messageContentSchema = z.union([
  z.object({ body: z.string().max(MESSAGE_BODY_RAW_MAX_LENGTH, CHAT_MESSAGE.tooLong) }).strict(),
  z.object({ sticker: z.number().int() }).strict(),
  z.object({ emoji: z.string().max(32) }).strict(),
]);
export type MessageContent = z.infer<typeof messageContentSchema>;
export const isValidClientId = (value: string): boolean => CLIENT_ID_PATTERN.test(value);

/** `GET …/orders/{id}/messages/unread` → `{ total, writer, support }`. */
export const orderUnreadSchema = z.object({ total: z.number().int(), writer: z.number().int(), support: z.number().int() });
export type OrderUnread = z.infer<typeof orderUnreadSchema>;
/** `GET {chat}/api/customers/orders/unread` → `{ total, orders: [{ orderId, total }] }` (orders with unread messages only). */
export const unreadSummarySchema = z.object({
  total: z.number().int(),
  orders: z.array(z.object({ orderId: id, total: z.number().int() })),
});
export type UnreadSummary = z.infer<typeof unreadSummarySchema>;
/** The staff side's summary carries each order's chats too (ADR 0047). */
export const staffUnreadSummarySchema = z.object({
  total: z.number().int(),
  orders: z.array(z.object({ orderId: id, total: z.number().int(), writer: z.number().int(), support: z.number().int() })),
});
export type StaffUnreadSummary = z.infer<typeof staffUnreadSummarySchema>;

/** `PUT …/messages/read { messages: "1,2,3" }` (an array of ids is taken too). */
export const readBodySchema = z.object({
  messages: z.union([z.string().max(READ_IDS_MAX * 12), z.array(z.coerce.number().int()).max(READ_IDS_MAX)]),
});
export type ReadBody = z.infer<typeof readBodySchema>;
/** → `{ messages, unread }`: the ids now read (the reader's side), and the order's unread counts after. */
export const readAnswerSchema = z.object({ messages: z.array(id), unread: orderUnreadSchema });
export type ReadAnswer = z.infer<typeof readAnswerSchema>;

/** `GET {chat}/api/customers/orders/{id}/writer/online` → `{ online }` (CONTRACT "Paths"). */
export const writerOnlineSchema = z.object({ online: z.boolean() });

// ---- socket frames (CONTRACT "Chat"; ADR 0047) ----

const typingData = z.object({ orderId: id, chat: chatIdSchema.optional() });
export const unreadFrameDataSchema = orderUnreadSchema.extend({ orderId: id });
export const readFrameDataSchema = z.object({
  orderId: id,
  chat: chatIdSchema,
  /** who read: the customer, or the staff side of that chat */
  by: z.enum(['customer', 'writer', 'support']),
  /** the last message read (its id and sequence): every message of that chat up to it is read */
  messageId: id,
  sequence: id,
});
export type ReadFrameData = z.infer<typeof readFrameDataSchema>;

/** Every frame the server sends, to a customer or to staff. */
export const serverFrameSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal(SOCKET_EVENT.newMessage), data: z.object({ message: chatMessageSchema }) }),
  z.object({ event: z.literal(SOCKET_EVENT.pong), data: z.unknown().optional() }),
  z.object({ event: z.literal(SOCKET_EVENT.error), data: z.object({ message: z.string() }) }),
  z.object({ event: z.literal(SOCKET_EVENT.unread), data: unreadFrameDataSchema }),
  z.object({ event: z.literal(SOCKET_EVENT.read), data: readFrameDataSchema }),
  z.object({ event: z.literal(SOCKET_EVENT.customerOnline), data: z.object({ orderId: id, online: z.boolean() }) }),
  z.object({ event: z.literal(SOCKET_EVENT.writerOnline), data: z.object({ orderId: id, online: z.boolean() }) }),
  z.object({ event: z.literal(SOCKET_EVENT.customerTypingStart), data: typingData }),
  z.object({ event: z.literal(SOCKET_EVENT.customerTypingStop), data: typingData }),
  z.object({ event: z.literal(SOCKET_EVENT.supportTypingStart), data: typingData }),
  z.object({ event: z.literal(SOCKET_EVENT.supportTypingStop), data: typingData }),
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;

/** What a customer's socket may send: ping, typing 11/12. */
export const customerFrameSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal(SOCKET_EVENT.ping), data: z.unknown().optional() }),
  z.object({ event: z.literal(SOCKET_EVENT.customerTypingStart), data: typingData }),
  z.object({ event: z.literal(SOCKET_EVENT.customerTypingStop), data: typingData }),
]);
export type CustomerFrame = z.infer<typeof customerFrameSchema>;
/** What a staff socket may send: ping, typing 13/14 (`chat` "support" by default for support, "writer" for a writer). */
export const staffFrameSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal(SOCKET_EVENT.ping), data: z.unknown().optional() }),
  z.object({ event: z.literal(SOCKET_EVENT.supportTypingStart), data: typingData }),
  z.object({ event: z.literal(SOCKET_EVENT.supportTypingStop), data: typingData }),
]);
export type StaffFrame = z.infer<typeof staffFrameSchema>;
