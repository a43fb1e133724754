import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { WRITER_ONLINE_POLL_MS } from '@app/domain/chat/rules';
import { chatKeys } from '../api/keys';
import { getMessages, getWriterOnline, markMessagesRead, MESSAGE_PAGE_SIZE } from '../api/messages';
import { createReadBatcher } from '../lib/read-batch';
import { markRead, mergeWindow, newestId, oldestId, type MessageWindow } from '../lib/merge';
import { entriesOf, type OutboxEntry } from '../lib/outbox';
import { SUPPORT_TYPING_TIMEOUT_MS } from '../lib/typing';
import type { ChatName } from '../lib/chats';
import { chatSessionStore, type ChatSession } from '../socket/session';
import type { ConnectionStatus } from '../socket/connection';

const MAX_CATCH_UP_PAGES = 20;

const noSubscribe = () => () => undefined;

export const useChatSession = (): ChatSession | null =>
  useSyncExternalStore(chatSessionStore.subscribe, chatSessionStore.get, chatSessionStore.get);

export const useConnectionStatus = (): ConnectionStatus | null => {
  const session = useChatSession();
  return useSyncExternalStore(session?.status.subscribe ?? noSubscribe, () => session?.status.get() ?? null);
};

/**
 * The order's messages (both chats, oldest first). The first load reads the newest page; every later
 * fetch (a reconnect, a remount) reads only what came after the newest message held and merges by id.
 */
const loadWindow = async (queryClient: QueryClient, orderId: number): Promise<MessageWindow> => {
  const key = chatKeys.window(orderId);
  const held = queryClient.getQueryData<MessageWindow>(key);
  const after = held ? newestId(held.messages) : null;
  if (held && after !== null) {
    let cursor = after;
    for (let page = 0; page < MAX_CATCH_UP_PAGES; page += 1) {
      const newer = await getMessages(orderId, { after: cursor });
      // Merge into what the cache holds now: frames that arrived during the fetch stay.
      const merged = mergeWindow(queryClient.getQueryData<MessageWindow>(key) ?? held, newer);
      queryClient.setQueryData(key, merged);
      if (newer.length < MESSAGE_PAGE_SIZE) return merged;
      cursor = newestId(merged.messages) ?? cursor;
    }
    // Away for very long: start again from the newest page.
  }
  const newest = await getMessages(orderId);
  return mergeWindow(
    held && after !== null ? undefined : queryClient.getQueryData<MessageWindow>(key),
    newest,
    newest.length >= MESSAGE_PAGE_SIZE,
  );
};

export const messageWindowOptions = (queryClient: QueryClient, orderId: number) =>
  queryOptions({
    queryKey: chatKeys.window(orderId),
    queryFn: () => loadWindow(queryClient, orderId),
    // The socket keeps it current; a refetch happens on reconnect (catch-up) and on remount.
    staleTime: Infinity,
    refetchOnMount: 'always',
  });

export const useMessageWindow = (orderId: number) => {
  const queryClient = useQueryClient();
  const query = useQuery(messageWindowOptions(queryClient, orderId));
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState(false);
  const loadOlder = useCallback(async () => {
    const window = queryClient.getQueryData<MessageWindow>(chatKeys.window(orderId));
    const before = window ? oldestId(window.messages) : null;
    if (!window || before === null || !window.hasOlder) return;
    setLoadingOlder(true);
    setOlderError(false);
    try {
      const older = await getMessages(orderId, { before });
      queryClient.setQueryData<MessageWindow>(chatKeys.window(orderId), (w) => mergeWindow(w, older, older.length >= MESSAGE_PAGE_SIZE));
    } catch {
      setOlderError(true);
    } finally {
      setLoadingOlder(false);
    }
  }, [orderId, queryClient]);
  return { ...query, loadOlder, loadingOlder, olderError };
};

export { useOrderUnread } from '../api/use-order-unread';

/** The writer's online dot: polled every 60 s, event 8 in between (SPEC §4, §9). */
export const useWriterOnline = (orderId: number, enabled: boolean): boolean =>
  useQuery({
    queryKey: chatKeys.writerOnline(orderId),
    queryFn: () => getWriterOnline(orderId),
    enabled,
    refetchInterval: WRITER_ONLINE_POLL_MS,
    staleTime: WRITER_ONLINE_POLL_MS,
  }).data ?? false;

/** Support (or the writer) is typing (13) in this chat, until 14 or the timeout. */
export const useStaffTyping = (orderId: number, chat: ChatName): boolean => {
  const session = useChatSession();
  const key = `${orderId}:${chat}`;
  const startedAt = useSyncExternalStore(session?.typing.subscribe ?? noSubscribe, () => session?.typing.get().get(key) ?? null);
  // The start frame that timed out (no 14 came): hidden from then on, until the next 13.
  const [expired, setExpired] = useState<number | null>(null);
  useEffect(() => {
    if (startedAt === null) return;
    const timer = setTimeout(() => setExpired(startedAt), Math.max(0, startedAt + SUPPORT_TYPING_TIMEOUT_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [startedAt]);
  return startedAt !== null && expired !== startedAt;
};

const NO_ENTRIES: OutboxEntry[] = [];

/** This order's messages waiting in the outbox, in the order written. */
export const useOutboxEntries = (orderId: number): OutboxEntry[] => {
  const session = useChatSession();
  const all = useSyncExternalStore(session?.outbox.subscribe ?? noSubscribe, () => session?.outbox.get() ?? NO_ENTRIES);
  return useMemo(() => entriesOf(all, orderId), [all, orderId]);
};

const NO_PROGRESS: ReadonlyMap<string, number> = new Map();
export const useUploadProgress = (): ReadonlyMap<string, number> => {
  const session = useChatSession();
  return useSyncExternalStore(session?.progress.subscribe ?? noSubscribe, () => session?.progress.get() ?? NO_PROGRESS);
};

/**
 * Read receipts (ADR 0049): ids the customer has seen are batched into one PUT; the answer's counts
 * replace the order's unread, and the messages turn read in the cache.
 */
export const useReadReceipts = (orderId: number): ((ids: readonly number[]) => void) => {
  const queryClient = useQueryClient();
  const batcher = useRef<ReturnType<typeof createReadBatcher> | null>(null);
  useEffect(() => {
    const current = createReadBatcher({
      send: async (ids) => {
        const { unread } = await markMessagesRead(orderId, ids);
        const seen = new Set(ids);
        queryClient.setQueryData<MessageWindow>(chatKeys.window(orderId), (w) => (w ? { ...w, messages: markRead(w.messages, seen) } : w));
        queryClient.setQueryData(chatKeys.unread(orderId), unread);
        void queryClient.invalidateQueries({ queryKey: chatKeys.unreadAll() });
      },
    });
    batcher.current = current;
    return () => {
      current.flush();
      current.dispose();
      batcher.current = null;
    };
  }, [orderId, queryClient]);
  return useCallback((ids) => batcher.current?.seen(ids), []);
};
