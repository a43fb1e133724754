// The zod-free half of the chat context (ADR 0020): constants, texts and plain checks the web's eager
// code (the startup socket, the unread badges) may import without pulling zod in.
import { ROLE } from '../../auth/rules/accounts';
import { MESSENGER_FILE_EXTENSIONS, MESSENGER_FILE_MAX_BYTES } from '../../files/rules/index';
import { characterCount, rawTextMax, stripHtml } from '../../text/index';

/** SPEC §3 "Message": direction{id}. 1 customer → writer, 2 customer → support, 3 writer → customer, 6 support → customer. */
export const MESSAGE_DIRECTION = { customerToWriter: 1, customerToSupport: 2, writerToCustomer: 3, supportToCustomer: 6 } as const;
export type MessageDirectionId = (typeof MESSAGE_DIRECTION)[keyof typeof MESSAGE_DIRECTION];
export const MESSAGE_DIRECTIONS: readonly MessageDirectionId[] = [1, 2, 3, 6];
export const isMessageDirection = (value: number): value is MessageDirectionId => (MESSAGE_DIRECTIONS as readonly number[]).includes(value);
/** The directions of the customer's messages (1, 2) and of the staff's (3, 6); SQL takes these, never the numbers (ADR 0046). */
export const CUSTOMER_DIRECTIONS: readonly MessageDirectionId[] = [MESSAGE_DIRECTION.customerToWriter, MESSAGE_DIRECTION.customerToSupport];
export const STAFF_DIRECTIONS: readonly MessageDirectionId[] = [MESSAGE_DIRECTION.writerToCustomer, MESSAGE_DIRECTION.supportToCustomer];

/** SPEC §3 "Message chats": two chats per order. */
export const CHAT = { writer: 'writer', support: 'support' } as const;
export type ChatId = (typeof CHAT)[keyof typeof CHAT];
export const CHATS: readonly ChatId[] = ['writer', 'support'];

/** The chat a direction belongs to: 1 and 3 the writer chat, 2 and 6 the support chat. */
export const chatOfDirection = (direction: MessageDirectionId): ChatId => (direction === 1 || direction === 3 ? CHAT.writer : CHAT.support);
/** True for the messages the customer sent (1, 2), false for the staff's (3, 6). */
export const isCustomerDirection = (direction: number): boolean => direction === 1 || direction === 2;
/** The direction a customer's message into `chat` has. */
export const customerDirectionOf = (chat: ChatId): MessageDirectionId => (chat === CHAT.writer ? 1 : 2);
/** The direction a staff member's message has: a writer's 3, support's 6 (CONTRACT "Chat", "Staff side"). */
export const staffDirectionOf = (chat: ChatId): MessageDirectionId => (chat === CHAT.writer ? 3 : 6);

/**
 * Which chats of an order a role sees (CONTRACT "Staff side"): a writer the writer chat of the orders
 * assigned to them; support both chats of every order; a customer both chats of their own orders. One
 * rule for the chat server (chat.actor.ts) and the staff console (its tabs), so the two cannot drift.
 */
export const chatsSeenBy = (role: number): readonly ChatId[] => (role === ROLE.writer ? [CHAT.writer] : CHATS);
/**
 * The one chat a staff member writes in and whose unread count and read pointer are theirs (ADR 0047): a
 * writer's the writer chat, support's the support chat (support reads the writer chat without answering).
 */
export const staffChatOf = (role: number): ChatId => (role === ROLE.writer ? CHAT.writer : CHAT.support);

/** SPEC §3 "Message": state{id}, 1 unread, 2 read (by the other side). */
export const MESSAGE_STATE = { unread: 1, read: 2 } as const;
export type MessageStateId = (typeof MESSAGE_STATE)[keyof typeof MESSAGE_STATE];

/**
 * Socket frames `{ "event": n, "data": … }` (CONTRACT "Chat", SPEC §4 "Socket events"). Numbers the
 * CONTRACT names are exact; 4, 6 and 7 are this project's (ADR 0047).
 */
export const SOCKET_EVENT = {
  /** server → customer and staff: `{ message }` */
  newMessage: 1,
  /** client → server */
  ping: 2,
  /** server → client, the answer to a ping */
  pong: 3,
  /** server → client: a refused frame `{ message }` (ADR 0047) */
  error: 4,
  /** server → customer: `{ orderId, total, writer, support }`; on the staff socket the staff side's counts */
  unread: 5,
  /** server → customer and staff: the other side read up to a message `{ orderId, chat, by, messageId, sequence }` (ADR 0047) */
  read: 6,
  /** server → staff: the customer's socket count changed `{ orderId, online }` (ADR 0047) */
  customerOnline: 7,
  /** server → customer: `{ orderId, online }` (the order's writer) */
  writerOnline: 8,
  /** customer → server, server → staff: `{ orderId, chat? }` */
  customerTypingStart: 11,
  customerTypingStop: 12,
  /** staff → server, server → customer: `{ orderId, chat? }` (SPEC §4: support typing; a writer's carries chat "writer") */
  supportTypingStart: 13,
  supportTypingStop: 14,
} as const;
export type SocketEventId = (typeof SOCKET_EVENT)[keyof typeof SOCKET_EVENT];

/** Close codes: 4401 a missing, bad or expired token (CONTRACT); 4429 too many sockets for one account (ADR 0047). */
export const SOCKET_CLOSE = { unauthorized: 4401, tooManySockets: 4429, frameTooLarge: 1009, goingAway: 1001 } as const;

/** Paths under the chat base (CONTRACT "Chat"; the staff socket's path is ADR 0047's). */
export const CHAT_PATH = {
  customerSocket: '/customers/orders/messages',
  staffSocket: '/staff/orders/messages',
  customerMessages: (orderId: number | string) => `/api/customers/orders/${orderId}/messages`,
  customerUnread: (orderId: number | string) => `/api/customers/orders/${orderId}/messages/unread`,
  customerRead: (orderId: number | string) => `/api/customers/orders/${orderId}/messages/read`,
  customerFile: (orderId: number | string, fileId: number | string) => `/api/customers/orders/${orderId}/messages/files/${fileId}`,
  customerUnreadAll: '/api/customers/orders/unread',
  writerOnline: (orderId: number | string) => `/api/customers/orders/${orderId}/writer/online`,
  staffMessages: (orderId: number | string) => `/api/staff/orders/${orderId}/messages`,
  staffUnread: (orderId: number | string) => `/api/staff/orders/${orderId}/messages/unread`,
  staffRead: (orderId: number | string) => `/api/staff/orders/${orderId}/messages/read`,
  staffFile: (orderId: number | string, fileId: number | string) => `/api/staff/orders/${orderId}/messages/files/${fileId}`,
  staffUnreadAll: '/api/staff/orders/unread',
} as const;

/** SPEC §5 "Chat", §9: chat text at most 1500 characters (code points, ADR 0068), once stripped and trimmed. */
export const MESSAGE_BODY_MAX_LENGTH = 1500;
/** ADR 0067: a body longer than this raw (UTF-16 units) is refused with `tooLong` before it is stripped or its order looked up. */
export const MESSAGE_BODY_RAW_MAX_LENGTH = rawTextMax(MESSAGE_BODY_MAX_LENGTH);
export const isMessageBodyOverRawCap = (raw: string): boolean => raw.length > MESSAGE_BODY_RAW_MAX_LENGTH;
/** SPEC §5, §9: messenger files 15 MB (re-exported from the files context, one source). */
export const MESSAGE_FILE_MAX_BYTES = MESSENGER_FILE_MAX_BYTES;
export const MESSAGE_FILE_EXTENSIONS = MESSENGER_FILE_EXTENSIONS;
/** Files one message may carry (ADR 0047). */
export const MESSAGE_FILES_MAX = 10;
/** SPEC §3: 5 stickers, ids 1 to 5 (CONTRACT). */
export const STICKER_IDS = [1, 2, 3, 4, 5] as const;
export const isStickerId = (value: number): boolean => Number.isInteger(value) && value >= 1 && value <= 5;
/** SPEC §3: the emoji list has 39 entries; a `{"emoji": …}` message must be one of them. */
export const EMOJI = [
  '😀',
  '😃',
  '😄',
  '😁',
  '😆',
  '😅',
  '😂',
  '🙂',
  '😉',
  '😊',
  '😇',
  '😍',
  '🤩',
  '😘',
  '😋',
  '😎',
  '🤔',
  '🤗',
  '😐',
  '😏',
  '😌',
  '😔',
  '😢',
  '😭',
  '😤',
  '😡',
  '😱',
  '😳',
  '🥳',
  '😴',
  '👍',
  '👎',
  '👏',
  '🙏',
  '💪',
  '👌',
  '✌️',
  '❤️',
  '🎉',
] as const;
export const isEmoji = (value: string): boolean => (EMOJI as readonly string[]).includes(value);

/**
 * ADR 0095: attachments of these kinds are shown as pictures (a thumbnail that opens large); the
 * messenger's other kinds (bmp, documents, …) stay a file to download. Decided by the name's extension,
 * as the upload's type check (`validateMessengerFile`) decides it.
 */
const MESSAGE_IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'webp'] as const;
export const isImageAttachment = (name: string): boolean => {
  const dot = name.lastIndexOf('.');
  return dot > 0 && (MESSAGE_IMAGE_EXTENSIONS as readonly string[]).includes(name.slice(dot + 1).toLowerCase());
};

/**
 * ADR 0095: how a writer is named to the customer in the writer chat: the first name and the initial of
 * the last ("Maria S."), never the full name; null when the account has no name (the web says "Writer").
 */
export const writerDisplayName = (firstName: string | null | undefined, lastName: string | null | undefined): string | null => {
  const first = (firstName ?? '').trim();
  const initial = [...(lastName ?? '').trim()][0];
  if (first === '') return initial ? `${initial.toUpperCase()}.` : null;
  return initial ? `${first} ${initial.toUpperCase()}.` : first;
};

/** History pages: `?limit=` defaults to 50, at most 100 (ADR 0047). */
export const MESSAGES_PAGE_SIZE = 50;
export const MESSAGES_PAGE_MAX = 100;
/** Ids one read call may carry. */
export const READ_IDS_MAX = 500;
/** The Idempotency-Key (the client's id of the message): 1 to 64 characters of [A-Za-z0-9_-:.]. */
export const CLIENT_ID_PATTERN = /^[A-Za-z0-9_:.-]{1,64}$/;

/** SPEC §4, §9: the client's ping every 300 s, reconnect without a pong in 10 s; the writer's online state polled every 60 s. */
export const SOCKET_PING_INTERVAL_MS = 300_000;
export const SOCKET_PONG_TIMEOUT_MS = 10_000;
export const WRITER_ONLINE_POLL_MS = 60_000;
/** ADR 0047: the server's protocol pings, under the 60 s idle timeout of common proxies; a socket silent for two is dropped. */
export const SERVER_PING_INTERVAL_MS = 30_000;
/** A typing start without a stop clears itself after this long on the receiving side (ADR 0047). */
export const TYPING_TIMEOUT_MS = 8_000;
/**
 * The sending side's typing (SPEC §4 events 11 to 14, one rule for the customer and staff, ADR 0076): a
 * start on the first key and again at most this often while typing goes on (well inside the receiver's
 * `TYPING_TIMEOUT_MS`), and a stop after this long without a key.
 */
export const TYPING_REFRESH_MS = 3_000;
export const TYPING_IDLE_MS = 4_000;
/** Client → server frames are small; a bigger one closes the socket with 1009. */
export const SOCKET_FRAME_MAX_BYTES = 4 * 1024;
/** Sockets open at once per account; the next is closed with 4429 (a customer's tabs, a staff member's consoles). */
export const SOCKETS_PER_CUSTOMER_MAX = 10;
export const SOCKETS_PER_STAFF_MAX = 20;
/** The ids a client frame may name: PostgreSQL integers from 1 (ADR 0067). */
export const FRAME_ID_MAX = 2_147_483_647;
/** True for an id a client frame may carry; any other names nothing and the frame is dropped at the edge, unanswered. */
export const isFrameId = (value: number): boolean => Number.isInteger(value) && value >= 1 && value <= FRAME_ID_MAX;
/** Client frames per socket and second beyond which they are dropped (typing storms). */
export const SOCKET_FRAMES_PER_SECOND_MAX = 20;

/** ADR 0048: message sends per account, a burst and a minute; past either 429 with Retry-After. */
export const CHAT_SEND_BURST = { max: 10, windowMs: 10_000 } as const;
export const CHAT_SEND_PER_MINUTE = 30;

/** ADR 0048: the unseen-message mail: a staff message unread this long, at most one mail per chat this often. */
export const UNSEEN_MAIL_AFTER_MS = 5 * 60_000;
export const UNSEEN_MAIL_MIN_GAP_MS = 60 * 60_000;

/** SPEC §5 "Chat" and §8 "Chat": the texts. Only `tooLong` is SPEC's wording; the rest are this project's. */
export const CHAT_MESSAGE = {
  tooLong: 'Message cannot be more than 1500 characters long.',
  empty: 'Please type a message or attach a file',
  invalidSticker: 'Unknown sticker',
  invalidEmoji: 'Unknown emoji',
  invalidMessage: 'The message must be {"body": "…"}, {"sticker": id} or {"emoji": "…"}',
  invalidDirection: 'Unknown chat direction',
  tooManyFiles: `A message can carry at most ${MESSAGE_FILES_MAX} files`,
  tooFast: 'You are sending messages too fast. Please wait a moment and try again.',
  invalidClientId: 'The Idempotency-Key must be 1 to 64 letters, digits, "-", "_", ":" or "."',
  unreadTooltip: 'You have unread messages',
  /** SPEC §8 "Chat": a send failure shows the server's details or message; this when it gave neither. */
  sendFailed: 'Something went wrong',
} as const;

/** The characters of a body as the 1,500 rule counts them: code points (ADR 0068). */
export const messageBodyLength = (body: string): number => characterCount(body);

/**
 * SPEC §5: null when the text may be sent, else the message. `hasFiles`: a message with files may have an
 * empty body (CONTRACT). The text is measured in code points (ADR 0068) after HTML is stripped and
 * trimmed (the server's rule).
 */
export const messageBodyProblem = (body: string, hasFiles: boolean): string | null => {
  if (isMessageBodyOverRawCap(body) || messageBodyLength(body) > MESSAGE_BODY_MAX_LENGTH) return CHAT_MESSAGE.tooLong;
  if (body.trim() === '' && !hasFiles) return CHAT_MESSAGE.empty;
  return null;
};

/** SPEC §4 "Messages": the writer chat by default; support when there is no writer or only support has unread messages. */
export const defaultChat = ({
  hasWriter,
  unread,
  panel,
}: {
  hasWriter: boolean;
  unread: { writer: number; support: number };
  panel?: string | null;
}): ChatId => {
  if (panel === 'support') return CHAT.support;
  if (!hasWriter) return CHAT.support;
  if (unread.support > 0 && unread.writer === 0) return CHAT.support;
  return CHAT.writer;
};

/** `messages: "1,2,3"` → ids; anything that is not a positive integer is dropped. */
export const parseReadIds = (value: string | readonly number[]): number[] => {
  const parts = typeof value === 'string' ? value.split(',') : value.map(String);
  const ids = new Set<number>();
  for (const part of parts) {
    const trimmed = part.trim();
    if (!/^\d{1,10}$/.test(trimmed)) continue;
    const id = Number(trimmed);
    if (id >= 1 && id <= 2_147_483_647) ids.add(id);
  }
  return [...ids].slice(0, READ_IDS_MAX);
};

/** CONTRACT "Errors and access": chat text is stored with its tags stripped (one linear scan, ADR 0067) and trimmed. */
export const normalizeMessageBody = (body: string): string => stripHtml(body).trim();
