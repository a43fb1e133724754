import type { QueryClient } from '@tanstack/react-query';
import { SOCKET_EVENT } from '@app/domain/chat/rules';
import { serverFrameSchema, type OrderUnread } from '@app/domain/chat';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { NOTIFICATION_SOCKET_EVENT, NOTIFICATIONS_READ_SOCKET_EVENT, notificationFrameSchema } from '@app/domain/notification';
import { applyNotificationFrame, notificationKeys } from '@/lib/notifications';
import { ApiError, errorMessage } from '@/lib/api-client';
import { backoffDelay } from '@/lib/backoff';
import { tokenStorage } from '@/lib/storage';
import { UploadCanceledError } from '@/lib/upload';
import { getAllUnread, postMessage, type UnreadSummary } from './api';
import { chatSocketUrl, setChatBase } from './base';
import { chatOf, isOwn } from './chats';
import { createConnection, type Connection, type ConnectionStatus, type Frame } from './connection';
import { chatSessionStore, type ChatSession } from './current';
import { chatKeys } from './keys';
import { markReadEvent, mergeInto } from './messages';
import {
  discard,
  enqueue,
  isFinalRefusal,
  markFailed,
  markQueued,
  markSending,
  markSent,
  retry,
  sendable,
  type OutboxEntry,
} from './outbox';
import { createOutboxStore, type OutboxStore } from './outbox-store';
import { CHAT_SIDE, type ChatSide } from './side';
import { createStore, type Store } from './store';

const randomId = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;

/**
 * The chat session of a tab (SPEC §2 "startup socket", ADR 0049, 0059, 0076), the same for a customer and
 * for staff, told apart by `side` (lib/chat/side.ts): one socket, its events written into TanStack
 * Query's cache (DESIGN rule 8), the outbox and its sender, the other side's typing, the unread counts.
 * A new server event is one more case in `onFrame`.
 */
export const createChatSession = ({
  side,
  queryClient,
  ownerId,
  renewToken,
}: {
  side: ChatSide;
  queryClient: QueryClient;
  /** the signed-in account: a customer's outbox is kept under it, so another account never sends it */
  ownerId: number;
  renewToken: () => Promise<boolean>;
}): ChatSession => {
  const rules = CHAT_SIDE[side];
  const status: Store<ConnectionStatus> = createStore<ConnectionStatus>('closed');
  // the other side's typing, by `${orderId}:${chat}`, with the time its last start came
  const typing: Store<ReadonlyMap<string, number>> = createStore<ReadonlyMap<string, number>>(new Map());
  const progress: Store<ReadonlyMap<string, number>> = createStore<ReadonlyMap<string, number>>(new Map());
  const outbox: OutboxStore = createOutboxStore(rules.outbox === 'persisted' ? ownerId : null);
  const aborts = new Map<string, AbortController>();
  const inFlight = new Set<string>();
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let sendFailures = 0;
  let stopped = false;

  // ── unread: event 5 carries the viewer's side's counts of one order ──────────────────────────────
  const setUnread = (update: { orderId: number } & OrderUnread) => {
    const { orderId, total, writer, support } = update;
    queryClient.setQueryData<OrderUnread>(chatKeys.unread(orderId), { total, writer, support });
    queryClient.setQueryData<UnreadSummary>(chatKeys.unreadAll(), (all) => {
      if (!all) return all;
      const orders = all.orders.filter((o) => o.orderId !== orderId);
      if (total > 0) orders.push({ orderId, total, writer, support });
      return { orders, total: orders.reduce((sum, o) => sum + o.total, 0) };
    });
  };

  const typingKey = (data: { orderId: number; chat?: 'writer' | 'support' | undefined }) => `${data.orderId}:${data.chat ?? 'support'}`;
  const clearTyping = (key: string) => {
    if (!typing.get().has(key)) return;
    const next = new Map(typing.get());
    next.delete(key);
    typing.set(next);
  };

  // ── frames ────────────────────────────────────────────────────────────────────────────────────────
  const onFrame = (raw: Frame) => {
    // ADR 0088: the notifications' events 20 and 21 ride the same socket, into the bell's cache.
    if (raw.event === NOTIFICATION_SOCKET_EVENT || raw.event === NOTIFICATIONS_READ_SOCKET_EVENT) {
      const notification = notificationFrameSchema.safeParse(raw);
      if (notification.success) applyNotificationFrame(queryClient, side, notification.data);
      return;
    }
    // Anything that is not one of the server's frames is dropped rather than trusted into the cache.
    const parsed = serverFrameSchema.safeParse(raw);
    if (!parsed.success) return;
    const frame = parsed.data;
    switch (frame.event) {
      case SOCKET_EVENT.newMessage: {
        const { message } = frame.data;
        mergeInto(queryClient, message.orderId, [message]);
        // A message from the side that was typing ends its "typing…".
        if (!isOwn(message.direction.id, side)) clearTyping(typingKey({ orderId: message.orderId, chat: chatOf(message.direction.id) }));
        return;
      }
      case SOCKET_EVENT.unread:
        setUnread(frame.data);
        return;
      case SOCKET_EVENT.writerOnline:
        queryClient.setQueryData(chatKeys.writerOnline(frame.data.orderId), frame.data.online);
        return;
      case SOCKET_EVENT.read:
        // Event 6 (ADR 0047): a side read a chat up to a message: the other side's messages turn "read"
        // (or, read in another tab or console of the same side, the ones it received).
        markReadEvent(queryClient, frame.data);
        return;
      case SOCKET_EVENT.customerTypingStart:
      case SOCKET_EVENT.customerTypingStop:
      case SOCKET_EVENT.supportTypingStart:
      case SOCKET_EVENT.supportTypingStop:
        if (frame.event === rules.typingShown.start) typing.set(new Map(typing.get()).set(typingKey(frame.data), Date.now()));
        else if (frame.event === rules.typingShown.stop) clearTyping(typingKey(frame.data));
        return;
      default:
    }
  };

  // ── (re)connect: catch up, then send what waits ───────────────────────────────────────────────────
  const onOpen = () => {
    // Typing seen before the cut may have stopped meanwhile: start clean.
    typing.set(new Map());
    // The socket is subscribed from its first moment; now read what came while it was away (`?after=`,
    // messages.ts) and merge by id: what arrives on the socket meanwhile merges too.
    void queryClient.invalidateQueries({ queryKey: chatKeys.windows() });
    void queryClient.invalidateQueries({ queryKey: chatKeys.unreads() });
    void queryClient.invalidateQueries({ queryKey: notificationKeys.list(side) });
    pump();
  };

  const connection: Connection = createConnection({
    url: () => {
      const { accessToken } = tokenStorage.read();
      return accessToken === null ? null : chatSocketUrl(side, accessToken);
    },
    onFrame,
    onOpen,
    onStatus: (next) => status.set(next),
    renewToken,
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
        side,
        orderId: entry.orderId,
        direction: rules.direction(entry.chat),
        payload: entry.payload,
        files: entry.files ?? [],
        clientId: entry.clientId,
        onProgress: (percent) => progress.set(new Map(progress.get()).set(entry.clientId, percent)),
        signal: abort.signal,
      });
      sendFailures = 0;
      // The stored message joins the list before the pending copy leaves it: no blink, no double.
      mergeInto(queryClient, entry.orderId, [message]);
      outbox.update((entries) => markSent(entries, entry.clientId));
    } catch (error) {
      if (error instanceof UploadCanceledError) {
        outbox.update((entries) => discard(entries, entry.clientId));
      } else if (rules.outbox === 'memory' || (error instanceof ApiError && isFinalRefusal(error.status))) {
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
    side,
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
    send({ orderId, chat, payload, files }) {
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
    cancel(clientId: string) {
      const abort = aborts.get(clientId);
      if (abort) abort.abort();
      else outbox.update((entries) => discard(entries, clientId));
    },
    sendTyping(orderId, chat, signal) {
      connection.send({ event: signal === 'start' ? rules.typingSent.start : rules.typingSent.stop, data: { orderId, chat } });
    },
  };
};

let current: ChatSession | null = null;

/**
 * Starts the tab's chat session once (SPEC §2: a signed-in customer's startup opens the socket; the staff
 * console opens staff's). Returns the stop function; a second call while one of the same side runs
 * returns that one's stop.
 */
export const startChatSession = ({
  side,
  queryClient,
  ownerId,
  http,
  ws,
}: {
  side: ChatSide;
  queryClient: QueryClient;
  ownerId: number;
  http?: string | undefined;
  ws?: string | undefined;
}): (() => void) => {
  setChatBase({ http, ws });
  // SPEC §2: a customer's startup loads the navigation's count (the console's queue asks when it shows).
  if (side === 'customer') {
    void queryClient.prefetchQuery({ queryKey: chatKeys.unreadAll(), queryFn: () => getAllUnread(side), staleTime: 60_000 });
  }
  if (current && current.side !== side) {
    current.stop();
    current = null;
  }
  if (!current) {
    current = createChatSession({
      side,
      queryClient,
      ownerId,
      // After a 4401 any authenticated call renews the token (lib/api-client refreshes on 401); the
      // session is over only when that call itself ends in a 401.
      renewToken: () =>
        getAllUnread(side).then(
          () => true,
          (error: unknown) => !(error instanceof ApiError && error.status === 401),
        ),
    });
    current.start();
    chatSessionStore.set(current);
  }
  const session = current;
  return () => {
    if (current !== session) return;
    session.stop();
    current = null;
    chatSessionStore.set(null);
  };
};
