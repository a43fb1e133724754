import { CHAT_PATH, MESSAGES_PAGE_SIZE } from '@app/domain/chat/rules';
import { apiErrorFor, apiFetch } from '@/lib/api-client';
import { uploadWithProgress } from '@/lib/upload';
import type { OutboxPayload } from '../lib/outbox';
import type { ChatMessage } from '../lib/types';
import type { UnreadCounts } from '../lib/unread';
import { chatHttp } from './base';
import { readMessage, readMessages, readOrdersUnread, readUnread, type OrdersUnread } from './wire';

/** Newest page size; older pages and catch-up pages use the same. */
export const MESSAGE_PAGE_SIZE = MESSAGES_PAGE_SIZE;

const messagesPath = (orderId: number) => chatHttp(CHAT_PATH.customerMessages(orderId));

/** CONTRACT "Chat": the newest `limit` messages (no cursor), or those before/after a message id; oldest first. */
export const getMessages = async (
  orderId: number,
  cursor: { before?: number; after?: number } = {},
  limit = MESSAGE_PAGE_SIZE,
  signal?: AbortSignal,
): Promise<ChatMessage[]> => {
  const query = new URLSearchParams({ limit: String(limit) });
  if (cursor.before !== undefined) query.set('before', String(cursor.before));
  if (cursor.after !== undefined) query.set('after', String(cursor.after));
  return readMessages(await apiFetch(`${messagesPath(orderId)}?${query.toString()}`, signal ? { signal } : {}));
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
export const postMessage = async ({
  orderId,
  direction,
  payload,
  files = [],
  clientId,
  onProgress,
  signal,
}: {
  orderId: number;
  direction: 1 | 2;
  payload: OutboxPayload;
  files?: readonly File[];
  clientId: string;
  onProgress: (percent: number) => void;
  signal?: AbortSignal;
}): Promise<ChatMessage> => {
  const form = new FormData();
  form.set('direction', String(direction));
  form.set('message', messageField(payload));
  for (const file of files) form.append('files', file, file.name);
  const answer = await uploadWithProgress({
    url: messagesPath(orderId),
    form,
    onProgress,
    headers: { 'Idempotency-Key': clientId },
    ...(signal ? { signal } : {}),
  });
  if (answer.status < 200 || answer.status >= 300) throw apiErrorFor(answer.status, answer.body);
  const body = answer.body as { message?: unknown } | undefined;
  const message = readMessage(body && typeof body === 'object' && 'id' in body ? body : body?.message);
  if (!message) throw apiErrorFor(502, undefined);
  return message;
};

/** CONTRACT "Chat": GET …/orders/{id}/messages/unread → { total, writer, support }. */
export const getOrderUnread = async (orderId: number): Promise<UnreadCounts> =>
  readUnread(await apiFetch(chatHttp(CHAT_PATH.customerUnread(orderId))));

/** CONTRACT "Chat": GET {chat}/api/customers/orders/unread → { total, orders: [{ orderId, total }] }. */
export const getAllUnread = async (): Promise<OrdersUnread> => readOrdersUnread(await apiFetch(chatHttp(CHAT_PATH.customerUnreadAll)));

/** CONTRACT "Chat": PUT …/messages/read { messages: "1,2,3" } → { messages, unread }. */
export const markMessagesRead = async (orderId: number, ids: readonly number[]): Promise<{ unread: UnreadCounts | null }> => {
  const answer = await apiFetch<unknown>(chatHttp(CHAT_PATH.customerRead(orderId)), {
    method: 'PUT',
    json: { messages: ids.join(',') },
  });
  const unread = typeof answer === 'object' && answer !== null && 'unread' in answer ? (answer as { unread: unknown }).unread : null;
  if (unread === null || unread === undefined) return { unread: null };
  return { unread: typeof unread === 'number' ? null : readUnread(unread) };
};

/** CONTRACT "Paths": GET {chat}/api/customers/orders/{id}/writer/online → { online }. */
export const getWriterOnline = async (orderId: number): Promise<boolean> => {
  const answer = await apiFetch<unknown>(chatHttp(CHAT_PATH.writerOnline(orderId)));
  return typeof answer === 'object' && answer !== null && 'online' in answer && (answer as { online: unknown }).online === true;
};

/** A message's file, downloaded with the bearer token (lib/download.ts). */
export const messageFileUrl = (orderId: number, fileId: number): string => chatHttp(CHAT_PATH.customerFile(orderId, fileId));
