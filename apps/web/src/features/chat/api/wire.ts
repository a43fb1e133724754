import type { ChatFile, ChatMessage } from '../lib/types';
import type { UnreadCounts } from '../lib/unread';
import type { ChatName } from '../lib/chats';

/**
 * Reads the chat server's answers and frames (CONTRACT "Chat") into the feature's own shapes. SPEC §3
 * writes `direction{id}` and `state{id}`; a bare number is read too. Anything that is not a message is
 * dropped (null) rather than trusted into the cache.
 */
const record = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

const idOf = (value: unknown): number | null => {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const r = record(value);
  return r && typeof r.id === 'number' ? r.id : null;
};

const stickerOf = (r: Record<string, unknown>): number | null => {
  const direct = idOf(r.sticker);
  if (direct !== null) return direct;
  const list = r.stickers;
  if (Array.isArray(list) && list.length > 0) return idOf(list[0]);
  return idOf(list);
};

const filesOf = (value: unknown): ChatFile[] =>
  Array.isArray(value)
    ? value.flatMap((f) => {
        const r = record(f);
        if (!r || typeof r.id !== 'number') return [];
        return [
          {
            id: r.id,
            name: typeof r.name === 'string' ? r.name : `file-${r.id}`,
            typeName: typeof r.typeName === 'string' ? r.typeName : undefined,
            size: typeof r.size === 'number' ? r.size : undefined,
          },
        ];
      })
    : [];

export const readMessage = (value: unknown): ChatMessage | null => {
  const r = record(value);
  if (!r || typeof r.id !== 'number') return null;
  const direction = idOf(r.direction);
  if (direction === null) return null;
  const dateCreated = typeof r.dateCreated === 'string' ? r.dateCreated : new Date(0).toISOString();
  const clientId = typeof r.clientId === 'string' ? r.clientId : undefined;
  return {
    id: r.id,
    dateCreated,
    direction,
    state: idOf(r.state) ?? 1,
    body: typeof r.body === 'string' ? r.body : '',
    sticker: stickerOf(r),
    emoji: typeof r.emoji === 'string' && r.emoji !== '' ? r.emoji : null,
    files: filesOf(r.files),
    clientId,
  };
};

export const readMessages = (value: unknown): ChatMessage[] => {
  const r = record(value);
  const list = r && Array.isArray(r.messages) ? r.messages : Array.isArray(value) ? value : [];
  return list.map(readMessage).filter((m): m is ChatMessage => m !== null);
};

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0);

export const readUnread = (value: unknown): UnreadCounts => {
  const r = record(value) ?? {};
  const writer = count(r.writer);
  const support = count(r.support);
  const total = typeof r.total === 'number' ? count(r.total) : writer + support;
  return { total, writer, support };
};

export interface OrdersUnread {
  total: number;
  orders: { orderId: number; total: number }[];
}

export const readOrdersUnread = (value: unknown): OrdersUnread => {
  const r = record(value) ?? {};
  const orders = Array.isArray(r.orders)
    ? r.orders.flatMap((o) => {
        const e = record(o);
        return e && typeof e.orderId === 'number' ? [{ orderId: e.orderId, total: count(e.total) }] : [];
      })
    : [];
  return { total: typeof r.total === 'number' ? count(r.total) : orders.reduce((s, o) => s + o.total, 0), orders };
};

/** Event 5's data `{ orderId, total, writer, support }`. */
export const readUnreadEvent = (value: unknown): ({ orderId: number } & UnreadCounts) | null => {
  const r = record(value);
  if (!r || typeof r.orderId !== 'number') return null;
  return { orderId: r.orderId, ...readUnread(r) };
};

export const orderIdOf = (value: unknown): number | null => {
  const r = record(value);
  return r && typeof r.orderId === 'number' ? r.orderId : null;
};

/** Event 1's data `{ message }`; the message's order is `order{id}` (SPEC §3) or `orderId`. */
export const readMessageEvent = (value: unknown): { orderId: number; message: ChatMessage } | null => {
  const r = record(value);
  const raw = r ? (r.message ?? r) : null;
  const message = readMessage(raw);
  const m = record(raw);
  if (!message || !m) return null;
  const orderId =
    idOf(m.order) ?? (typeof m.orderId === 'number' ? m.orderId : null) ?? (r && typeof r.orderId === 'number' ? r.orderId : null);
  return orderId === null ? null : { orderId, message };
};

/** Event 6's data `{ orderId, chat, by, messageId }` (ADR 0047). */
export const readReadEvent = (value: unknown): { orderId: number; chat: ChatName; by: string; messageId: number } | null => {
  const r = record(value);
  if (!r || typeof r.orderId !== 'number' || typeof r.messageId !== 'number') return null;
  if (r.chat !== 'writer' && r.chat !== 'support') return null;
  return { orderId: r.orderId, chat: r.chat, by: typeof r.by === 'string' ? r.by : '', messageId: r.messageId };
};

/** Typing frames 13/14 `{ orderId, chat? }`: the key `${orderId}:${chat}`, support's chat when none is named. */
export const typingKey = (value: unknown): string | null => {
  const r = record(value);
  if (!r || typeof r.orderId !== 'number') return null;
  const chat: ChatName = r.chat === 'writer' ? 'writer' : 'support';
  return `${r.orderId}:${chat}`;
};
