import { CHAT_PATH, MESSAGES_PAGE_MAX, MESSAGES_PAGE_SIZE, staffDirectionOf, type ChatId } from '@app/domain/chat/rules';
import {
  chatMessageSchema,
  messageListSchema,
  readAnswerSchema,
  staffUnreadSummarySchema,
  type ChatMessage,
  type MessageList,
  type ReadAnswer,
  type StaffUnreadSummary,
} from '@app/domain/chat';
import { apiErrorFor, apiFetch } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';
import { uploadWithProgress } from '@/lib/upload';

export type { ChatMessage };

/** Where the chat server is (CONTRACT "Serving": settings' baseOrderMessengerURL and baseWebSocketGatewayURL). */
export interface ChatBase {
  http: string;
  ws: string;
}

/** `GET {chat}/api/staff/orders/{id}/messages?before|after&limit`: oldest first, both chats. */
export const getStaffMessages = (
  base: ChatBase,
  orderId: number,
  cursor: { before?: number; after?: number } = {},
): Promise<MessageList> => {
  const query = new URLSearchParams({ limit: String(cursor.after === undefined ? MESSAGES_PAGE_SIZE : MESSAGES_PAGE_MAX) });
  if (cursor.before !== undefined) query.set('before', String(cursor.before));
  if (cursor.after !== undefined) query.set('after', String(cursor.after));
  return apiFetch(`${base.http}${CHAT_PATH.staffMessages(orderId)}?${query.toString()}`, { schema: messageListSchema });
};

/** Everything after `after`, page by page (the catch-up after a (re)connect, CONTRACT "Chat"). */
export const getStaffMessagesAfter = async (base: ChatBase, orderId: number, after: number): Promise<ChatMessage[]> => {
  const out: ChatMessage[] = [];
  let cursor = after;
  for (;;) {
    const { messages } = await getStaffMessages(base, orderId, { after: cursor });
    out.push(...messages);
    const last = messages.at(-1);
    if (messages.length < MESSAGES_PAGE_MAX || !last) return out;
    cursor = last.id;
  }
};

export interface OutgoingMessage {
  clientId: string;
  chat: ChatId;
  body: string;
  files: File[];
}

/**
 * `POST {chat}/api/staff/orders/{id}/messages` (multipart: direction, message `{"body"}`, files) with
 * the client's id as `Idempotency-Key`: a retry after a timeout answers the stored message, not a second.
 */
export const sendStaffMessage = async (
  base: ChatBase,
  orderId: number,
  message: OutgoingMessage,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<ChatMessage> => {
  const form = new FormData();
  form.append('direction', String(staffDirectionOf(message.chat)));
  form.append('message', JSON.stringify({ body: message.body }));
  for (const file of message.files) form.append('files', file, file.name);
  const answer = await uploadWithProgress({
    url: `${base.http}${CHAT_PATH.staffMessages(orderId)}`,
    form,
    onProgress,
    signal,
    headers: { 'Idempotency-Key': message.clientId },
  });
  if (answer.status < 200 || answer.status >= 300) throw apiErrorFor(answer.status, answer.body);
  return chatMessageSchema.parse(answer.body);
};

/** `PUT {chat}/api/staff/orders/{id}/messages/read { messages: "1,2,3" }`: the customer's messages staff has seen. */
export const markStaffRead = (base: ChatBase, orderId: number, ids: readonly number[]): Promise<ReadAnswer> =>
  apiFetch(`${base.http}${CHAT_PATH.staffRead(orderId)}`, {
    method: 'PUT',
    json: { messages: ids.join(',') },
    schema: readAnswerSchema,
  });

/** A message's file, fetched with the token (lib/download). */
export const downloadMessageFile = (
  base: ChatBase,
  orderId: number,
  file: { id: number; name: string; size: number },
  onProgress: (p: number) => void,
) => downloadFile({ ...file, url: `${base.http}${CHAT_PATH.staffFile(orderId, file.id)}` }, onProgress);

/** `GET {chat}/api/staff/orders/unread`: orders with customer messages the viewer's side has not read. */
export const getStaffUnread = (base: ChatBase): Promise<StaffUnreadSummary> =>
  apiFetch(`${base.http}${CHAT_PATH.staffUnreadAll}`, { schema: staffUnreadSummarySchema });
