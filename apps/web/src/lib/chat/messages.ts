import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { ChatMessage } from '@app/domain/chat';
import { getMessages, MESSAGE_PAGE_SIZE } from './api';
import type { ChatName } from './chats';
import { chatKeys } from './keys';
import { markRead, markReadUpTo, mergeWindow, newestId, oldestId, type MessageWindow } from './merge';
import type { ChatSide } from './side';

/**
 * The one owner of "an order's messages" (ADR 0049, 0076): one cache entry per order holds both chats,
 * merged by id and ordered by sequence from the newest page, older pages (`?before=`), catch-ups
 * (`?after=`) and live frames, in any order and any number of times. No other code writes that entry.
 */
const MAX_CATCH_UP_PAGES = 20;

// Frames that arrive while an order's first page is on its way: merged into that page when it lands.
const early = new WeakMap<QueryClient, Map<number, ChatMessage[]>>();
const earlyOf = (queryClient: QueryClient) => {
  let map = early.get(queryClient);
  if (!map) early.set(queryClient, (map = new Map()));
  return map;
};
const takeEarly = (queryClient: QueryClient, orderId: number): ChatMessage[] => {
  const map = earlyOf(queryClient);
  const taken = map.get(orderId) ?? [];
  map.delete(orderId);
  return taken;
};

const windowOf = (queryClient: QueryClient, orderId: number) => queryClient.getQueryData<MessageWindow>(chatKeys.window(orderId));

/** Messages from a frame or a send's answer: merged into the order's window (kept for it while it loads). */
export const mergeInto = (queryClient: QueryClient, orderId: number, messages: readonly ChatMessage[]): void => {
  const key = chatKeys.window(orderId);
  if (windowOf(queryClient, orderId)) {
    queryClient.setQueryData<MessageWindow>(key, (window) => mergeWindow(window, messages));
  } else if (queryClient.getQueryState(key)?.fetchStatus === 'fetching') {
    const map = earlyOf(queryClient);
    map.set(orderId, [...(map.get(orderId) ?? []), ...messages]);
  }
};

/** The read call's answer: these ids are read now. */
export const markIdsRead = (queryClient: QueryClient, orderId: number, ids: readonly number[]): void => {
  const read = new Set(ids);
  queryClient.setQueryData<MessageWindow>(chatKeys.window(orderId), (w) => (w ? { ...w, messages: markRead(w.messages, read) } : w));
};

/** Event 6: one side read `chat` up to `messageId` (`by` the customer: staff's messages; else the customer's). */
export const markReadEvent = (queryClient: QueryClient, event: { orderId: number; chat: ChatName; by: string; messageId: number }) =>
  queryClient.setQueryData<MessageWindow>(chatKeys.window(event.orderId), (w) =>
    w ? { ...w, messages: markReadUpTo(w.messages, event.chat, event.messageId, event.by === 'customer') } : w,
  );

/**
 * The order's messages (both chats, oldest first). The first load reads the newest page; every later
 * fetch (a reconnect, a remount) reads only what came after the newest message held and merges by id.
 */
const loadWindow = async (queryClient: QueryClient, side: ChatSide, orderId: number): Promise<MessageWindow> => {
  const key = chatKeys.window(orderId);
  const held = windowOf(queryClient, orderId);
  const after = held ? newestId(held.messages) : null;
  if (held && after !== null) {
    let cursor = after;
    for (let page = 0; page < MAX_CATCH_UP_PAGES; page += 1) {
      const newer = await getMessages(side, orderId, { after: cursor });
      // Merge into what the cache holds now: frames that arrived during the fetch stay.
      const merged = mergeWindow(windowOf(queryClient, orderId) ?? held, newer);
      queryClient.setQueryData(key, merged);
      if (newer.length < MESSAGE_PAGE_SIZE) return merged;
      cursor = newestId(merged.messages) ?? cursor;
    }
    // Away for very long: start again from the newest page.
  }
  const newest = await getMessages(side, orderId);
  return mergeWindow(
    held && after !== null ? undefined : windowOf(queryClient, orderId),
    [...newest, ...takeEarly(queryClient, orderId)],
    newest.length >= MESSAGE_PAGE_SIZE,
  );
};

export const messageWindowOptions = (queryClient: QueryClient, side: ChatSide, orderId: number) =>
  queryOptions({
    queryKey: chatKeys.window(orderId),
    queryFn: () => loadWindow(queryClient, side, orderId),
    // The socket keeps it current; a refetch happens on reconnect (catch-up) and on remount.
    staleTime: Infinity,
    refetchOnMount: 'always',
  });

/** The page before the oldest message held (`?before=`); `hasOlder` turns false at the start of the history. */
export const loadOlder = async (queryClient: QueryClient, side: ChatSide, orderId: number): Promise<void> => {
  const window = windowOf(queryClient, orderId);
  const before = window ? oldestId(window.messages) : null;
  if (!window || before === null || !window.hasOlder) return;
  const older = await getMessages(side, orderId, { before });
  queryClient.setQueryData<MessageWindow>(chatKeys.window(orderId), (w) => mergeWindow(w, older, older.length >= MESSAGE_PAGE_SIZE));
};
