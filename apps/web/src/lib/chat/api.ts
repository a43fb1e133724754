import { CHAT_PATH, MESSAGES_PAGE_SIZE } from '@app/domain/chat/rules';
import type { ChatMessage, OrderUnread, ReadAnswer } from '@app/domain/chat';
import { apiFetch } from '@/lib/api-client';
import { postForm } from '@/lib/upload';
import type { OutboxPayload } from './outbox';
import { chatHttp } from './base';
import { CHAT_SIDE, type ChatSide } from './side';

/** Newest page size; older pages and catch-up pages use the same. */
export const MESSAGE_PAGE_SIZE = MESSAGES_PAGE_SIZE;

/** `{ total, orders }`: the customer's orders carry their total, staff's the writer and support counts too. */
export interface UnreadSummary {
  total: number;
  orders: { orderId: number; total: number; writer?: number; support?: number }[];
}

// The domain's schemas check every answer; each is loaded with its call, so no eager code bundles zod (ADR 0020).

/** CONTRACT "Chat": the newest `limit` messages (no cursor), or those before/after a message id; oldest first. */
export const getMessages = async (
  side: ChatSide,
  orderId: number,
  cursor: { before?: number; after?: number } = {},
  limit = MESSAGE_PAGE_SIZE,
): Promise<ChatMessage[]> => {
  const query = new URLSearchParams({ limit: String(limit) });
  if (cursor.before !== undefined) query.set('before', String(cursor.before));
  if (cursor.after !== undefined) query.set('after', String(cursor.after));
  const list = await apiFetch(chatHttp(`${CHAT_SIDE[side].messages(orderId)}?${query.toString()}`), {
    schema: () => import('@app/domain/chat').then((m) => m.messageListSchema),
  });
  return list.messages;
};

/** The JSON string of the multipart field `message` (CONTRACT "Chat"). */
export const messageField = (payload: OutboxPayload): string => {
  if (payload.kind === 'sticker') return JSON.stringify({ sticker: payload.sticker });
  if (payload.kind === 'emoji') return JSON.stringify({ emoji: payload.emoji });
  return JSON.stringify({ body: payload.body });
};

/**
 * CONTRACT "Chat": POST multipart `direction`, `message`, `files`, with the client id as the
 * `Idempotency-Key` (the same key again answers the stored message). Reports upload progress; an
 * aborted signal cancels. Throws ApiError for a non-2xx answer (status 0 when unreachable).
 */
export const postMessage = ({
  side,
  orderId,
  direction,
  payload,
  files = [],
  clientId,
  onProgress,
  signal,
}: {
  side: ChatSide;
  orderId: number;
  direction: number;
  payload: OutboxPayload;
  files?: readonly File[];
  clientId: string;
  onProgress: (percent: number) => void;
  signal?: AbortSignal;
}): Promise<ChatMessage> =>
  postForm({
    url: chatHttp(CHAT_SIDE[side].messages(orderId)),
    fields: { direction: String(direction), message: messageField(payload), files },
    schema: () => import('@app/domain/chat').then((m) => m.chatMessageSchema),
    onProgress,
    headers: { 'Idempotency-Key': clientId },
    signal,
  });

/** CONTRACT "Chat": GET …/orders/{id}/messages/unread → { total, writer, support } (the viewer's side). */
export const getOrderUnread = (side: ChatSide, orderId: number): Promise<OrderUnread> =>
  // ADR 0101: the order page asks this as it is drawn; the chat's schemas (and zod) load once it is.
  apiFetch(chatHttp(CHAT_SIDE[side].unread(orderId)), {
    schema: () => import('@app/domain/chat').then((m) => m.orderUnreadSchema),
    check: 'after',
  });

/** CONTRACT "Chat": GET {chat}/api/{customers|staff}/orders/unread → { total, orders: [{ orderId, total, … }] }. */
export const getAllUnread = (side: ChatSide): Promise<UnreadSummary> =>
  apiFetch(chatHttp(CHAT_SIDE[side].unreadAll), {
    schema: () => import('@app/domain/chat').then((m) => (side === 'customer' ? m.unreadSummarySchema : m.staffUnreadSummarySchema)),
    // ADR 0101: the shell asks this before its first paint; the chat's schemas (and zod) load once it is drawn.
    check: 'after',
  });

/** CONTRACT "Chat": PUT …/messages/read { messages: "1,2,3" } → { messages, unread }. */
export const markMessagesRead = (side: ChatSide, orderId: number, ids: readonly number[]): Promise<ReadAnswer> =>
  apiFetch(chatHttp(CHAT_SIDE[side].read(orderId)), {
    method: 'PUT',
    json: { messages: ids.join(',') },
    schema: () => import('@app/domain/chat').then((m) => m.readAnswerSchema),
  });

/** CONTRACT "Paths": GET {chat}/api/customers/orders/{id}/writer/online → { online } (the customer's). */
export const getWriterOnline = async (orderId: number): Promise<boolean> =>
  (
    await apiFetch(chatHttp(CHAT_PATH.writerOnline(orderId)), {
      schema: () => import('@app/domain/chat').then((m) => m.writerOnlineSchema),
    })
  ).online;

/** A message's file, downloaded through a download link (lib/download.ts, ADR 0080). */
export const messageFileUrl = (side: ChatSide, orderId: number, fileId: number): string => chatHttp(CHAT_SIDE[side].file(orderId, fileId));
