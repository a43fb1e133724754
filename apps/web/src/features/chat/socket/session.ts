import type { QueryClient } from '@tanstack/react-query';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { ApiError, errorMessage } from '@/lib/api-client';
import { UploadCanceledError } from '@/lib/upload';
import { tokenStorage } from '@/lib/storage';
import { chatSocketUrl, setChatBase } from '../api/base';
import { chatKeys } from '../api/keys';
import { getAllUnread, postMessage } from '../api/messages';
import { serverFrameSchema, type OrderUnread, type UnreadSummary } from '@app/domain/chat';
import { backoffDelay } from '@/lib/backoff';
import { customerDirectionOf } from '@app/domain/chat/rules';
import { markReadUpTo, mergeWindow } from '../lib/merge';
import {
  enqueue,
  isFinalRefusal,
  markFailed,
  markQueued,
  markSending,
  markSent,
  retry,
  discard,
  sendable,
  type OutboxEntry,
  type OutboxPayload,
} from '../lib/outbox';
import { chatOf, type ChatName } from '../lib/chats';
import type { MessageWindow } from '../lib/merge';
import { createConnection, SOCKET_EVENT, type Connection, type ConnectionStatus, type Frame } from './connection';
import { createOutboxStore, type OutboxStore } from './outbox-store';
import { createStore, type Store } from './store';

/**
 * The chat session of a signed-in tab (SPEC §2 "startup socket", ADR 0049): one socket, its events
 * written into TanStack Query's cache (DESIGN rule 8), the outbox and its sender, support's typing.
 */
export interface UnreadListener {
  (update: { orderId: number } & OrderUnread): void;
}

const randomId = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;

export const createChatSession = ({
  queryClient,
  customerId,
  WebSocketImpl,
  renewToken,
}: {
  queryClient: QueryClient;
  /** the outbox is kept per customer: another account signing in on this browser never sends it */
  customerId: number;
  WebSocketImpl?: typeof WebSocket;
  renewToken: () => Promise<boolean>;
}) => {
  const status: Store<ConnectionStatus> = createStore<ConnectionStatus>('closed');
  // support's (or the writer's) typing, by `${orderId}:${chat}`, with the time its last start came
  const typing: Store<ReadonlyMap<string, number>> = createStore<ReadonlyMap<string, number>>(new Map());
  const progress: Store<ReadonlyMap<string, number>> = createStore<ReadonlyMap<string, number>>(new Map());
  const outbox: OutboxStore = createOutboxStore(customerId);
  const unreadListeners = new Set<UnreadListener>();
  const aborts = new Map<string, AbortController>();
  const inFlight = new Set<string>();
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let sendFailures = 0;
  let stopped = false;

  // ── the message windows in the cache ──────────────────────────────────────────────────────────────
  const mergeInto = (orderId: number, messages: MessageWindow['messages']) => {
    queryClient.setQueryData<MessageWindow>(chatKeys.window(orderId), (window) => (window ? mergeWindow(window, messages) : window));
  };

  // ── unread ────────────────────────────────────────────────────────────────────────────────────────
  const setUnread = (update: { orderId: number } & OrderUnread) => {
    queryClient.setQueryData<OrderUnread>(chatKeys.unread(update.orderId), {
      total: update.total,
      writer: update.writer,
      support: update.support,
    });
    queryClient.setQueryData<UnreadSummary>(chatKeys.unreadAll(), (all) => {
      if (!all) return all;
      const orders = all.orders.filter((o) => o.orderId !== update.orderId);
      if (update.total > 0) orders.push({ orderId: update.orderId, total: update.total });
      return { orders, total: orders.reduce((sum, o) => sum + o.total, 0) };
    });
    for (const listener of unreadListeners) listener(update);
  };

  // ── frames ────────────────────────────────────────────────────────────────────────────────────────
  const onFrame = (raw: Frame) => {
    // Anything that is not one of the server's frames is dropped rather than trusted into the cache.
    const parsed = serverFrameSchema.safeParse(raw);
    if (!parsed.success) return;
    const frame = parsed.data;
    switch (frame.event) {
      case SOCKET_EVENT.newMessage: {
        const { message } = frame.data;
        mergeInto(message.orderId, [message]);
        // A message from the side that was typing ends its "typing…".
        clearTyping(`${message.orderId}:${chatOf(message.direction.id)}`);
        break;
      }
      case SOCKET_EVENT.unread:
        setUnread(frame.data);
        break;
      case SOCKET_EVENT.writerOnline:
        queryClient.setQueryData(chatKeys.writerOnline(frame.data.orderId), frame.data.online);
        break;
      case SOCKET_EVENT.read: {
        // Event 6 (ADR 0047): a side read a chat up to a message. Staff reading: the customer's own
        // messages turn "read"; the customer in another tab: staff messages turn read here too.
        const event = frame.data;
        queryClient.setQueryData<MessageWindow>(chatKeys.window(event.orderId), (w) =>
          w ? { ...w, messages: markReadUpTo(w.messages, event.chat, event.messageId, event.by === 'customer') } : w,
        );
        break;
      }
      case SOCKET_EVENT.supportTypingStart:
        typing.set(new Map(typing.get()).set(`${frame.data.orderId}:${frame.data.chat ?? 'support'}`, Date.now()));
        break;
      case SOCKET_EVENT.supportTypingStop:
        clearTyping(`${frame.data.orderId}:${frame.data.chat ?? 'support'}`);
        break;
      default:
        break;
    }
  };

  const clearTyping = (key: string) => {
    if (!typing.get().has(key)) return;
    const next = new Map(typing.get());
    next.delete(key);
    typing.set(next);
  };

  // ── (re)connect: catch up, then send what waits ───────────────────────────────────────────────────
  const onOpen = () => {
    // Typing seen before the cut may have stopped meanwhile: start clean.
    typing.set(new Map());
    // The socket is subscribed from its first moment; now read what came while it was away (`?after=`,
    // hooks/use-chat.ts loadWindow) and merge by id: what arrives on the socket meanwhile merges too.
    void queryClient.invalidateQueries({ queryKey: chatKeys.windows() });
    void queryClient.invalidateQueries({ queryKey: chatKeys.unreads() });
    pump();
  };

  const connection: Connection = createConnection({
    url: () => {
      const { accessToken } = tokenStorage.read();
      return accessToken === null ? null : chatSocketUrl(accessToken);
    },
    onFrame,
    onOpen,
    onStatus: (next) => status.set(next),
    renewToken,
    ...(WebSocketImpl ? { WebSocketImpl } : {}),
  });

  // ── the sender ────────────────────────────────────────────────────────────────────────────────────
  const scheduleRetry = () => {
    if (retryTimer !== null || stopped) return;
    retryTimer = setTimeout(
      () => {
        retryTimer = null;
        pump();
      },
      backoffDelay(sendFailures, Math.random()),
    );
  };

  const sendOne = async (entry: OutboxEntry) => {
    inFlight.add(entry.clientId);
    outbox.update((entries) => markSending(entries, entry.clientId));
    const abort = new AbortController();
    aborts.set(entry.clientId, abort);
    try {
      const message = await postMessage({
        orderId: entry.orderId,
        direction: customerDirectionOf(entry.chat) as 1 | 2,
        payload: entry.payload,
        files: entry.files ?? [],
        clientId: entry.clientId,
        onProgress: (percent) => progress.set(new Map(progress.get()).set(entry.clientId, percent)),
        signal: abort.signal,
      });
      sendFailures = 0;
      // The stored message joins the list before the pending copy leaves it: no blink, no double.
      mergeInto(entry.orderId, [message]);
      outbox.update((entries) => markSent(entries, entry.clientId));
    } catch (error) {
      if (error instanceof UploadCanceledError) {
        outbox.update((entries) => discard(entries, entry.clientId));
      } else if (error instanceof ApiError && isFinalRefusal(error.status)) {
        // SPEC §8 "Chat": the server's details or message; the text stays, with Retry.
        outbox.update((entries) => markFailed(entries, entry.clientId, errorMessage(error, TRANSPORT_MESSAGE.somethingWentWrong)));
      } else {
        sendFailures += 1;
        outbox.update((entries) => markQueued(entries, entry.clientId));
        scheduleRetry();
      }
    } finally {
      inFlight.delete(entry.clientId);
      aborts.delete(entry.clientId);
      const next = new Map(progress.get());
      next.delete(entry.clientId);
      progress.set(next);
      pump();
    }
  };

  /** Sends the head of each order's queue (one at a time per order, in the order written). */
  function pump() {
    if (stopped) return;
    if (typeof navigator !== 'undefined' && navigator.onLine === false) return;
    for (const entry of sendable(outbox.get())) {
      if (inFlight.has(entry.clientId)) continue;
      void sendOne(entry);
    }
  }

  const onOnline = () => {
    sendFailures = 0;
    pump();
  };

  return {
    status,
    typing,
    progress,
    outbox,
    start() {
      stopped = false;
      connection.start();
      window.addEventListener('online', onOnline);
      pump();
    },
    stop() {
      stopped = true;
      connection.stop();
      window.removeEventListener('online', onOnline);
      if (retryTimer !== null) clearTimeout(retryTimer);
      retryTimer = null;
      for (const abort of aborts.values()) abort.abort();
      outbox.dispose();
    },
    /** Writes a message into the outbox and sends it as soon as it can. */
    send({ orderId, chat, payload, files }: { orderId: number; chat: ChatName; payload: OutboxPayload; files?: File[] }): string {
      const clientId = randomId();
      outbox.update((entries) =>
        enqueue(entries, {
          clientId,
          orderId,
          chat,
          payload,
          createdAt: new Date().toISOString(),
          ...(files && files.length > 0 ? { files } : {}),
        }),
      );
      pump();
      return clientId;
    },
    retry(clientId: string) {
      sendFailures = 0;
      outbox.update((entries) => retry(entries, clientId));
      pump();
    },
    /** Cancels an upload in flight, or drops a message that waits or failed. */
    cancel(clientId: string) {
      const abort = aborts.get(clientId);
      if (abort) abort.abort();
      else outbox.update((entries) => discard(entries, clientId));
    },
    /** Own typing (SPEC §4 events 11 and 12). */
    sendTyping(orderId: number, chat: ChatName, signal: 'start' | 'stop') {
      connection.send({
        event: signal === 'start' ? SOCKET_EVENT.customerTypingStart : SOCKET_EVENT.customerTypingStop,
        data: { orderId, chat },
      });
    },
    onUnread(listener: UnreadListener): () => void {
      unreadListeners.add(listener);
      return () => {
        unreadListeners.delete(listener);
      };
    },
    loadAllUnread: getAllUnread,
  };
};

export type ChatSession = ReturnType<typeof createChatSession>;

let current: ChatSession | null = null;
const sessionStore = createStore<ChatSession | null>(null);

/**
 * Starts the tab's chat session once (SPEC §2: a signed-in customer's startup opens the socket).
 * Returns the stop function; a second call while one runs returns that one's stop.
 */
export const startChatSession = ({
  queryClient,
  customerId,
  http,
  ws,
  renewToken,
  onUnread,
  WebSocketImpl,
}: {
  queryClient: QueryClient;
  customerId: number;
  http?: string | undefined;
  ws?: string | undefined;
  renewToken: () => Promise<boolean>;
  onUnread?: UnreadListener | undefined;
  WebSocketImpl?: typeof WebSocket;
}): (() => void) => {
  setChatBase({ http, ws });
  if (!current) {
    current = createChatSession({ queryClient, customerId, renewToken, ...(WebSocketImpl ? { WebSocketImpl } : {}) });
    current.start();
    sessionStore.set(current);
  }
  const session = current;
  const unsubscribe = onUnread ? session.onUnread(onUnread) : () => undefined;
  return () => {
    unsubscribe();
    if (current !== session) return;
    session.stop();
    current = null;
    sessionStore.set(null);
  };
};

export const chatSessionStore = sessionStore;
